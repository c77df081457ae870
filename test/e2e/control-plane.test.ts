// Against the real kube-apiserver from scripts/control-plane/up.sh: the build is what it says it is, and
// Ordinal's defaulting and validation agree with the server's.
import { after, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  kubeRequester,
  requireControlPlane,
  startControllerManager,
  type ControlPlane,
  type KubeRequest,
} from './control-plane.js';
import { upstream137Features } from '../../src/api/features.js';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import { formatInvalid, validateStatefulSet } from '../../src/api/validation/index.js';
import type { StatefulSet } from '../../src/api/types.js';

const NAMESPACE = `ordinal-cp-${process.pid}-${process.hrtime.bigint().toString(36).slice(-6)}`;
const SETS = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets`;

interface Session {
  cp: ControlPlane;
  request: KubeRequest;
}

let namespace: Promise<void> | undefined;
let session: Session | undefined;

/** The control plane and a namespace for this file, or undefined when the test was skipped. */
async function connect(t: TestContext): Promise<Session | undefined> {
  const cp = requireControlPlane(t);
  if (!cp) return undefined;
  session ??= { cp, request: kubeRequester(cp.kubeconfigPath) };
  const { request } = session;
  namespace ??= request('POST', '/api/v1/namespaces', { metadata: { name: NAMESPACE } }).then((res) => {
    assert.equal(res.status, 201, `creating namespace ${NAMESPACE}: ${JSON.stringify(res.body)}`);
  });
  await namespace;
  return session;
}

after(async () => {
  if (session && namespace) await session.request('DELETE', `/api/v1/namespaces/${NAMESPACE}`);
});

function minimalSet(name: string, spec: Partial<StatefulSet['spec']> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
      },
      ...spec,
    },
  };
}

/** Every path where the two JSON values differ, as `path: server X, ordinal Y`. */
function jsonDiff(server: unknown, local: unknown, path = ''): string[] {
  if (JSON.stringify(server) === JSON.stringify(local)) return [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (isObject(server) && isObject(local) && Array.isArray(server) === Array.isArray(local)) {
    const keys = [...new Set([...Object.keys(server), ...Object.keys(local)])].sort();
    return keys.flatMap((k) => jsonDiff(server[k], local[k], Array.isArray(server) ? `${path}[${k}]` : `${path}.${k}`));
  }
  return [`${path || '.'}: server ${JSON.stringify(server)}, ordinal ${JSON.stringify(local)}`];
}

/** The version build.sh stamped into binDir/.complete; undefined for binaries from elsewhere. */
function stampedVersion(binDir: string): string | undefined {
  const path = join(binDir, '.complete');
  if (!existsSync(path)) return undefined;
  return /^kubernetes=(\S+)$/m.exec(readFileSync(path, 'utf8'))?.[1];
}

describe('control plane built from source', () => {
  it('reports the built Kubernetes 1.37 version on /version', async (t) => {
    const s = await connect(t);
    if (!s) return;
    const res = await s.request<Record<string, string>>('GET', '/version');
    assert.equal(res.status, 200);
    const built = stampedVersion(s.cp.binDir);
    if (built) assert.equal(res.body.gitVersion, built, 'gitVersion is the version build.sh stamped');
    assert.match(res.body.gitVersion ?? '', /^v1\.37\.\d+$/);
    assert.equal(res.body.major, '1');
    assert.equal(res.body.minor, '37');
    assert.equal(res.body.gitTreeState, 'clean');
    if (res.body.gitVersion !== 'v1.37.2') t.diagnostic(`server is ${res.body.gitVersion}, not v1.37.2 (build.sh fell back?)`);
  });

  it('creates an apps/v1 StatefulSet and reads the same object back', async (t) => {
    const s = await connect(t);
    if (!s) return;
    const created = await s.request<StatefulSet>('POST', SETS, minimalSet('web'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await s.request<StatefulSet>('GET', `${SETS}/web`);
    assert.equal(read.status, 200);
    assert.equal(read.body.metadata.uid, created.body.metadata.uid);
    assert.equal(read.body.metadata.generation, 1);
    assert.deepEqual(read.body.spec, created.body.spec);
    assert.equal(read.body.spec.replicas, 1);
  });
});

/** Polls `probe` up to `tries` times, 500 ms apart; returns the first truthy value or undefined. */
async function eventually<T>(probe: () => Promise<T | undefined>, tries = 60): Promise<T | undefined> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  return undefined;
}

describe('controllers and credentials', () => {
  it('runs the chosen kube-controller-manager controllers until stopped', async (t) => {
    const s = await connect(t);
    if (!s) return;
    const kcm = await startControllerManager(['serviceaccount-controller'], { controlPlane: s.cp });
    try {
      const sa = await eventually(async () => {
        const res = await s.request('GET', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/default`);
        return res.status === 200 ? res : undefined;
      });
      assert.ok(sa, 'serviceaccount-controller created the default ServiceAccount');
    } finally {
      await kcm.stop();
    }
    const pidFile = join(s.cp.dir, `kube-controller-manager-${kcm.instance}.pid`);
    assert.throws(() => readFileSync(pidFile), /ENOENT/, 'stop removed the pid file');
  });

  it('enforces RBAC for a ServiceAccount token minted without a controller manager', async (t) => {
    const s = await connect(t);
    if (!s) return;
    const sa = await s.request('POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, { metadata: { name: 'reader' } });
    assert.equal(sa.status, 201, JSON.stringify(sa.body));
    const minted = await s.request<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/reader/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } },
    );
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    const asReader = kubeRequester(s.cp.kubeconfigPath, { token: minted.body.status.token });
    assert.equal((await asReader('GET', SETS)).status, 403, 'no RoleBinding yet');
    const role = { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list'] };
    const created = await s.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/roles`, {
      metadata: { name: 'reader' },
      rules: [role],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const bound = await s.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NAMESPACE}/rolebindings`, {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NAMESPACE }],
    });
    assert.equal(bound.status, 201, JSON.stringify(bound.body));
    const listed = await eventually(async () => ((await asReader('GET', SETS)).status === 200 ? true : undefined), 20);
    assert.ok(listed, 'the RoleBinding lets the token list StatefulSets');
    assert.equal((await asReader('DELETE', `${SETS}/web`)).status, 403, 'but not delete them');
  });
});

const DEFAULTING_CASES: { desc: string; spec: Partial<StatefulSet['spec']> }[] = [
  { desc: 'a minimal set', spec: {} },
  { desc: 'type RollingUpdate without a rollingUpdate block', spec: { updateStrategy: { type: 'RollingUpdate' } } },
  { desc: 'an empty rollingUpdate block', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: {} } } },
  { desc: 'OnDelete', spec: { updateStrategy: { type: 'OnDelete' } } },
  {
    desc: 'Parallel with a partial retention policy and ordinals',
    spec: { podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' }, ordinals: {} },
  },
  { desc: 'replicas 0 and revisionHistoryLimit 0', spec: { replicas: 0, revisionHistoryLimit: 0 } },
  {
    desc: 'volumeClaimTemplates',
    spec: {
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  },
  {
    desc: 'a pod template with ports, probes, env, an init container and volumes',
    spec: {
      template: {
        metadata: { labels: { app: 'defaults' } },
        spec: {
          initContainers: [{ name: 'init', image: 'busybox:1.37', command: ['true'] }],
          containers: [
            {
              name: 'app',
              image: 'nginx',
              ports: [{ containerPort: 80, name: 'http' }],
              readinessProbe: { httpGet: { path: '/', port: 'http' } },
              livenessProbe: { tcpSocket: { port: 80 } },
              env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
              volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
            },
          ],
          volumes: [
            { name: 'cfg', configMap: { name: 'cfg' } },
            { name: 'secret', secret: { secretName: 's' } },
            { name: 'scratch', emptyDir: {} },
            { name: 'api', projected: { sources: [{ downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
          ],
        },
      },
    },
  },
];

describe('defaulting matches kube-apiserver', () => {
  for (const c of DEFAULTING_CASES) {
    it(`defaults ${c.desc} exactly as the server does`, async (t) => {
      const s = await connect(t);
      if (!s) return;
      const set = minimalSet('defaults', c.spec);
      const res = await s.request<StatefulSet>('POST', `${SETS}?dryRun=All`, set);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const local = defaultStatefulSet(structuredClone(set), upstream137Features());
      assert.deepEqual(jsonDiff(res.body.spec, local.spec, 'spec'), []);
    });
  }
});

const INVALID_CASES: { desc: string; name?: string; spec: Partial<StatefulSet['spec']> }[] = [
  { desc: 'negative replicas', spec: { replicas: -1 } },
  { desc: 'an unknown podManagementPolicy', spec: { podManagementPolicy: 'Sometimes' } },
  { desc: 'rollingUpdate with OnDelete', spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } } },
  { desc: 'a negative partition', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } } },
  { desc: 'maxUnavailable 0', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } } } },
  { desc: 'maxUnavailable "5" without %', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '5' } } } },
  { desc: 'maxUnavailable 150%', spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } } } },
  { desc: 'Recreate while its gate is off', spec: { updateStrategy: { type: 'Recreate' } } },
  { desc: 'an unknown update strategy', spec: { updateStrategy: { type: 'Sometimes' } } },
  { desc: 'negative minReadySeconds and ordinals.start', spec: { minReadySeconds: -1, ordinals: { start: -1 } } },
  { desc: 'an unknown retention policy', spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } } },
  { desc: 'a serviceName that is not a DNS label', spec: { serviceName: 'Bad_Name' } },
  { desc: 'an empty selector', spec: { selector: {} } },
  { desc: 'a selector that does not match the template', spec: { selector: { matchLabels: { app: 'other' } } } },
  { desc: 'a name that is not a DNS label', name: 'Web', spec: {} },
];

interface StatusBody {
  kind?: string;
  reason?: string;
  message?: string;
  details?: { causes?: { reason?: string; message?: string; field?: string }[] };
}

describe('validation messages match kube-apiserver', () => {
  for (const c of INVALID_CASES) {
    it(`rejects ${c.desc} with the server's message`, async (t) => {
      const s = await connect(t);
      if (!s) return;
      const set = minimalSet(c.name ?? 'invalid', c.spec);
      const res = await s.request<StatusBody>('POST', `${SETS}?dryRun=All`, set);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.reason, 'Invalid');
      const features = upstream137Features();
      const issues = validateStatefulSet(defaultStatefulSet(structuredClone(set), features), features);
      assert.equal(formatInvalid('StatefulSet', 'apps', set.metadata.name ?? '', issues), res.body.message);
    });
  }
});
