// ControllerRevision names are a hash of the pod template as kube-apiserver stores it, so Ordinal and
// kube-controller-manager must produce the same names for the same apps/v1 set, or a workload moved
// between them would roll out for nothing. The same sets go to two namespaces: one reconciled by
// kube-controller-manager with only its statefulset controller on (started, compared, then stopped),
// the other by `ordinal controller --target=native`. No kubelet is needed: revisions are written on
// the first sync, before any pod runs.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { ControllerRevision, StatefulSet } from '../../src/api/types.js';
import { closeSession, createNamespace, deleteNamespace, modifyObject } from './cluster-session.js';
import { exampleSet, loadExample } from './examples.js';
import { APPS_V1_STATEFULSETS } from './exclusive.js';
import { e2eTest, type TestEnv } from './harness.js';
import { startIsolatedKcm } from './isolated-kcm.js';
import { waitUntil } from './wait.js';

afterAll(() => closeSession());

/** A template that exercises the encoding: defaulted fields, nested lists, HTML-escaped and non-ASCII text. */
function richSet(): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'rich', annotations: { team: 'data' } },
    spec: {
      replicas: 2,
      serviceName: 'rich',
      selector: { matchLabels: { app: 'rich' } },
      template: {
        metadata: { labels: { app: 'rich', tier: 'db' }, annotations: { note: 'a<b && c>d', 'unicode.example/text': 'naïve – “quoted” \u2028 line' } },
        spec: {
          terminationGracePeriodSeconds: 10,
          nodeSelector: { disk: 'ssd' },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
          containers: [
            {
              name: 'db',
              image: 'postgres:16',
              args: ['-c', 'max_connections=200'],
              env: [{ name: 'PGDATA', value: '/var/lib/postgresql/data/pgdata' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
              ports: [{ name: 'pg', containerPort: 5432 }],
              resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '1Gi' } },
              readinessProbe: { exec: { command: ['pg_isready'] }, periodSeconds: 5 },
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
            },
            { name: 'exporter', image: 'prom/postgres-exporter:v0.15.0', ports: [{ containerPort: 9187 }] },
          ],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  };
}

/** Every example's apps/v1 StatefulSet plus richSet; each gets a second revision (new image) later. */
function sets(): StatefulSet[] {
  const out = [richSet()];
  for (const file of ['blog-max-unavailable.yaml', 'parallel-min-ready.yaml', 'partitioned-canary.yaml', 'scale-up-down.yaml', 'demo.yaml']) {
    const ex = loadExample(file);
    for (const o of ex.objects.filter((x) => x.kind === 'StatefulSet' && x.apiVersion === 'apps/v1')) {
      const s = exampleSet(ex, o.metadata.name ?? '', { namespace: '', apiVersion: 'apps/v1' });
      if (out.some((x) => x.metadata.name === s.metadata.name)) s.metadata.name = `${s.metadata.name}-${out.length}`;
      out.push(s);
    }
  }
  return out;
}

interface Revisions {
  /** Per set: its ControllerRevisions as `name #revision`, sorted. */
  [set: string]: string[];
}

/** Creates every set in `ns`, waits for one revision each, updates every image, waits for two each. */
async function exercise(env: TestEnv, ns: string, all: StatefulSet[]): Promise<{ names: Revisions; data: Map<string, unknown> }> {
  for (const s of all) await env.client.create(Resources.statefulSets, { ...s, metadata: { ...s.metadata, namespace: ns } });
  await waitForRevisions(env, ns, all, 1);
  for (const s of all) {
    await modifyObject<StatefulSet>(env.client, Resources.statefulSets, ns, s.metadata.name ?? '', (live) => {
      for (const c of live.spec.template.spec?.containers ?? []) c.image = `${c.image}-next`;
    });
  }
  return waitForRevisions(env, ns, all, 2);
}

async function waitForRevisions(env: TestEnv, ns: string, all: StatefulSet[], count: number): Promise<{ names: Revisions; data: Map<string, unknown> }> {
  let names: Revisions = {};
  const data = new Map<string, unknown>();
  await waitUntil(`${count} ControllerRevision(s) per set in ${ns}`, 60_000, async () => {
    const list = await env.client.list<ControllerRevision>(Resources.controllerRevisions, ns);
    names = {};
    for (const r of list.items) {
      const owner = r.metadata.ownerReferences?.find((o) => o.controller)?.name ?? '?';
      (names[owner] ??= []).push(`${r.metadata.name} #${r.revision}`);
      data.set(r.metadata.name ?? '', r.data);
    }
    const short = all.filter((s) => (names[s.metadata.name ?? '']?.length ?? 0) < count).map((s) => s.metadata.name);
    return short.length === 0 || `waiting for ${short.join(', ')}`;
  });
  for (const k of Object.keys(names)) names[k]!.sort();
  return { names, data };
}

describe('ControllerRevision names match kube-controller-manager', () => {
  e2eTest('Ordinal (--target=native) names every revision as kube-controller-manager does for the same apps/v1 sets', {
    timeout: 240_000,
    target: 'native',
    controller: false,
    exclusive: APPS_V1_STATEFULSETS,
  }, async (env) => {
    const all = sets();
    const kcmNs = await createNamespace(env.client, 'e2e-revisions-kcm');
    env.onClose(() => deleteNamespace(env.client, kcmNs));
    const kcm = await startIsolatedKcm(env.cp, ['statefulset-controller']);
    let upstream;
    try {
      upstream = await exercise(env, kcmNs, all);
    } catch (e) {
      throw new Error(`${e instanceof Error ? e.message : String(e)}\nkube-controller-manager log:\n${kcm.tail()}`);
    } finally {
      await kcm.stop();
    }

    env.startController({ target: 'native' });
    const ordinal = await exercise(env, env.ns, all);
    assert.deepEqual(ordinal.names, upstream.names);
    env.note(`${Object.values(upstream.names).flat().length} revisions of ${all.length} sets: ${Object.values(upstream.names).flat().join(', ')}`);
    for (const [name, data] of upstream.data) assert.deepEqual(ordinal.data.get(name), data, `data of ${name}`);
  });
});
