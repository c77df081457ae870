import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultClaim, defaultPod, defaultPodSpec, defaultPullPolicy, imageTag } from '../../src/api/pod-defaults.js';
import type { PersistentVolumeClaim, Pod, PodSpec } from '../../src/api/types.js';
import { getPath } from './fixtures.js';

const spec = (extra: Record<string, unknown> = {}): PodSpec => ({ containers: [{ name: 'c', image: 'nginx' }], ...extra }) as PodSpec;

describe('defaultPodSpec (SetDefaults_PodSpec and the generated nested defaulters)', () => {
  const table: Array<[string, PodSpec, string, unknown]> = [
    ['restartPolicy → Always', spec(), 'restartPolicy', 'Always'],
    ['dnsPolicy → ClusterFirst', spec(), 'dnsPolicy', 'ClusterFirst'],
    ['terminationGracePeriodSeconds → 30', spec(), 'terminationGracePeriodSeconds', 30],
    ['an explicit terminationGracePeriodSeconds 0 is kept', spec({ terminationGracePeriodSeconds: 0 }), 'terminationGracePeriodSeconds', 0],
    ['schedulerName → default-scheduler', spec(), 'schedulerName', 'default-scheduler'],
    ['securityContext → {}', spec(), 'securityContext', {}],
    ['an explicit restartPolicy is kept', spec({ restartPolicy: 'Never' }), 'restartPolicy', 'Never'],
    ['"" counts as empty', spec({ dnsPolicy: '' }), 'dnsPolicy', 'ClusterFirst'],
    ['container terminationMessagePath', spec(), 'containers.0.terminationMessagePath', '/dev/termination-log'],
    ['container terminationMessagePolicy', spec(), 'containers.0.terminationMessagePolicy', 'File'],
    ['container resources → {}', spec(), 'containers.0.resources', {}],
    ['untagged image pulls Always', spec(), 'containers.0.imagePullPolicy', 'Always'],
    ['an explicit imagePullPolicy is kept', spec({ containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Never' }] }), 'containers.0.imagePullPolicy', 'Never'],
    ['port protocol → TCP', spec({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80 }] }] }), 'containers.0.ports.0.protocol', 'TCP'],
    ['an explicit UDP port is kept', spec({ containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 53, protocol: 'UDP' }] }] }), 'containers.0.ports.0.protocol', 'UDP'],
    ['init containers too', spec({ initContainers: [{ name: 'i', image: 'busybox:1.36' }] }), 'initContainers.0.imagePullPolicy', 'IfNotPresent'],
    ['env fieldRef apiVersion → v1', spec({ containers: [{ name: 'c', image: 'x:1', env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }] }), 'containers.0.env.0.valueFrom.fieldRef.apiVersion', 'v1'],
    ['probe defaults', spec({ containers: [{ name: 'c', image: 'x:1', readinessProbe: { httpGet: { port: 80 } } }] }), 'containers.0.readinessProbe', { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 }],
    ['probe 0 counts as unset', spec({ containers: [{ name: 'c', image: 'x:1', livenessProbe: { exec: {}, periodSeconds: 0 } }] }), 'containers.0.livenessProbe.periodSeconds', 10],
    ['grpc probe service → ""', spec({ containers: [{ name: 'c', image: 'x:1', startupProbe: { grpc: { port: 9 } } }] }), 'containers.0.startupProbe.grpc.service', ''],
    ['lifecycle httpGet defaults', spec({ containers: [{ name: 'c', image: 'x:1', lifecycle: { preStop: { httpGet: { port: 8 } } } }] }), 'containers.0.lifecycle.preStop.httpGet.scheme', 'HTTP'],
    ['a volume without a source becomes emptyDir', spec({ volumes: [{ name: 'v' }] }), 'volumes.0', { name: 'v', emptyDir: {} }],
    ['secret defaultMode → 0644', spec({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }), 'volumes.0.secret.defaultMode', 420],
    ['configMap defaultMode → 0644', spec({ volumes: [{ name: 'v', configMap: { name: 'm' } }] }), 'volumes.0.configMap.defaultMode', 420],
    ['an explicit defaultMode is kept', spec({ volumes: [{ name: 'v', configMap: { name: 'm', defaultMode: 256 } }] }), 'volumes.0.configMap.defaultMode', 256],
    ['hostPath type → ""', spec({ volumes: [{ name: 'v', hostPath: { path: '/x' } }] }), 'volumes.0.hostPath.type', ''],
    ['projected token expirationSeconds → 3600', spec({ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }), 'volumes.0.projected.sources.0.serviceAccountToken.expirationSeconds', 3600],
    ['projected defaultMode → 0644', spec({ volumes: [{ name: 'v', projected: { sources: [] } }] }), 'volumes.0.projected.defaultMode', 420],
    ['downwardAPI items fieldRef apiVersion', spec({ volumes: [{ name: 'v', downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'metadata.name' } }] } }] }), 'volumes.0.downwardAPI.items.0.fieldRef.apiVersion', 'v1'],
    ['ephemeral claim volumeMode → Filesystem', spec({ volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }] }), 'volumes.0.ephemeral.volumeClaimTemplate.spec.volumeMode', 'Filesystem'],
    ['image volume pullPolicy by tag', spec({ volumes: [{ name: 'v', image: { reference: 'repo/data:latest' } }] }), 'volumes.0.image.pullPolicy', 'Always'],
  ];
  for (const [name, input, path, want] of table) it(name, () => assert.deepEqual(getPath(defaultPodSpec(input), path), want));

  it('does not mutate its input and is idempotent', () => {
    const input = spec({ volumes: [{ name: 'v' }] });
    const before = structuredClone(input);
    const once = defaultPodSpec(input);
    assert.deepEqual(input, before);
    assert.deepEqual(defaultPodSpec(once), once);
  });
});

describe('imagePullPolicy (parsers.ParseImageName tag)', () => {
  const table: Array<[string, string, string]> = [
    ['nginx', 'latest', 'Always'],
    ['nginx:latest', 'latest', 'Always'],
    ['nginx:1.27', '1.27', 'IfNotPresent'],
    ['registry.example.com:5000/team/app', 'latest', 'Always'],
    ['registry.example.com:5000/team/app:v2', 'v2', 'IfNotPresent'],
    ['localhost/app:latest', 'latest', 'Always'],
    [`nginx@sha256:${'a'.repeat(64)}`, '', 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'latest', 'Always'],
    ['Nginx', '', 'IfNotPresent'],
    ['', '', 'IfNotPresent'],
    ['bad image name', '', 'IfNotPresent'],
  ];
  for (const [image, tag, policy] of table) {
    it(`${JSON.stringify(image)} has tag ${JSON.stringify(tag)} and pulls ${policy}`, () => {
      assert.equal(imageTag(image), tag);
      assert.equal(defaultPullPolicy(image), policy);
    });
  }
});

describe('defaultPod (SetDefaults_Pod)', () => {
  it('adds enableServiceLinks and copies limits into missing requests', () => {
    const pod = defaultPod({
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x:1', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } }] },
    } as Pod);
    assert.equal(getPath(pod, 'spec.enableServiceLinks'), true);
    assert.deepEqual(getPath(pod, 'spec.containers.0.resources.requests'), { cpu: '500m', memory: '1Gi' });
    assert.equal(getPath(pod, 'spec.restartPolicy'), 'Always');
  });
  it('defaults hostPort to containerPort on the host network', () => {
    const pod = defaultPod({ metadata: {}, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80 }] }] } } as Pod);
    assert.equal(getPath(pod, 'spec.containers.0.ports.0.hostPort'), 80);
  });
});

describe('defaultClaim (PVC template defaults)', () => {
  it('sets status.phase Pending and spec.volumeMode Filesystem', () => {
    const claim = defaultClaim({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } } as PersistentVolumeClaim);
    assert.equal(getPath(claim, 'status.phase'), 'Pending');
    assert.equal(getPath(claim, 'spec.volumeMode'), 'Filesystem');
  });
  it('keeps an explicit Block volumeMode', () => {
    const claim = defaultClaim({ metadata: {}, spec: { volumeMode: 'Block' } } as PersistentVolumeClaim);
    assert.equal(getPath(claim, 'spec.volumeMode'), 'Block');
  });
});
