// stepBoundaryRespected (invariants.ts) detects what it claims to, so that the steps property passing means
// something: a sync that updates a pod or claim below the current step's partition, updates anything while the
// user pauses, or passes a step its gate holds is flagged; the planner's own plans are not.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PromoteAnnotation, type RolloutStep, type StatefulSet } from '../../src/api/types.js';
import { stepBoundaryRespected } from '../../src/controller/checks/invariants.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { features, newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

/** A set of 4 at step 1 of `steps` (its partition reached, pods updated from it up), the next image written. */
function atStep(steps: RolloutStep[], paused = false): { h: Harness; observed: ObservedState; plan: Plan } {
  const set = newSet(4, { claims: false });
  const block = set.spec.updateStrategy?.rollingUpdate as { steps?: RolloutStep[] };
  block.steps = steps;
  const h = new Harness(set, { autoReady: true, autoDelete: true });
  h.converge();
  h.setImage('app:v2');
  for (let i = 0; i < 12; i++) {
    h.sync();
    h.readyAll();
    h.advance(SECOND);
  }
  if (paused) h.update((s) => ((s.spec.updateStrategy?.rollingUpdate as { paused?: boolean }).paused = true));
  const observed = h.observed();
  return { h, observed, plan: planStatefulSet(observed, h.now, features) };
}

const pod = (h: Harness, ordinal: number) => h.must(`web-${ordinal}`);
const deletion = (h: Harness, ordinal: number, cause: 'update' | 'forced' = 'update'): Action => ({ kind: 'deletePod', batch: 1, name: `web-${ordinal}`, uid: pod(h, ordinal).metadata.uid ?? '', ordinal, cause });
const with_ = (plan: Plan, ...actions: Action[]): Plan => ({ ...plan, actions: [...plan.actions, ...actions] });

describe('stepBoundaryRespected', () => {
  it("flags an update deletion, an in-place patch, a relabel, a claim patch or a creation on the update revision below the step's partition", () => {
    const { h, observed, plan } = atStep([{ partition: 2, pause: {} }, { replicas: '100%' }]);
    assert.deepEqual([h.set.status?.currentStepIndex, h.set.status?.currentStepState], [0, 'Paused']);
    const now = h.now;
    assert.deepEqual(stepBoundaryRespected(observed, plan, now, features), [], "the planner's own plan");
    const update = plan.status.updateRevision ?? '';
    const web1 = pod(h, 1);
    const created = { ...structuredClone(web1), metadata: { ...structuredClone(web1.metadata), labels: { ...web1.metadata.labels, 'controller-revision-hash': update } } };
    const writes: Action[] = [
      deletion(h, 1),
      { kind: 'patchPod', batch: 1, name: 'web-0', uid: 'u', ordinal: 0, revision: update, patch: { metadata: { uid: 'u', labels: {}, annotations: {} }, spec: { containers: [] } } },
      { kind: 'relabelPod', batch: 1, name: 'web-1', uid: 'u', ordinal: 1, revision: update },
      { kind: 'createPod', batch: 1, pod: created, ordinal: 1 },
      { kind: 'patchClaim', batch: 1, name: 'data-web-1', podName: 'web-1', claim: { metadata: { name: 'data-web-1', labels: { 'controller-revision-hash': update } }, spec: {} }, growsTo: '2Gi' },
    ];
    for (const w of writes) assert.equal(stepBoundaryRespected(observed, with_(plan, w), now, features).length, 1, w.kind);
    assert.match(stepBoundaryRespected(observed, with_(plan, deletion(h, 1)), now, features)[0] ?? '', /update deletion of web-1 below the partition 2 of step 1\/2/);
    assert.deepEqual(stepBoundaryRespected(observed, with_(plan, deletion(h, 2)), now, features), [], 'at the partition is fine');
  });

  it('flags any update while the user pauses, but not a creation or a broken old pod replaced under EnforcedRollingUpdate', () => {
    const { h, observed, plan } = atStep([{ partition: 2, pause: {} }, { replicas: '100%' }], true);
    assert.deepEqual(stepBoundaryRespected(observed, plan, h.now, features), []);
    assert.deepEqual(stepBoundaryRespected(observed, with_(plan, deletion(h, 3)), h.now, features), ['update deletion of web-3 while the rollout is paused']);
  });

  it('flags a step passed without a promote, a bake passed early, and takes a promote naming the step', () => {
    const { h, observed, plan } = atStep([{ partition: 2, pause: {} }, { partition: 1, pause: { duration: '1m' } }, { replicas: '100%' }]);
    const skip = (index: number, state: string): Plan => ({ ...plan, status: { ...plan.status, currentStepIndex: index, currentStepState: state as 'Paused' } });
    assert.deepEqual(stepBoundaryRespected(observed, skip(1, 'Updating'), h.now, features), ['passed step 1/3 (pause) this sync without its gate allowing it']);
    const revision = plan.status.updateRevision ?? '';
    const promoted: StatefulSet = { ...observed.set, metadata: { ...observed.set.metadata, annotations: { [PromoteAnnotation]: `${revision}/0` } } };
    assert.deepEqual(stepBoundaryRespected({ ...observed, set: promoted }, skip(1, 'Updating'), h.now, features), []);
    assert.deepEqual(stepBoundaryRespected({ ...observed, set: promoted }, skip(2, 'Updating'), h.now, features), ['passed step 2/3 (bake) this sync without its gate allowing it']);
    const baking: StatefulSet = { ...promoted, status: { ...promoted.status, replicas: 4, currentStepIndex: 1, currentStepState: 'Baking', currentStepSince: new Date(h.now - 30 * SECOND).toISOString().replace('.000', '') } };
    assert.deepEqual(stepBoundaryRespected({ ...observed, set: baking }, skip(2, 'Updating'), h.now, features), ['passed step 2/3 (bake) this sync without its gate allowing it'], 'a bake of 1m that started 30 s ago');
    assert.deepEqual(stepBoundaryRespected({ ...observed, set: baking }, skip(2, 'Updating'), h.now + 30 * SECOND, features), []);
  });
});
