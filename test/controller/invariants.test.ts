// The named invariant checkers detect what they claim to, so that passing property tests
// mean something.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkDeletion,
  claimHeldOrdinals,
  enforcedHaltRespected,
  identityAndStorage,
  maxUnavailableBudget,
  noDuplicateOrdinal,
  orderedReadyInvariant,
  partitionRespected,
  pvcRetention,
  recreateNoMixedRevisions,
  unavailableOrdinals,
} from '../../src/controller/checks/invariants.js';
import { newStatefulSetPod } from '../../src/controller/model/identity.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { features, newSet, observe, podFor, readyPods, revisionName, T0, withImage } from './fixtures.js';

const planOf = (actions: Action[], updateRevision = 'rev-new'): Plan => ({
  status: { replicas: 0, updateRevision },
  statusChanged: false,
  actions,
  blockers: [],
  events: [],
  metrics: { maxUnavailable: 1, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false },
});
const del = (ordinal: number, cause: 'update' | 'forced' | 'condemned' = 'update'): Action => ({ kind: 'deletePod', batch: 1, name: `web-${ordinal}`, uid: `uid-web-${ordinal}`, ordinal, cause });

describe('invariant checkers', () => {
  it('noDuplicateOrdinal flags web-1 next to web-01', () => {
    const set = newSet(2);
    const a = podFor(set, 1);
    const b = { ...podFor(set, 1), metadata: { ...podFor(set, 1).metadata, name: 'web-01' } };
    assert.equal(noDuplicateOrdinal([a, b]).length, 1);
    assert.deepEqual(noDuplicateOrdinal(readyPods(set, 2)), []);
  });

  it('partitionRespected flags an update deletion below the partition but not a condemned one', () => {
    const set = newSet(5, { partition: 3 });
    const observed = observe(set, readyPods(set, 5));
    assert.equal(partitionRespected(observed, planOf([del(2)]), features).length, 1);
    assert.deepEqual(partitionRespected(observed, planOf([del(3), del(1, 'condemned')]), features), []);
  });

  it('maxUnavailableBudget flags deleting more available pods than the budget', () => {
    const set = newSet(5, { maxUnavailable: 2, policy: 'Parallel' });
    const pods = readyPods(set, 5);
    pods[0] = podFor(set, 0, { ready: false });
    const observed = observe(set, pods);
    assert.deepEqual(maxUnavailableBudget(observed, planOf([del(4)]), T0, features), []);
    assert.equal(maxUnavailableBudget(observed, planOf([del(4), del(3)]), T0, features).length, 1);
    assert.deepEqual(maxUnavailableBudget(observed, planOf([del(4), del(0)]), T0, features), [], 'an unavailable pod costs nothing');
  });

  it('orderedReadyInvariant flags creating a pod above an unready one, or two at once', () => {
    const set = newSet(3);
    const pods = [podFor(set, 0, { ready: false })];
    const create = (o: number): Action => ({ kind: 'createPod', batch: 1, pod: newStatefulSetPod(set, o), ordinal: o });
    assert.equal(orderedReadyInvariant(observe(set, pods), planOf([create(1)]), T0, features).length, 1);
    assert.equal(orderedReadyInvariant(observe(set, []), planOf([create(0), create(1)]), T0, features).length, 2);
    assert.deepEqual(orderedReadyInvariant(observe(set, readyPods(set, 1)), planOf([create(1)]), T0, features), []);
  });

  it('recreateNoMixedRevisions flags a creation while an old pod exists', () => {
    const set = newSet(2, { strategy: 'Recreate' });
    const create: Action = { kind: 'createPod', batch: 1, pod: newStatefulSetPod(set, 1), ordinal: 1 };
    assert.equal(recreateNoMixedRevisions(observe(set, [podFor(set, 0)]), planOf([create]), features).length, 1);
    assert.deepEqual(recreateNoMixedRevisions(observe(set, [podFor(set, 0)]), planOf([create], revisionName(set)), features), []);
  });

  it('enforcedHaltRespected flags deleting below an unavailable highest new pod', () => {
    const v1 = newSet(3, { strategy: 'EnforcedRollingUpdate' });
    const v2 = withImage(v1, 'app:v2');
    const pods = [podFor(v2, 0, { from: v1 }), podFor(v2, 1, { from: v1 }), podFor(v2, 2, { from: v2, ready: false })];
    const plan = planOf([del(1)], revisionName(v2));
    assert.equal(enforcedHaltRespected(observe(v2, pods), plan, T0, features).length, 1);
  });

  it('identityAndStorage and pvcRetention flag broken pods and claims', () => {
    const set = newSet(1, { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const pod = podFor(set, 0);
    pod.spec.volumes = [];
    assert.equal(identityAndStorage(set, [pod]).length, 1);
    assert.equal(pvcRetention(set, [podFor(set, 0)], [{ metadata: { name: 'data-web-0' }, spec: {} }]).length, 1);
  });

  it('checkDeletion judges one controller deletion against the world', () => {
    const set = newSet(4, { partition: 2, maxUnavailable: 1, policy: 'Parallel' });
    const pods = readyPods(set, 4);
    assert.equal(checkDeletion(set, pods, pods[1]!, T0, features).length, 1, 'below the partition');
    assert.deepEqual(checkDeletion(set, pods, pods[3]!, T0, features), []);
    pods[2] = podFor(set, 2, { terminating: true });
    assert.equal(checkDeletion(set, pods, pods[3]!, T0, features).length, 1, 'budget already used by the terminating pod');
    assert.equal(unavailableOrdinals(set, pods, T0), 1);
  });

  it('InPlace: a replica whose claim expands is unavailable, for the deletion check and unavailableOrdinals', () => {
    const set = newSet(4, { maxUnavailable: 1, policy: 'Parallel' });
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    const pods = readyPods(set, 4);
    const expanding = { metadata: { name: 'data-web-2', namespace: 'default' }, spec: { resources: { requests: { storage: '2Gi' } } }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
    const held = claimHeldOrdinals(set, [expanding], T0);
    assert.deepEqual([...held], [2]);
    assert.equal(unavailableOrdinals(set, pods, T0, [expanding]), 1);
    assert.equal(checkDeletion(set, pods, pods[3]!, T0, features, undefined, held).length, 1, 'the budget is used by the expanding replica');
    assert.deepEqual(checkDeletion(set, pods, pods[2]!, T0, features, undefined, held), [], 'the expanding replica itself is already unavailable');
    set.spec.volumeClaimUpdatePolicy = 'OnDelete';
    assert.deepEqual([...claimHeldOrdinals(set, [expanding], T0)], [], 'OnDelete: claims are not the controller\'s to count');
  });

  it('InPlace, OrderedReady: the pass gates on pods, as upstream\'s; an expanding claim below a creation is no violation', () => {
    const set = newSet(3, { maxUnavailable: 2 });
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    const expanding = { metadata: { name: 'data-web-1', namespace: 'default' }, spec: { resources: { requests: { storage: '2Gi' } } }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
    const create: Action = { kind: 'createPod', batch: 1, pod: newStatefulSetPod(set, 2), ordinal: 2 };
    assert.deepEqual(orderedReadyInvariant({ ...observe(set, readyPods(set, 2)), claims: [expanding] }, planOf([create]), T0, features), []);
  });
});
