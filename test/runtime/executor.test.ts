import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { ApiError, ConflictError, isAlreadyExists, isConflict } from '../../src/api/errors.js';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { applyPlan, batchesOf } from '../../src/runtime/executor.js';
import { FakeCluster } from './fake-cluster.js';

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default', uid: 'set-uid' },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};
const ownerRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true };

const pod = (name: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...extra },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});
const claim = (name: string): PersistentVolumeClaim => ({ metadata: { name, namespace: 'default' }, spec: {} });
const revision = (name: string, data: unknown, n = 1): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name, namespace: 'default', ownerReferences: [ownerRef] },
  data,
  revision: n,
});

const plan = (actions: Action[]): Plan => ({
  status: { replicas: 0 },
  statusChanged: false,
  actions,
  blockers: [],
  events: [],
  metrics: { maxUnavailable: 1, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false },
});

function setup() {
  const cluster = new FakeCluster();
  cluster.seed(Resources.statefulSets, set);
  const ctx = { set: cluster.peek<StatefulSet>(Resources.statefulSets, 'default', 'web')!, resource: Resources.statefulSets };
  return { cluster, ctx };
}

const createPod = (ordinal: number, batch: number): Action => ({ kind: 'createPod', batch, ordinal, pod: pod(`web-${ordinal}`) });
const boom = () => new ApiError('internal error', 500, 'InternalError');

describe('executor: batches', () => {
  it('groups actions by batch number in ascending order, keeping plan order inside a batch', () => {
    const a = createPod(0, 2);
    const b = createPod(1, 0);
    const c = createPod(2, 2);
    assert.deepEqual(batchesOf([a, b, c]), [[b], [a, c]]);
  });

  it('starts every action of a batch before any of them finishes, and the next batch only after', async () => {
    const { cluster, ctx } = setup();
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const create = cluster.create.bind(cluster);
    cluster.create = async (res, obj) => {
      started.push(obj.metadata.name ?? '');
      await new Promise<void>((r) => releases.push(r));
      return create(res, obj);
    };
    const running = applyPlan(plan([createPod(0, 0), createPod(1, 0), createPod(2, 1)]), cluster, ctx);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['web-0', 'web-1']);
    for (const r of releases.splice(0)) r();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['web-0', 'web-1', 'web-2']);
    for (const r of releases.splice(0)) r();
    const result = await running;
    assert.equal(result.executed.size, 3);
  });

  it('does not start later batches after a failure, and reports what ran and what failed', async () => {
    const { cluster, ctx } = setup();
    const actions = [createPod(0, 0), createPod(1, 1), createPod(2, 1), createPod(3, 2)];
    cluster.seed(Resources.pods, pod('web-1')); // batch 1's first action fails with AlreadyExists
    const result = await applyPlan(plan(actions), cluster, ctx);
    assert.deepEqual([...result.executed], [actions[0], actions[2]]);
    assert.equal(result.failures.length, 1);
    assert.equal(result.failures[0]!.action, actions[1]);
    assert.ok(isAlreadyExists(result.failures[0]!.error));
    assert.equal(cluster.peek(Resources.pods, 'default', 'web-3'), undefined);
  });

  it('still deletes old revisions after a failure, as upstream truncates history on error', async () => {
    const { cluster, ctx } = setup();
    cluster.seed(Resources.controllerRevisions, revision('web-old', { a: 1 }));
    cluster.failNext('create', boom(), 'pods');
    const del: Action = { kind: 'deleteRevision', batch: 5, name: 'web-old' };
    const result = await applyPlan(plan([createPod(0, 0), createPod(1, 1), del]), cluster, ctx);
    assert.equal(result.failures.length, 1);
    assert.ok(result.executed.has(del));
    assert.equal(cluster.peek(Resources.controllerRevisions, 'default', 'web-old'), undefined);
    assert.equal(cluster.calls.filter((c) => c.verb === 'create').length, 1);
  });

  it('reports each written object to onApplied', async () => {
    const { cluster, ctx } = setup();
    const seen: [string, string | undefined][] = [];
    await applyPlan(plan([createPod(0, 0)]), cluster, {
      ...ctx,
      onApplied: (a, written) => seen.push([a.kind, written?.metadata.resourceVersion]),
    });
    assert.deepEqual(seen, [['createPod', '2']]);
  });
});

describe('executor: pods', () => {
  it('deletes a pod with a UID precondition and treats an already deleted pod as done', async () => {
    const { cluster, ctx } = setup();
    const live = cluster.seed(Resources.pods, pod('web-0'));
    const actions: Action[] = [
      { kind: 'deletePod', batch: 0, name: 'web-0', uid: live.metadata.uid!, ordinal: 0, cause: 'update' },
      { kind: 'deletePod', batch: 0, name: 'web-9', uid: 'gone', ordinal: 9, cause: 'condemned' },
    ];
    const result = await applyPlan(plan(actions), cluster, ctx);
    assert.equal(result.executed.size, 2);
    const del = cluster.calls.find((c) => c.verb === 'delete' && c.name === 'web-0');
    assert.deepEqual(del?.body, { uid: live.metadata.uid });
  });

  it('refuses to delete a recreated pod of the same name (UID precondition)', async () => {
    const { cluster, ctx } = setup();
    cluster.seed(Resources.pods, pod('web-0'));
    const action: Action = { kind: 'deletePod', batch: 0, name: 'web-0', uid: 'old-uid', ordinal: 0, cause: 'update' };
    const result = await applyPlan(plan([action]), cluster, ctx);
    assert.ok(isConflict(result.failures[0]?.error));
    assert.notEqual(cluster.peek(Resources.pods, 'default', 'web-0'), undefined);
  });

  it('retries a conflicting pod update on the latest pod, keeping changes made by others', async () => {
    const { cluster, ctx } = setup();
    const cached = cluster.seed(Resources.pods, pod('web-0', { labels: { app: 'web' } }));
    const latest = await cluster.update(Resources.pods, { ...cached, status: { phase: 'Running' } } as Pod);
    const desired: Pod = {
      ...cached,
      metadata: { ...cached.metadata, labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0' }, ownerReferences: [ownerRef] },
      spec: { ...cached.spec, hostname: 'web-0', subdomain: 'web' },
    };
    const result = await applyPlan(plan([{ kind: 'updatePod', batch: 0, ordinal: 0, pod: desired }]), cluster, ctx);
    assert.equal(result.failures.length, 0);
    const stored = cluster.peek<Pod>(Resources.pods, 'default', 'web-0')!;
    assert.equal(stored.status?.phase, 'Running');
    assert.equal(stored.spec.hostname, 'web-0');
    assert.equal(stored.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-0');
    assert.deepEqual(stored.metadata.ownerReferences, [ownerRef]);
    assert.notEqual(stored.metadata.resourceVersion, latest.metadata.resourceVersion);
  });

  it('gives up on an update after five conflicts', async () => {
    const { cluster, ctx } = setup();
    const cached = cluster.seed(Resources.pods, pod('web-0'));
    for (let i = 0; i < 5; i++) cluster.failNext('update', new ConflictError('conflict'));
    const result = await applyPlan(plan([{ kind: 'updatePod', batch: 0, ordinal: 0, pod: cached }]), cluster, ctx);
    assert.ok(isConflict(result.failures[0]?.error));
    assert.equal(cluster.calls.filter((c) => c.verb === 'update').length, 5);
  });

  it('adopts an orphan with a controller reference after re-reading the set', async () => {
    const { cluster, ctx } = setup();
    const orphan = cluster.seed(Resources.pods, pod('web-0'));
    const result = await applyPlan(plan([{ kind: 'adoptPod', batch: 0, pod: orphan }]), cluster, ctx);
    assert.equal(result.failures.length, 0);
    assert.deepEqual(cluster.peek<Pod>(Resources.pods, 'default', 'web-0')!.metadata.ownerReferences, [ownerRef]);
    assert.ok(cluster.calls.some((c) => c.verb === 'get' && c.resource === 'statefulsets'));
  });

  it('does not adopt when the set was recreated under the same name', async () => {
    const { cluster, ctx } = setup();
    const orphan = cluster.seed(Resources.pods, pod('web-0'));
    const stale = { ...ctx, set: { ...ctx.set, metadata: { ...ctx.set.metadata, uid: 'older-uid' } } };
    const result = await applyPlan(plan([{ kind: 'adoptPod', batch: 0, pod: orphan }]), cluster, stale);
    assert.match(result.failures[0]!.error.message, /original StatefulSet default\/web is gone: got uid .*, wanted older-uid/);
    assert.equal(cluster.peek<Pod>(Resources.pods, 'default', 'web-0')!.metadata.ownerReferences, undefined);
  });

  it('releases a pod by removing only the set reference', async () => {
    const { cluster, ctx } = setup();
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'other' };
    const owned = cluster.seed(Resources.pods, pod('web-0', { ownerReferences: [other, ownerRef] }));
    await applyPlan(plan([{ kind: 'releasePod', batch: 0, pod: owned }]), cluster, ctx);
    assert.deepEqual(cluster.peek<Pod>(Resources.pods, 'default', 'web-0')!.metadata.ownerReferences, [other]);
  });
});

describe('executor: claims and revisions', () => {
  it('tolerates a claim that already exists', async () => {
    const { cluster, ctx } = setup();
    cluster.seed(Resources.persistentVolumeClaims, claim('data-web-0'));
    const result = await applyPlan(plan([{ kind: 'createClaim', batch: 0, claim: claim('data-web-0'), podName: 'web-0' }]), cluster, ctx);
    assert.equal(result.executed.size, 1);
  });

  it('treats an existing revision with identical data as created, and different data as a failure', async () => {
    const { cluster, ctx } = setup();
    cluster.seed(Resources.controllerRevisions, revision('web-same', { spec: 1 }));
    cluster.seed(Resources.controllerRevisions, revision('web-clash', { spec: 2 }));
    const same: Action = { kind: 'createRevision', batch: 0, revision: revision('web-same', { spec: 1 }) };
    const clash: Action = { kind: 'createRevision', batch: 0, revision: revision('web-clash', { spec: 3 }) };
    const result = await applyPlan(plan([same, clash]), cluster, ctx);
    assert.ok(result.executed.has(same));
    assert.ok(isAlreadyExists(result.failures[0]?.error));
  });

  it('re-numbers a revision for a rollback, retrying on conflict', async () => {
    const { cluster, ctx } = setup();
    const stored = cluster.seed(Resources.controllerRevisions, revision('web-a', { spec: 1 }, 1));
    cluster.failNext('update', new ConflictError('conflict'));
    const action: Action = { kind: 'updateRevision', batch: 0, revision: { ...stored, revision: 3 } };
    const result = await applyPlan(plan([action]), cluster, ctx);
    assert.equal(result.failures.length, 0);
    assert.equal(cluster.peek<ControllerRevision>(Resources.controllerRevisions, 'default', 'web-a')!.revision, 3);
  });

  it('adopts an orphan revision', async () => {
    const { cluster, ctx } = setup();
    const orphan = cluster.seed(Resources.controllerRevisions, { ...revision('web-a', {}), metadata: { name: 'web-a', namespace: 'default' } });
    await applyPlan(plan([{ kind: 'adoptRevision', batch: 0, revision: orphan }]), cluster, ctx);
    assert.deepEqual(cluster.peek<ControllerRevision>(Resources.controllerRevisions, 'default', 'web-a')!.metadata.ownerReferences, [ownerRef]);
  });
});
