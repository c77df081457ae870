// ordinals.start + replicas past int32: validation accepts it (only ≥ 0 is checked), the range stops at the
// largest ordinal a pod name can carry, and the plan says why — an ordinalOverflow blocker every sync and an
// OrdinalOverflow Warning once per spec generation.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import { features, newSet, observe, readyPods, T0, withStatus } from './fixtures.js';

const INT32_MAX = 2147483647;

describe('ordinals past int32', () => {
  for (const policy of ['OrderedReady', 'Parallel'] as const) {
    it(`${policy}: creates the ordinals up to 2147483647 and reports the rest as an ordinalOverflow blocker and a Warning`, () => {
      const set = newSet(3, { policy, start: INT32_MAX - 1, claims: false });
      const plan = planStatefulSet(observe(set, readyPods(set, 2)), T0, features);
      assert.deepEqual(plan.actions.filter((a) => a.kind === 'createPod'), []);
      assert.deepEqual(
        plan.blockers.filter((b) => b.kind === 'ordinalOverflow'),
        [{ kind: 'ordinalOverflow', start: INT32_MAX - 1, replicas: 3, uncreatable: 1 }],
      );
      const warnings = plan.events.filter((e) => e.reason === 'OrdinalOverflow');
      assert.deepEqual(warnings, [
        {
          type: 'Warning',
          reason: 'OrdinalOverflow',
          message:
            'spec.ordinals.start 2147483646 + spec.replicas 3 runs past 2147483647, the largest pod ordinal: ' +
            '1 of 3 replicas (ordinal 2147483648) cannot be created; lower spec.ordinals.start or spec.replicas',
        },
      ]);
    });
  }

  it('warns once per generation: not again once the status has observed it, again after a spec change', () => {
    const set = newSet(2, { policy: 'Parallel', start: INT32_MAX, claims: false });
    const seen = withStatus(set, { observedGeneration: 1 });
    const again = planStatefulSet(observe(seen, readyPods(set, 1)), T0, features);
    assert.ok(again.blockers.some((b) => b.kind === 'ordinalOverflow'));
    assert.deepEqual(again.events.filter((e) => e.reason === 'OrdinalOverflow'), []);
    const changed = { ...seen, metadata: { ...seen.metadata, generation: 2 }, spec: { ...seen.spec, replicas: 4 } };
    const plan = planStatefulSet(observe(changed, readyPods(set, 1)), T0, features);
    assert.deepEqual(
      plan.events.filter((e) => e.reason === 'OrdinalOverflow').map((e) => e.message.match(/\d+ of \d+ replicas \([^)]*\)/)?.[0]),
      ['3 of 4 replicas (ordinals 2147483648-2147483650)'],
    );
  });

  it('reports nothing when the range fits', () => {
    const set = newSet(1, { policy: 'Parallel', start: INT32_MAX, claims: false });
    const plan = planStatefulSet(observe(set, []), T0, features);
    assert.equal(plan.blockers.some((b) => b.kind === 'ordinalOverflow'), false);
    assert.equal(plan.events.some((e) => e.reason === 'OrdinalOverflow'), false);
    assert.deepEqual(plan.actions.flatMap((a) => (a.kind === 'createPod' ? [a.ordinal] : [])), [INT32_MAX]);
  });
});
