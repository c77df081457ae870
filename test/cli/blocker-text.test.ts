// Every Blocker kind has a sentence; each sentence names what the controller waits for, with the numbers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockerSentence, type ExplainContext } from '../../src/cli/explain/blocker-text.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import type { Blocker } from '../../src/controller/model/plan-types.js';
import { effectiveStrategy } from '../../src/controller/rollout/effective-strategy.js';
import { features, newSet, podFor, revisionName, SECOND, T0, withImage, withStatus, type SetOptions } from '../controller/fixtures.js';

function context(set: StatefulSet, pods: Pod[], update = revisionName(set)): ExplainContext {
  return {
    set,
    pods: new Map(pods.map((p) => [p.metadata.name ?? '', p])),
    now: T0,
    strategy: effectiveStrategy(set, features),
    updateRevision: update,
    minReadySeconds: set.spec.minReadySeconds ?? 0,
    start: set.spec.ordinals?.start ?? 0,
    replicas: set.spec.replicas ?? 1,
    updateDeletions: [],
  };
}

function ctxFor(opts: SetOptions, pods: (set: StatefulSet) => Pod[], rolling = false): ExplainContext {
  const v1 = newSet(5, opts);
  const set = rolling ? withImage(v1, 'app:v2') : v1;
  const status = withStatus(set, { currentRevision: revisionName(v1), updateRevision: revisionName(set) });
  return context(status, pods(v1), revisionName(set));
}

interface Case {
  desc: string;
  ctx: ExplainContext;
  blocker: Blocker;
  want: string;
}

const minReady = ctxFor({ minReadySeconds: 30 }, (s) => [podFor(s, 3, { readySince: T0 - 18 * SECOND })]);
const pending = ctxFor({}, (s) => [podFor(s, 2, { phase: 'Pending', ready: false })]);
const condemned = ctxFor({}, (s) => [podFor(s, 7, { phase: 'Running', ready: false })]);
const rolling = ctxFor({ partition: 2, maxUnavailable: 2 }, (s) => [podFor(s, 1, { ready: false }), podFor(s, 4, { phase: 'Pending', ready: false })], true);
const stuck = ctxFor({}, (s) => [podFor(s, 4, { phase: 'Pending', ready: false, waiting: 'ImagePullBackOff' })], true);
const heldBroken = ctxFor(
  { strategy: 'EnforcedRollingUpdate', partition: 3 },
  (s) => [podFor(s, 0, { ready: false, waiting: 'CrashLoopBackOff' }), podFor(s, 1, { phase: 'Pending', ready: false, waiting: 'ImagePullBackOff' })],
  true,
);

const HOOK = { kind: 'preUpdateHook', pod: 'web-4', ordinal: 4, revision: 'web-2', handler: 'http', target: 'GET http://op.example/switch?pod=web-4&revision=web-2', timeoutSeconds: 120 } as const;

const cases: Case[] = [
  {
    desc: 'a drain before an in-place restart: how far it is',
    ctx: pending,
    blocker: { kind: 'inPlaceDraining', pod: 'web-1', ordinal: 1, revision: 'web-2', since: T0 - 12 * SECOND, graceSeconds: 30 },
    want: 'web-1 drains before its in-place restart: NotReady for 12s of 30s (readiness gate apps.ordinal.dev/InPlaceUpdateReady False, so endpoints send it no traffic); then it is restarted in place to revision web-2',
  },
  {
    desc: 'InPlaceOnly at a pod created without the drain\'s readiness gate: delete it once',
    ctx: pending,
    blocker: { kind: 'inPlaceUpdateImpossible', pod: 'web-1', ordinal: 1, fields: ['spec.readinessGates'] },
    want:
      'web-1 is not updated: podUpdatePolicy InPlaceOnly drains a pod through its readiness gate apps.ordinal.dev/InPlaceUpdateReady before an in-place restart (inPlaceUpdateStrategy.gracePeriodSeconds), ' +
      'but web-1 was created without the gate; delete it once so it is created with the gate (nothing is deleted until then)',
  },
  {
    desc: 'a preUpdate hook that answered 503: the GET, the answer and for how long',
    ctx: pending,
    blocker: { ...HOOK, state: 'calling', since: T0 - 40 * SECOND, answer: 'HTTP 503, expected 200' },
    want: 'web-4 waits for its preUpdate hook: GET http://op.example/switch?pod=web-4&revision=web-2 answered HTTP 503, expected 200 for 40s',
  },
  {
    desc: 'a preUpdate hook not answered yet',
    ctx: pending,
    blocker: { ...HOOK, state: 'calling', since: T0 },
    want: 'web-4 waits for its preUpdate hook: GET http://op.example/switch?pod=web-4&revision=web-2 called 0s ago, no answer yet',
  },
  {
    desc: 'a labels handler: the label it set and the labels it waits for',
    ctx: pending,
    blocker: { ...HOOK, handler: 'labels', target: 'db.example/switched-over=true', state: 'calling', since: T0 - 12 * SECOND },
    want: 'web-4 waits for its preUpdate hook: labelled apps.ordinal.dev/lifecycle-state=PreparingUpdate 12s ago, waiting for db.example/switched-over=true',
  },
  {
    desc: 'a failed preUpdate hook: held, and how to call it again',
    ctx: pending,
    blocker: { ...HOOK, state: 'failed', since: T0 - 200 * SECOND, answer: 'HTTP 503, expected 200' },
    want:
      'web-4 is held by its preUpdate hook (GET http://op.example/switch?pod=web-4&revision=web-2), which did not pass within 120s (last: HTTP 503, expected 200) (failurePolicy Fail); ' +
      "the rollout stalls into its progress deadline: remove the pod's annotation apps.ordinal.dev/pre-update-hook to call the hook again",
  },
  {
    desc: 'a Ready pod inside minReadySeconds: the seconds left',
    ctx: minReady,
    blocker: { kind: 'podNotAvailable', pod: 'web-3', ordinal: 3, availableAt: T0 + 12 * SECOND },
    want: 'web-3 is Ready but not yet available: 12 s of minReadySeconds 30 left',
  },
  {
    desc: 'a pod that is not Ready yet: its state and for how long',
    ctx: pending,
    blocker: { kind: 'podNotAvailable', pod: 'web-2', ordinal: 2, availableAt: Number.MAX_SAFE_INTEGER },
    want: 'the rollout waits for web-2 on the new revision to become available: it is Pending for 60m',
  },
  {
    desc: 'OrderedReady scale-up stopped at a pod that is not Running and Ready',
    ctx: pending,
    blocker: { kind: 'podNotRunningAndReady', pod: 'web-2', ordinal: 2, phase: 'Pending' },
    want: 'OrderedReady scale-up waits for web-2 to be Running and Ready (it is Pending)',
  },
  {
    desc: 'OrderedReady scale-down stopped at a condemned pod',
    ctx: condemned,
    blocker: { kind: 'podNotRunningAndReady', pod: 'web-7', ordinal: 7, phase: 'Running' },
    want: 'OrderedReady scale-down waits for web-7 to be Running and Ready (it is NotReady)',
  },
  {
    desc: 'a failed pod is replaced',
    ctx: pending,
    blocker: { kind: 'podNotRunningAndReady', pod: 'web-2', ordinal: 2, phase: 'Failed' },
    want: 'web-2 has phase Failed: it is deleted and recreated once it is gone',
  },
  {
    desc: 'the maxUnavailable budget, naming the unavailable pods and the partition',
    ctx: rolling,
    blocker: { kind: 'budgetExhausted', unavailable: 2, maxUnavailable: 2, unavailablePods: ['web-1', 'web-4'] },
    want: 'rolling update blocked: 2 of maxUnavailable 2 ordinals unavailable (web-1 NotReady below the partition, web-4 Pending)',
  },
  {
    desc: 'a budget blocker whose list was cut short says how many more',
    ctx: rolling,
    blocker: { kind: 'budgetExhausted', unavailable: 12, maxUnavailable: 2, unavailablePods: ['web-1'] },
    want: 'rolling update blocked: 12 of maxUnavailable 2 ordinals unavailable (web-1 NotReady below the partition, and 11 more)',
  },
  {
    desc: 'a stuck pod on the old revision under RollingUpdate',
    ctx: stuck,
    blocker: { kind: 'stuckOldRevision', pod: 'web-4', ordinal: 4, state: 'ImagePullBackOff' },
    want: 'stuck: web-4 is in ImagePullBackOff on the old revision; RollingUpdate will not replace it — use EnforcedRollingUpdate or Recreate, or delete the pod',
  },
  {
    desc: 'a broken pod that the partition keeps from being replaced under EnforcedRollingUpdate',
    ctx: heldBroken,
    blocker: { kind: 'brokenBelowPartition', partition: 3, pods: ['web-0'], count: 1 },
    want: 'web-0 is broken (CrashLoopBackOff) on the old revision below partition 3, so EnforcedRollingUpdate does not replace it: lower the partition to replace it',
  },
  {
    desc: 'several broken pods below the partition, the list cut short',
    ctx: heldBroken,
    blocker: { kind: 'brokenBelowPartition', partition: 3, pods: ['web-0', 'web-1'], count: 3 },
    want: 'web-0 (CrashLoopBackOff), web-1 (ImagePullBackOff) and 1 more are broken on the old revision below partition 3, so EnforcedRollingUpdate does not replace them: lower the partition to replace them',
  },
  {
    desc: 'the partition holding pods back',
    ctx: rolling,
    blocker: { kind: 'partition', partition: 2, heldBack: 2 },
    want: 'partition 2: 2 pods stay on the old revision (ordinals below index 2 are not updated; lower the partition to continue)',
  },
  {
    desc: 'OrderedReady rolling update waiting for a terminating pod',
    ctx: rolling,
    blocker: { kind: 'podTerminating', pod: 'web-4', ordinal: 4 },
    want: 'OrderedReady rolling update waits for web-4 to finish terminating',
  },
  {
    desc: 'an invalid spec, with field paths',
    ctx: pending,
    blocker: { kind: 'invalidSpec', issues: [{ path: 'spec.replicas', detail: 'must be greater than or equal to 0' }] },
    want: 'the spec is invalid, so the controller creates and deletes nothing until it is fixed: spec.replicas: must be greater than or equal to 0',
  },
  {
    desc: 'an internal error in the planner, as a bug to report',
    ctx: pending,
    blocker: { kind: 'internalError', message: "Cannot read properties of undefined (reading 'name')", stack: 'TypeError: …' },
    want: "internal error in the planner: Cannot read properties of undefined (reading 'name'); this is a bug in Ordinal, please report it with the log line",
  },
  {
    desc: 'a disabled feature gate',
    ctx: pending,
    blocker: { kind: 'featureDisabled', gate: 'StatefulSetRecreateStrategy', field: 'spec.updateStrategy.type' },
    want: 'feature gate StatefulSetRecreateStrategy is disabled, so spec.updateStrategy.type falls back to upstream behaviour',
  },
  { desc: 'a set being deleted', ctx: pending, blocker: { kind: 'setDeleting' }, want: 'the StatefulSet is being deleted: no pod is created or deleted any more' },
  { desc: 'a missing pod in the update range', ctx: pending, blocker: { kind: 'podMissing', pod: 'web-3', ordinal: 3 }, want: 'the rolling update waits for web-3 to be created' },
  {
    desc: 'a stale claim',
    ctx: pending,
    blocker: { kind: 'staleClaim', pod: 'web-3', claim: 'data-web-3' },
    want: 'web-3 is not created: its claim data-web-3 still belongs to a deleted pod; it waits for the garbage collector',
  },
  {
    desc: 'a claim being deleted',
    ctx: pending,
    blocker: { kind: 'claimDeleting', pod: 'web-3', claim: 'data-web-3' },
    want: 'web-3 waits for its claim data-web-3 to finish deleting',
  },
  {
    desc: 'a failed claim expansion, with a recovery kube-apiserver accepts (a request above the capacity)',
    ctx: pending,
    blocker: { kind: 'claimResizeFailed', pod: 'db-2', claim: 'data-db-2', message: 'volume too large' },
    want: 'db-2 is not updated: the expansion of its claim data-db-2 failed (volume too large); fix the storage, or lower the claim\'s request to a size still above its current capacity to retry with less (nothing is deleted)',
  },
  {
    desc: 'a PodDisruptionBudget with no disruption left',
    ctx: pending,
    blocker: { kind: 'podDisruptionBudget', budget: 'db', pods: ['db-3'], count: 1, disruptionsAllowed: 0, currentHealthy: 4, desiredHealthy: 4, expectedPods: 5, stale: false, unready: false },
    want: 'db-3 is not deleted: PodDisruptionBudget db allows 0 more disruptions (4 healthy, 4 desired); the rollout waits for its pods to become healthy',
  },
  {
    desc: 'a PodDisruptionBudget that wants every pod healthy',
    ctx: pending,
    blocker: { kind: 'podDisruptionBudget', budget: 'db', pods: ['db-4', 'db-3'], count: 3, disruptionsAllowed: 0, currentHealthy: 5, desiredHealthy: 5, expectedPods: 5, stale: false, unready: false },
    want: 'db-4, db-3 and 1 more are not deleted: PodDisruptionBudget db wants all 5 of its pods healthy (5 healthy, 5 desired), so it never allows a disruption; lower its minAvailable or raise its maxUnavailable',
  },
  {
    desc: 'a PodDisruptionBudget short of healthy pods holding a pod that is not Ready',
    ctx: pending,
    blocker: { kind: 'podDisruptionBudget', budget: 'db', pods: ['db-2'], count: 1, disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 4, expectedPods: 5, stale: false, unready: true },
    want: 'db-2 is not deleted: PodDisruptionBudget db allows 0 more disruptions (3 healthy, 4 desired); a pod that is not Ready goes only while the budget has its desired healthy pods (set unhealthyPodEvictionPolicy: AlwaysAllow on the budget to let the rollout replace it)',
  },
  {
    desc: 'a PodDisruptionBudget whose status is older than its spec',
    ctx: pending,
    blocker: { kind: 'podDisruptionBudget', budget: 'db', pods: ['db-4'], count: 1, disruptionsAllowed: 0, currentHealthy: 5, desiredHealthy: 4, expectedPods: 5, stale: true, unready: false },
    want: 'db-4 waits: PodDisruptionBudget db has no status for its current spec yet, and allows no disruption until the disruption controller writes one',
  },
  {
    desc: 'the zone order holding later zones',
    ctx: pending,
    blocker: { kind: 'zoneOrder', topologyKey: 'topology.kubernetes.io/zone', order: ['zone-a', 'zone-b', null], zone: 'zone-a', heldBack: 3 },
    want: 'the update moves one topology.kubernetes.io/zone at a time, in the order zone-a → zone-b → (no zone): zone-a now; 3 replicas of later zones wait for it',
  },
  {
    desc: 'the next zone waiting for the one before to be available',
    ctx: pending,
    blocker: { kind: 'zoneOrder', topologyKey: 'topology.kubernetes.io/zone', order: ['zone-a', 'zone-b'], zone: 'zone-b', heldBack: 0, disrupted: { zone: 'zone-a', pods: ['db-3'] } },
    want: 'the update moves one topology.kubernetes.io/zone at a time, in the order zone-a → zone-b: zone-b next; no available pod of zone-b is deleted while zone-a has unavailable pods (db-3)',
  },
  {
    desc: 'the next zone waiting for a replica not placed yet',
    ctx: pending,
    blocker: { kind: 'zoneOrder', topologyKey: 'topology.kubernetes.io/zone', order: ['zone-a', 'zone-b'], zone: 'zone-b', heldBack: 1, disrupted: { zone: null, pods: ['db-4'] } },
    want: 'the update moves one topology.kubernetes.io/zone at a time, in the order zone-a → zone-b: zone-b next; 1 replica of later zones waits for it; no available pod of zone-b is deleted while replicas not yet placed in a zone are unavailable (db-4)',
  },
  {
    desc: 'the priority order holding the primary',
    ctx: pending,
    blocker: { kind: 'updateOrder', label: 'role', values: ['replica', 'primary'], order: ['db-2', 'db-1', 'db-0'], heldBack: 1 },
    want: 'the update takes pods by their role label, lowest priority first ((no listed value) → replica → primary), in the order db-2, db-1, db-0; 1 pod of a higher priority waits for the lower ones',
  },
  {
    desc: 'the next priority waiting for every replica to be available',
    ctx: pending,
    blocker: { kind: 'updateOrder', label: 'role', values: ['replica', 'primary'], order: ['db-0'], heldBack: 0, waitingFor: ['db-1'] },
    want: 'the update takes pods by their role label, lowest priority first ((no listed value) → replica → primary), in the order db-0; the next priority waits until every replica is available (db-1 is not)',
  },
  {
    desc: 'Recreate waiting for old pods',
    ctx: pending,
    blocker: { kind: 'waitingForTermination', pods: ['web-0', 'web-1'] },
    want: 'Recreate waits for every old pod to be gone before creating new ones: web-0, web-1',
  },
  {
    desc: 'an EnforcedRollingUpdate safety halt',
    ctx: stuck,
    blocker: { kind: 'safetyHalt', pod: 'web-4', ordinal: 4 },
    want: 'halted: web-4 on the new revision failed to become available (ImagePullBackOff); EnforcedRollingUpdate replaces no lower ordinal until the template changes (fix the template, or roll back with `rollout undo`)',
  },
  {
    desc: 'the progress deadline',
    ctx: pending,
    blocker: { kind: 'progressDeadlineExceeded', since: T0 - 700 * SECOND },
    want: 'no progress for 11m (progressDeadlineSeconds 600): Progressing=False, reason ProgressDeadlineExceeded',
  },
  {
    desc: 'a rollout slower than forecast',
    ctx: pending,
    blocker: { kind: 'slowerThanForecast', pod: 'web-19', step: 'start', seconds: 16.2, p50: 10, p95: 12.5, pods: 40 },
    want:
      "slower than forecast: pod web-19 not Ready 15 s after its creation; the set's last 40 pods were Ready in 10 s (p50), 12.5 s (p95) (it has taken 16s); " +
      'Progressing=False, reason SlowerThanForecast (a warning: the rollout goes on, and only the progress deadline fails it)',
  },
  {
    desc: 'capped work',
    ctx: pending,
    blocker: { kind: 'workCapped', remaining: 2147482647, perSync: 1000 },
    want: 'creating at most 1,000 pods per sync; 2147482647 replicas still to create',
  },
  {
    desc: 'ordinals past int32',
    ctx: pending,
    blocker: { kind: 'ordinalOverflow', start: 2147483647, replicas: 2, uncreatable: 1 },
    want: 'spec.ordinals.start 2147483647 + spec.replicas 2 runs past 2147483647, the largest pod ordinal: 1 replica can never be created (lower spec.ordinals.start or spec.replicas)',
  },
  { desc: 'OnDelete with one old pod', ctx: pending, blocker: { kind: 'onDeleteStrategy', outdatedPods: 1 }, want: 'OnDelete: 1 pod runs the old revision until you delete it' },
  { desc: 'OnDelete with old pods', ctx: pending, blocker: { kind: 'onDeleteStrategy', outdatedPods: 3 }, want: 'OnDelete: 3 pods run the old revision until you delete them' },
  {
    desc: 'a pod created this sync',
    ctx: pending,
    blocker: { kind: 'podCreating', pod: 'web-3', ordinal: 3 },
    want: 'web-3 is being created; OrderedReady waits for it to be Running and Ready before the next ordinal',
  },
  {
    desc: 'a pod updated in place whose kubelet has not reported the new image',
    ctx: pending,
    blocker: { kind: 'podUpdatingInPlace', pod: 'db-4', ordinal: 4, revision: 'db-59f45df6fb', containers: ['db'] },
    want: 'db-4 was updated in place to revision db-59f45df6fb; the rollout waits for its kubelet to report the new image and resources of db (the pod counts as unavailable until then)',
  },
  {
    desc: 'InPlaceOnly halting at a change a running pod cannot take',
    ctx: pending,
    blocker: { kind: 'inPlaceUpdateImpossible', pod: 'db-4', ordinal: 4, fields: ['spec.template.spec.containers[0].env'] },
    want:
      'db-4 is not updated: podUpdatePolicy InPlaceOnly, but the new revision changes spec.template.spec.containers[0].env, which a running pod cannot take; ' +
      'change only container images, cpu/memory (keeping the QoS class), labels and annotations, or set podUpdatePolicy InPlaceIfPossible to have it recreated (nothing is deleted)',
  },
  {
    desc: 'a resize its kubelet defers, with the time left before the fallback',
    ctx: pending,
    blocker: { kind: 'podResizeDeferred', pod: 'db-4', ordinal: 4, message: "Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000", fallbackAt: pending.now + 270_000 },
    want: 'db-4\'s resize is Deferred by its kubelet ("Node didn\'t have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000"); the rollout waits 270 s more, then recreates the pod (its claims are kept)',
  },
  {
    desc: 'InPlaceOnly halting at a resize its kubelet finds Infeasible',
    ctx: pending,
    blocker: { kind: 'podResizeImpossible', pod: 'db-4', ordinal: 4, reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 6000, capacity: 4000" },
    want:
      'db-4 is not updated: podUpdatePolicy InPlaceOnly, but its resize is Infeasible on its node ("Node didn\'t have enough capacity: cpu, requested: 6000, capacity: 4000"); ' +
      'lower the requests, or set podUpdatePolicy InPlaceIfPossible to have it recreated (its claims are kept)',
  },
  {
    desc: 'InPlaceOnly halting at a resize kube-apiserver refused',
    ctx: pending,
    blocker: { kind: 'podResizeImpossible', pod: 'db-4', ordinal: 4, reason: 'Forbidden', message: 'pods "db-4" is forbidden: …' },
    want:
      'db-4 is not updated: podUpdatePolicy InPlaceOnly, but its resize was refused by the API server ("pods "db-4" is forbidden: …"); ' +
      'lower the requests, or set podUpdatePolicy InPlaceIfPossible to have it recreated (its claims are kept)',
  },
];

describe('blockerSentence', () => {
  for (const c of cases) it(`says: ${c.desc}`, () => assert.equal(blockerSentence(c.blocker, c.ctx), c.want));

  it('counts pods deleted this sync against the budget', () => {
    const ctx = { ...rolling, updateDeletions: ['web-3'], pods: new Map([...rolling.pods, ['web-3', podFor(newSet(5), 3)]]) };
    const text = blockerSentence({ kind: 'budgetExhausted', unavailable: 1, maxUnavailable: 2, unavailablePods: ['web-1'] }, ctx);
    assert.equal(text, 'rolling update blocked: 2 of maxUnavailable 2 ordinals unavailable (web-1 NotReady below the partition, web-3 deleted now)');
  });

  it('counts pods patched in place this sync against the budget', () => {
    const ctx = { ...rolling, inPlaceUpdates: ['web-3'], pods: new Map([...rolling.pods, ['web-3', podFor(newSet(5), 3)]]) };
    const text = blockerSentence({ kind: 'budgetExhausted', unavailable: 1, maxUnavailable: 2, unavailablePods: ['web-1'] }, ctx);
    assert.equal(text, 'rolling update blocked: 2 of maxUnavailable 2 ordinals unavailable (web-1 NotReady below the partition, web-3 updated in place now)');
  });

  it('never says blocked with budget left: claims grown now count, pods held for other reasons do not', () => {
    const held = blockerSentence({ kind: 'budgetExhausted', unavailable: 0, maxUnavailable: 1, unavailablePods: [] }, rolling);
    assert.equal(held, 'rolling update has budget left (0 of maxUnavailable 1 ordinals unavailable) but replaces no pod now');
    const growing = blockerSentence({ kind: 'budgetExhausted', unavailable: 0, maxUnavailable: 1, unavailablePods: [] }, { ...rolling, claimUpdates: ['web-4'] });
    assert.equal(growing, "rolling update blocked: 1 of maxUnavailable 1 ordinals unavailable (web-4's claims updated now)");
  });

  it('says "enforced rolling update" for the EnforcedRollingUpdate budget', () => {
    const ctx = ctxFor({ strategy: 'EnforcedRollingUpdate', maxUnavailable: 1 }, () => [], true);
    const text = blockerSentence({ kind: 'budgetExhausted', unavailable: 1, maxUnavailable: 1, unavailablePods: ['web-4'] }, ctx);
    assert.equal(text, 'enforced rolling update blocked: 1 of maxUnavailable 1 ordinals unavailable (web-4 missing)');
  });
});
