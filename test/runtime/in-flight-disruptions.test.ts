// The process-wide ledger of pod disruptions under PodDisruptionBudgets (src/runtime/in-flight-disruptions.ts):
// what a sync's plan deletes or evicts under a watched budget is in flight for every set's next plan until the
// caches show it, the budget's status counts it, its sync ends without it, or the disruption controller's
// DeletionTimeout passes.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { DELETION_TIMEOUT_MS } from '../../src/controller/budget-pods.js';
import type { Action } from '../../src/controller/plan-types.js';
import { InFlightDisruptions } from '../../src/runtime/in-flight-disruptions.js';

const T0 = Date.UTC(2026, 0, 1);

function world() {
  const pods = new Map<string, Pod>();
  const budgets: PodDisruptionBudget[] = [];
  let now = T0;
  const ledger = new InFlightDisruptions({
    pods: { get: (ns, name) => pods.get(`${ns ?? ''}/${name}`) },
    budgets: { list: (ns) => budgets.filter((b) => b.metadata.namespace === ns) },
    clock: { now: () => now },
  });
  const addPod = (name: string, labels: Record<string, string>, ns = 'db') => {
    const p: Pod = { metadata: { name, namespace: ns, uid: `uid-${name}`, labels }, spec: { containers: [] } };
    pods.set(`${ns}/${name}`, p);
    return p;
  };
  const addBudget = (name: string, matchLabels: Record<string, string>, ns = 'db') => {
    const b: PodDisruptionBudget = { metadata: { name, namespace: ns }, spec: { selector: { matchLabels } }, status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } };
    budgets.push(b);
    return b;
  };
  return { pods, ledger, addPod, addBudget, advance: (ms: number) => void (now += ms) };
}

const deletion = (pod: Pod, eviction = true): Action => ({
  kind: 'deletePod',
  batch: 0,
  name: pod.metadata.name ?? '',
  uid: pod.metadata.uid ?? '',
  ordinal: 0,
  cause: 'update',
  ...(eviction ? { eviction: true as const } : {}),
});

describe('InFlightDisruptions', () => {
  it('counts a planned deletion or eviction under every budget selecting the pod, for every set, until the pod shows terminating', () => {
    const { pods, ledger, addPod, addBudget } = world();
    const tier = addBudget('tier', { tier: 'db' });
    const app = addBudget('primary', { app: 'primary' });
    const other = addBudget('other', { app: 'cache' });
    const p = addPod('primary-2', { app: 'primary', tier: 'db' });
    const r = addPod('replicas-2', { app: 'replicas', tier: 'db' });
    ledger.reserve('db', [deletion(p), deletion(r, false), { kind: 'createPod', batch: 1, ordinal: 3, pod: p }]);
    assert.deepEqual([ledger.inFlight(tier), ledger.inFlight(app), ledger.inFlight(other)], [['primary-2', 'replicas-2'], ['primary-2'], []]);
    pods.set('db/primary-2', { ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:30Z' } });
    assert.deepEqual(ledger.inFlight(tier), ['replicas-2'], 'the informer shows primary-2 terminating: the pods count it now');
  });

  it('drops an entry once the pod is gone or another pod has its name, or the budget lists it in disruptedPods', () => {
    const { pods, ledger, addPod, addBudget } = world();
    const tier = addBudget('tier', { tier: 'db' });
    const a = addPod('a-0', { tier: 'db' });
    const b = addPod('b-0', { tier: 'db' });
    const c = addPod('c-0', { tier: 'db' });
    ledger.reserve('db', [deletion(a), deletion(b), deletion(c)]);
    pods.delete('db/a-0');
    pods.set('db/b-0', { ...b, metadata: { ...b.metadata, uid: 'uid-b-0-new' } });
    assert.deepEqual(ledger.inFlight(tier), ['c-0']);
    const counted = { ...tier, status: { ...tier.status!, disruptedPods: { 'c-0': '2026-01-01T00:00:00Z' } } };
    assert.deepEqual(ledger.inFlight(counted), [], 'the eviction handler counted it in the status');
  });

  it('drops what its sync did not execute (a refused eviction, a later batch never run), and keeps what it did', () => {
    const { ledger, addPod, addBudget } = world();
    const tier = addBudget('tier', { tier: 'db' });
    const done = deletion(addPod('a-0', { tier: 'db' }));
    const refused = deletion(addPod('b-0', { tier: 'db' }));
    ledger.reserve('db', [done, refused]).settle(new Set([done]));
    assert.deepEqual(ledger.inFlight(tier), ['a-0']);
  });

  it('records nothing for a pod no budget selects, one of another namespace\'s budget, or one the cache no longer has with that uid', () => {
    const { ledger, addPod, addBudget } = world();
    addBudget('tier', { tier: 'db' }, 'elsewhere');
    const free = addPod('web-0', { app: 'web' });
    const away = addPod('db-0', { tier: 'db' });
    const stale = { ...deletion(addPod('db-1', { tier: 'db' })), uid: 'uid-of-an-older-db-1' } as Action;
    const mine = addBudget('mine', { tier: 'db' });
    ledger.reserve('db', [deletion(free), stale]);
    assert.deepEqual(ledger.inFlight(mine), []);
    const theirs = addBudget('theirs', { tier: 'db' }, 'elsewhere');
    ledger.reserve('db', [deletion(away)]);
    assert.deepEqual(ledger.inFlight(theirs), []);
  });

  it('forgets an entry after the disruption controller\'s DeletionTimeout, as it forgets disruptedPods', () => {
    const { ledger, addPod, addBudget, advance } = world();
    const tier = addBudget('tier', { tier: 'db' });
    ledger.reserve('db', [deletion(addPod('a-0', { tier: 'db' }))]);
    advance(DELETION_TIMEOUT_MS);
    assert.deepEqual(ledger.inFlight(tier), ['a-0']);
    advance(1);
    assert.deepEqual(ledger.inFlight(tier), []);
  });
});
