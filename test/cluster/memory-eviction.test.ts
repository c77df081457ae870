// pods/eviction on the in-memory API server, branch by branch as kube-apiserver's eviction handler
// (pkg/registry/core/pod/storage/eviction.go): which pods go without a budget, one budget's check and
// decrement, the refusals' exact words, unhealthyPodEvictionPolicy, preconditions and dry run. What both
// adapters do alike is in the contract (src/cluster/contract-eviction-cases.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type EvictionOptions } from '../../src/api/client.js';
import { ApiError, DisruptionBudgetRefusal, isConflict, isMultipleBudgets, isNotFound } from '../../src/api/errors.js';
import type { Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { APISERVER_ACTOR } from '../../src/cluster/memory/eviction.js';
import type { WriteRecord } from '../../src/cluster/memory/index.js';
import { newEnv, pod } from './helpers.js';

const PDB = Resources.podDisruptionBudgets;
type Status = NonNullable<PodDisruptionBudget['status']>;

async function setup(opts: { phase?: string; ready?: boolean; budgets?: { name: string; status?: Partial<Status>; spec?: Partial<PodDisruptionBudget['spec']> }[] } = {}) {
  const env = newEnv();
  const writes: WriteRecord[] = [];
  env.cluster.onWrite((w) => writes.push(w));
  const created = await env.cluster.create(Resources.pods, pod('db-0', { nodeName: 'n1', grace: 30, labels: { app: 'db' } }));
  const conditions = [{ type: 'Ready', status: opts.ready === false ? ('False' as const) : ('True' as const) }];
  await env.cluster.updateStatus(Resources.pods, { ...created, status: { phase: opts.phase ?? 'Running', conditions } });
  for (const b of opts.budgets ?? []) {
    const made = await env.cluster.create<PodDisruptionBudget>(PDB, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: b.name, namespace: 'default' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } }, ...b.spec } });
    if (b.status) await env.cluster.updateStatus(PDB, { ...made, status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, observedGeneration: 1, ...b.status } });
  }
  writes.length = 0;
  const evict = (o?: EvictionOptions) => env.cluster.client('controller').evictPod('default', 'db-0', o);
  const get = () => env.cluster.get<Pod>(Resources.pods, 'default', 'db-0');
  const budget = (name = 'db') => env.cluster.get<PodDisruptionBudget>(PDB, 'default', name);
  return { env, writes, evict, get, budget };
}

const refusal = async (p: Promise<void>): Promise<DisruptionBudgetRefusal> => {
  const e: unknown = await p.then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof DisruptionBudgetRefusal, `a DisruptionBudgetRefusal, not ${String(e)}`);
  assert.deepEqual([e.code, e.reason, e.message], [429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget."]);
  return e;
};

const terminating = async (get: () => Promise<Pod>) => (await get()).metadata.deletionTimestamp !== undefined;

describe('pods/eviction (in-memory API server)', () => {
  it('deletes a pod no budget selects, marking it DisruptionTarget first, with the eviction\'s grace period', async () => {
    const { evict, get, writes } = await setup();
    await evict({ gracePeriodSeconds: 5 });
    const p = await get();
    assert.equal(p.metadata.deletionGracePeriodSeconds, 5);
    const target = p.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(target && [target.status, target.reason, target.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
    assert.deepEqual(writes.map((w) => [w.actor, w.verb, w.resource.plural]), [['controller', 'updateStatus', 'pods'], ['controller', 'delete', 'pods']]);
  });

  it('answers 404 for a pod that is not there', async () => {
    const { env } = await setup();
    await assert.rejects(env.cluster.evictPod('default', 'nope'), (e: unknown) => isNotFound(e) && String(e).includes('pods "nope" not found'));
  });

  for (const [what, phase] of [['Pending', 'Pending'], ['Succeeded', 'Succeeded'], ['Failed', 'Failed']] as const) {
    it(`deletes a ${what} pod whatever its budget allows (canIgnorePDB)`, async () => {
      const { evict, get, budget } = await setup({ phase, budgets: [{ name: 'db', status: { disruptionsAllowed: 0 } }] });
      await evict();
      assert.ok(await terminating(get).catch((e: unknown) => isNotFound(e)), 'deleted');
      assert.equal((await budget()).status?.disruptionsAllowed, 0, 'nothing spent');
    });
  }

  it('finishes the deletion of a terminating pod whatever its budget allows', async () => {
    const { env, evict, get } = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 0 } }] });
    await env.cluster.delete(Resources.pods, 'default', 'db-0');
    await evict({ gracePeriodSeconds: 0 });
    await assert.rejects(get(), isNotFound);
  });

  it('spends a disruption of the one budget selecting the pod: disruptionsAllowed − 1 and the pod in disruptedPods in one status write by the API server, then the deletion', async () => {
    const { env, evict, get, budget, writes } = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 1 } }] });
    await env.clock.advance(4_000);
    await evict();
    const s = (await budget()).status;
    assert.equal(s?.disruptionsAllowed, 0);
    assert.deepEqual(s?.disruptedPods, { 'db-0': '2026-01-01T00:00:04Z' });
    const allowed = s?.conditions?.find((c) => c.type === 'DisruptionAllowed');
    assert.deepEqual(allowed && [allowed.status, allowed.reason], ['False', 'InsufficientPods'], 'the last disruption spent sets DisruptionAllowed False');
    assert.ok(await terminating(get));
    assert.deepEqual(writes.map((w) => [w.actor, w.verb, w.resource.plural]), [[APISERVER_ACTOR, 'updateStatus', 'poddisruptionbudgets'], ['controller', 'updateStatus', 'pods'], ['controller', 'delete', 'pods']]);
  });

  it('keeps DisruptionAllowed as it was while disruptions remain after the decrement', async () => {
    const { evict, budget } = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 2, currentHealthy: 3 } }] });
    await evict();
    const s = (await budget()).status;
    assert.deepEqual([s?.disruptionsAllowed, s?.conditions], [1, undefined]);
  });

  it('refuses with 429 when the budget allows no disruption, in kube-apiserver\'s words, and leaves pod and budget alone', async () => {
    const { evict, get, budget, writes } = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 } }] });
    const e = await refusal(evict());
    assert.deepEqual([e.causes, e.retryAfterSeconds], [[{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 2 healthy pods and has 2 currently' }], 0]);
    assert.equal(await terminating(get), false);
    assert.equal((await budget()).status?.disruptedPods, undefined);
    assert.deepEqual(writes, []);
  });

  it('words a refusal after the DisruptionAllowed condition: a failed sync first, then healthy counts, then the condition\'s reason, then plainly', async () => {
    const cond = (reason: string, message: string) => [{ type: 'DisruptionAllowed', status: 'False' as const, reason, message, lastTransitionTime: '2026-01-01T00:00:00Z' }];
    const cases: [Partial<Status>, string][] = [
      [{ currentHealthy: 5, desiredHealthy: 2, conditions: cond('SyncFailed', 'found no controllers for pod "db-0"') }, 'The disruption budget db does not allow evicting pods currently because it failed sync: found no controllers for pod "db-0"'],
      [{ currentHealthy: 1, desiredHealthy: 2, conditions: cond('InsufficientPods', 'x') }, 'The disruption budget db needs 2 healthy pods and has 1 currently'],
      [{ currentHealthy: 3, desiredHealthy: 2, conditions: cond('InsufficientPods', 'held') }, 'The disruption budget db does not allow evicting pods currently (InsufficientPods): held'],
      [{ currentHealthy: 3, desiredHealthy: 2 }, 'The disruption budget db does not allow evicting pods currently'],
    ];
    for (const [status, message] of cases) {
      const { evict } = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 0, ...status } }] });
      assert.equal((await refusal(evict())).budgetMessage, message);
    }
  });

  it('refuses with 429 (retry after 10 s) while the budget\'s status is older than its spec, or missing', async () => {
    const stale = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 3, observedGeneration: 0 } }] });
    const e = await refusal(stale.evict());
    assert.deepEqual([e.causes, e.retryAfterSeconds], [[{ reason: 'DisruptionBudget', message: 'The disruption budget db is still being processed by the server.' }], 10]);
    const none = await setup({ budgets: [{ name: 'db' }] });
    assert.equal((await refusal(none.evict())).budgetMessage, 'The disruption budget db is still being processed by the server.');
  });

  it('refuses with 403 a budget whose disruptionsAllowed is negative, or whose disruptedPods holds more than 2000 pods', async () => {
    const negative = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: -1 } }] });
    await assert.rejects(negative.evict(), (e: unknown) => e instanceof ApiError && e.code === 403 && e.message === 'poddisruptionbudget.policy "db" is forbidden: pdb disruptions allowed is negative');
    const disruptedPods = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p-${i}`, '2026-01-01T00:00:00Z']));
    const full = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 1, disruptedPods } }] });
    await assert.rejects(full.evict(), (e: unknown) => e instanceof ApiError && e.code === 403 && /DisruptedPods map too big - too many evictions not confirmed by PDB controller$/.test(e.message));
  });

  it('refuses a pod that two budgets select with 500 and no reason, before any budget is read, even when both allow', async () => {
    const { evict, get, budget } = await setup({ budgets: [{ name: 'a', status: { disruptionsAllowed: 1 } }, { name: 'b', status: { disruptionsAllowed: 1 } }] });
    await assert.rejects(evict(), (e: unknown) => isMultipleBudgets(e) && e.code === 500 && e.reason === '' && e.message === 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    assert.equal(await terminating(get), false);
    assert.deepEqual([(await budget('a')).status?.disruptionsAllowed, (await budget('b')).status?.disruptionsAllowed], [1, 1]);
  });

  it('counts only budgets whose selector selects the pod: a nil selector selects nothing, an empty one every pod', async () => {
    const nil = await setup({ budgets: [{ name: 'a', status: { disruptionsAllowed: 0 } }, { name: 'nil', spec: { selector: undefined }, status: { disruptionsAllowed: 0 } }] });
    await refusal(nil.evict());
    const empty = await setup({ budgets: [{ name: 'a', status: { disruptionsAllowed: 1 } }, { name: 'every', spec: { selector: {} }, status: { disruptionsAllowed: 1 } }] });
    await assert.rejects(empty.evict(), isMultipleBudgets);
  });

  describe('a pod that is not Ready (unhealthyPodEvictionPolicy)', () => {
    it('IfHealthyBudget (the default): goes without a decrement while the budget has its desiredHealthy', async () => {
      const { evict, get, budget } = await setup({ ready: false, budgets: [{ name: 'db', status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 } }] });
      await evict();
      assert.ok(await terminating(get));
      assert.deepEqual([(await budget()).status?.disruptionsAllowed, (await budget()).status?.disruptedPods], [0, undefined]);
    });

    it('IfHealthyBudget: is refused while the budget is short of healthy pods and allows none, and spends one when it allows', async () => {
      const short = await setup({ ready: false, budgets: [{ name: 'db', spec: { unhealthyPodEvictionPolicy: 'IfHealthyBudget' }, status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 } }] });
      await refusal(short.evict());
      const allows = await setup({ ready: false, budgets: [{ name: 'db', status: { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 2 } }] });
      await allows.evict();
      assert.equal((await allows.budget()).status?.disruptionsAllowed, 0);
    });

    it('AlwaysAllow: goes without a decrement however short the budget is', async () => {
      const { evict, get, budget } = await setup({ ready: false, budgets: [{ name: 'db', spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 2 } }] });
      await evict();
      assert.ok(await terminating(get));
      assert.equal((await budget()).status?.disruptedPods, undefined);
    });

    it('a uid precondition that fails there answers 429 (the handler\'s own resourceVersion precondition asks the client to come back)', async () => {
      const { evict } = await setup({ ready: false, budgets: [{ name: 'db', status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 } }] });
      assert.equal((await refusal(evict({ uid: 'other' }))).budgetMessage, 'The disruption budget db is still being processed by the server.');
    });
  });

  describe('preconditions and dry run', () => {
    it('a uid or resourceVersion precondition that does not match is a 409 Conflict in the handler\'s words, after the budget was spent (as upstream)', async () => {
      const uid = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 3, currentHealthy: 4 } }] });
      const current = await uid.get();
      await assert.rejects(uid.evict({ uid: 'other' }), (e: unknown) => isConflict(e) && String(e).includes(`Operation cannot be fulfilled on Pod "db-0": the UID in the precondition (other) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`));
      assert.equal((await uid.budget()).status?.disruptionsAllowed, 2);
      await assert.rejects(uid.evict({ resourceVersion: '1' }), (e: unknown) => isConflict(e) && String(e).includes(`the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${current.metadata.resourceVersion})`));
      await uid.evict({ uid: current.metadata.uid, resourceVersion: current.metadata.resourceVersion });
      assert.ok(await terminating(uid.get));
      assert.equal((await uid.budget()).status?.disruptionsAllowed, 0);
    });

    it('a dry run checks and answers as the eviction would, but writes nothing', async () => {
      const allows = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 1 } }] });
      await allows.evict({ dryRun: true });
      assert.deepEqual(allows.writes, []);
      assert.equal(await terminating(allows.get), false);
      const refuses = await setup({ budgets: [{ name: 'db', status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 } }] });
      await refusal(refuses.evict({ dryRun: true }));
      const free = await setup();
      await assert.rejects(free.evict({ dryRun: true, uid: 'other' }), (e: unknown) => isConflict(e) && String(e).includes('Precondition failed: UID in precondition: other'));
      assert.deepEqual(free.writes, []);
    });
  });
});
