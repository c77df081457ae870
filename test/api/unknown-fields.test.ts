import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StrictDecodingError } from '../../src/api/errors.js';
import { statefulSetSchema } from '../../src/api/schema/statefulset-schema.js';
import { Resources } from '../../src/api/client.js';
import { checkKnownFields, strictDecodingMessage, unknownFields } from '../../src/api/validation/index.js';
import { loadYamlDocuments } from '../../src/api/yaml-loader.js';

const set = (spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'app:1' }] } },
    ...spec,
  },
  ...extra,
});

describe('unknownFields (strict field validation)', () => {
  it('accepts every field the schema declares, the pod spec\'s as Kubernetes 1.37 declares them', () => {
    const container = {
      name: 'c',
      image: 'app:1',
      imagePullPolicy: 'IfNotPresent',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      resources: { requests: { cpu: 0.5, memory: '1Gi' }, limits: { cpu: '1' } },
      readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    };
    const podSpec = {
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [container],
      volumes: [{ name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a' }] } }],
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } } }] } },
      tolerations: [{ key: 'k', operator: 'Exists' }],
      nodeSelector: { disk: 'ssd' },
      terminationGracePeriodSeconds: 30,
    };
    const full = set({
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      template: { metadata: { labels: { app: 'web' }, annotations: { a: 'b' } }, spec: podSpec },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }, { status: { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] } });
    assert.deepEqual(unknownFields(full, statefulSetSchema), []);
  });

  it('names every misspelt field of the pod spec by its full path, as kube-apiserver\'s strict decoding does', () => {
    const podSpec = {
      containers: [{ name: 'c', image: 'app:1', imagePullPolicyy: 'Always', ports: [{ containerPort: 80, hostPot: 1 }] }],
      initContainers: [{ name: 'init', image: 'busybox', comand: ['sh'] }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimNam: 'x' } }],
      nodeSelectr: { disk: 'ssd' },
    };
    assert.deepEqual(unknownFields(set({ template: { metadata: { labels: { app: 'web' } }, spec: podSpec } }), statefulSetSchema), [
      'spec.template.spec.containers[0].imagePullPolicyy',
      'spec.template.spec.containers[0].ports[0].hostPot',
      'spec.template.spec.initContainers[0].comand',
      'spec.template.spec.volumes[0].persistentVolumeClaim.claimNam',
      'spec.template.spec.nodeSelectr',
    ]);
  });

  for (const [desc, spec, path] of [
    ['spec.replicaz', { replicaz: 5 }, 'spec.replicaz'],
    ['spec.podManagmentPolicy', { podManagmentPolicy: 'Parallel' }, 'spec.podManagmentPolicy'],
    ['rollingUpdate.maxUnavailble', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailble: 3 } } }, 'spec.updateStrategy.rollingUpdate.maxUnavailble'],
    ['a pod template metadata typo', { template: { metadata: { labelz: {} }, spec: {} } }, 'spec.template.metadata.labelz'],
    ['a claim template spec typo', { volumeClaimTemplates: [{ metadata: { name: 'd' }, spec: { storageClass: 'x' } }] }, 'spec.volumeClaimTemplates[0].spec.storageClass'],
  ] as const) {
    it(`names ${desc} by its full path`, () => assert.deepEqual(unknownFields(set(spec), statefulSetSchema), [path]));
  }

  it('refuses __proto__ and constructor keys as unknown fields without touching any prototype', () => {
    const [doc] = loadYamlDocuments('spec:\n  __proto__: {polluted: true}\n  constructor: {polluted: true}\n  toString: x\n');
    assert.deepEqual(unknownFields(doc, statefulSetSchema), ['spec.__proto__', 'spec.constructor', 'spec.toString']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf((doc as { spec: object }).spec), Object.prototype);
  });

  it('throws the API server\'s 400 message for either API version', () => {
    assert.throws(() => checkKnownFields(Resources.ordinalStatefulSets, set({ replicaz: 1, podManagmentPolicy: 'x' })), (e: unknown) => {
      assert.ok(e instanceof StrictDecodingError);
      assert.equal(e.code, 400);
      assert.deepEqual(e.fields, ['spec.replicaz', 'spec.podManagmentPolicy']);
      assert.equal(
        e.message,
        'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.replicaz", unknown field "spec.podManagmentPolicy"',
      );
      return true;
    });
    assert.equal(strictDecodingMessage('StatefulSet', 'v1', ['a']), 'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "a"');
  });

  it('stops after a bounded number of fields', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, i]));
    assert.equal(unknownFields(set(many), statefulSetSchema).length, 100);
  });
});
