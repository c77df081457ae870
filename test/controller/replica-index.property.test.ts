// The replica index the controller keeps from informer deltas answers as one built at once from a list: over
// random sequences of pod and claim events (adds, updates, deletes, orphans, pods of other sets, names that
// share an ordinal), set changes and moments, the plan from the incremental index equals the plan from a
// fresh view of the same objects.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTimestamp, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../src/api/types.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { isRunningAndAvailable, isRunningAndReady, isTerminating, podRevision } from '../../src/controller/model/pod-state.js';
import { ReplicaIndex } from '../../src/controller/replica/replica-index.js';
import { checkProperty } from '../property-seed.js';
import { features, newSet, podFor, revisionOf, SECOND, T0, withImage, withStatus, type SetOptions } from './fixtures.js';

type PodState = 'ready' | 'readyRecently' | 'notReady' | 'pending' | 'failed' | 'terminating';

type Event =
  | { kind: 'put'; ordinal: number; state: PodState; old: boolean; owner: 'ours' | 'orphan' | 'other'; mismatch: boolean; padded: boolean }
  | { kind: 'remove'; ordinal: number; padded: boolean }
  | { kind: 'claim'; ordinal: number; owned: boolean }
  | { kind: 'unclaim'; ordinal: number }
  | { kind: 'scale'; replicas: number }
  | { kind: 'minReady'; seconds: number }
  | { kind: 'tick'; seconds: number };

const ordinal = fc.integer({ min: 0, max: 5 });
const rarely = fc.constantFrom(false, false, false, false, true);
const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('put' as const), ordinal, state: fc.constantFrom<PodState>('ready', 'ready', 'readyRecently', 'notReady', 'pending', 'failed', 'terminating'), old: fc.boolean(), owner: fc.constantFrom('ours' as const, 'ours' as const, 'ours' as const, 'orphan' as const, 'other' as const), mismatch: rarely, padded: rarely }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), ordinal, padded: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('claim' as const), ordinal, owned: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unclaim' as const), ordinal }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scale' as const), replicas: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('minReady' as const), seconds: fc.constantFrom(0, 30) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 40 }) }) },
);

const setOptions: fc.Arbitrary<SetOptions> = fc.record({
  policy: fc.constantFrom('OrderedReady' as const, 'Parallel' as const),
  strategy: fc.constantFrom('RollingUpdate' as const, 'OnDelete' as const, 'Recreate' as const, 'EnforcedRollingUpdate' as const),
  partition: fc.integer({ min: 0, max: 4 }),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  start: fc.integer({ min: 0, max: 2 }),
  claims: fc.constantFrom(true, true, false),
  retention: fc.constantFrom(undefined, { whenDeleted: 'Retain' as const, whenScaled: 'Delete' as const }, { whenDeleted: 'Retain' as const, whenScaled: 'Delete' as const }, { whenDeleted: 'Delete' as const, whenScaled: 'Retain' as const }),
}).map((o) => {
  const { retention, ...rest } = o;
  return retention === undefined ? rest : { ...rest, retention };
});

function podOf(v1: StatefulSet, v2: StatefulSet, e: Extract<Event, { kind: 'put' }>, at: number): Pod {
  const from = e.old ? v1 : v2;
  const states: Record<PodState, Parameters<typeof podFor>[2]> = {
    ready: { from },
    readyRecently: { from, readySince: at - 10 * SECOND },
    notReady: { from, ready: false },
    pending: { from, phase: 'Pending', ready: false },
    failed: { from, phase: 'Failed', ready: false },
    terminating: { from, terminating: true },
  };
  const pod = podFor(v2, e.ordinal, states[e.state]);
  if (e.padded) pod.metadata.name = `${v2.metadata.name ?? ''}-0${e.ordinal}`;
  if (e.owner === 'orphan') delete pod.metadata.ownerReferences;
  if (e.owner === 'other') pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x', uid: 'someone-else', controller: true }];
  if (e.mismatch) pod.metadata.labels = { ...pod.metadata.labels, app: 'other' };
  return pod;
}

function claimOf(set: StatefulSet, ordinal: number, owned: boolean): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: `data-${set.metadata.name ?? ''}-${ordinal}`,
      namespace: set.metadata.namespace ?? 'default',
      ...(owned ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '', controller: true }] } : {}),
    },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}

/** The index's classes say of each pod what the pod predicates of pod-state.ts say. */
function assertClassesFollowPods(index: ReplicaIndex, set: StatefulSet, now: number): void {
  const mrs = set.spec.minReadySeconds ?? 0;
  const late = new Set(index.notYetAvailable(now));
  for (const o of index.ordinals.ascending()) {
    const pod = index.member(o)?.pod as Pod;
    assert.equal(index.down.has(o), isTerminating(pod) || !isRunningAndReady(pod), `down ${o}`);
    assert.equal(index.terminating.has(o), isTerminating(pod), `terminating ${o}`);
    assert.equal(late.has(o), isRunningAndReady(pod) && !isRunningAndAvailable(pod, mrs, now), `not yet available ${o}`);
    assert.ok(index.onRevision(podRevision(pod)).has(o), `revision ${o}`);
  }
}

const isOurs = (set: StatefulSet, p: Pod): boolean => p.metadata.ownerReferences?.some((r) => r.controller === true && r.uid === set.metadata.uid) === true;
const isOrphan = (p: Pod): boolean => !p.metadata.ownerReferences?.some((r) => r.controller === true);

describe('the replica index kept from deltas', () => {
  it('plans as a fresh view of the same pods and claims, over random event sequences', () => {
    checkProperty(
      fc.property(setOptions, fc.array(event, { minLength: 1, maxLength: 40 }), (opts, events) => {
        let v1 = newSet(4, opts);
        const rev1 = revisionOf(v1, 1);
        let v2 = withStatus(withImage(v1, 'app:v2'), { currentRevision: rev1.metadata.name ?? '' });
        const revisions = [rev1, revisionOf(v2, 2)];
        const pods = new Map<string, Pod>();
        const claims = new Map<string, PersistentVolumeClaim>();
        const incremental = new ReplicaIndex();
        incremental.forSet(v2);
        let now = T0;
        for (const e of events) {
          switch (e.kind) {
            case 'put': {
              const pod = podOf(v1, v2, e, now);
              const name = pod.metadata.name ?? '';
              const before = pods.get(name);
              if (before !== undefined && isOurs(v2, before)) incremental.removePod(before);
              pods.set(name, pod);
              if (isOurs(v2, pod)) incremental.putPod(pod);
              break;
            }
            case 'remove': {
              const name = `${v2.metadata.name ?? ''}-${e.padded ? '0' : ''}${e.ordinal}`;
              const before = pods.get(name);
              if (before === undefined) break;
              pods.delete(name);
              if (isOurs(v2, before)) incremental.removePod(before);
              break;
            }
            case 'claim': {
              const claim = claimOf(v2, e.ordinal, e.owned);
              claims.set(claim.metadata.name ?? '', claim);
              incremental.putClaim(claim);
              break;
            }
            case 'unclaim': {
              const claim = claims.get(`data-${v2.metadata.name ?? ''}-${e.ordinal}`);
              if (claim === undefined) break;
              claims.delete(claim.metadata.name ?? '');
              incremental.removeClaim(claim);
              break;
            }
            case 'scale':
              v1 = { ...v1, spec: { ...v1.spec, replicas: e.replicas } };
              v2 = { ...v2, spec: { ...v2.spec, replicas: e.replicas } };
              break;
            case 'minReady':
              v1 = { ...v1, spec: { ...v1.spec, minReadySeconds: e.seconds } };
              v2 = { ...v2, spec: { ...v2.spec, minReadySeconds: e.seconds } };
              break;
            case 'tick':
              now += e.seconds * SECOND;
              break;
          }
          const all = [...pods.values()].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
          const listed: ObservedState = { set: v2, pods: all.filter((p) => isOurs(v2, p) || isOrphan(p)), claims: [...claims.values()], revisions };
          const kept: ObservedState = { set: v2, pods: all.filter(isOrphan), claims: [], revisions, replicas: incremental };
          assertClassesFollowPods(incremental.forSet(v2), v2, now);
          const fresh = planStatefulSet(listed, now, features);
          const fromIndex = planStatefulSet(kept, now, features);
          assert.deepEqual(fromIndex, fresh, `after ${JSON.stringify(e)} at ${toTimestamp(now)}`);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
