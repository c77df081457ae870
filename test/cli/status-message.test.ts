// rollout status: kubectl's messages, Ordinal's failures (ProgressDeadlineExceeded, SafetyHalt, RolloutAborted), and "done"
// only when the simulator's Converged also holds for the pods.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutState, staleFailure } from '../../src/cli/rollout/status-message.js';
import type { StatefulSet } from '../../src/api/types.js';
import { convergedStatus, pod, set, T0 } from '../sim/fixtures.js';

const progressing = (reason: string, status: 'True' | 'False' = 'False', message = '', lastTransitionTime = '2026-01-01T00:00:00Z') => ({
  conditions: [{ type: 'Progressing', status, reason, message, lastTransitionTime }],
});

function withStatus(s: StatefulSet, status: Partial<NonNullable<StatefulSet['status']>>): StatefulSet {
  return { ...s, status: { ...convergedStatus(3), ...status } };
}

const three = [pod(0), pod(1), pod(2)];

describe('rolloutState', () => {
  const cases: { desc: string; set: StatefulSet; kind: string; message: string; pods?: typeof three }[] = [
    {
      desc: 'waits for the controller to observe a new generation',
      set: withStatus(set({ generation: 2 }), {}),
      kind: 'progressing',
      message: 'Waiting for statefulset spec update to be observed...',
    },
    {
      desc: 'waits for pods to be ready',
      set: withStatus(set(), { readyReplicas: 1 }),
      kind: 'progressing',
      message: 'Waiting for 2 pods to be ready...',
    },
    {
      desc: 'InPlace: waits for claims that are expanding (their replicas are not ready)',
      set: withStatus({ ...set(), spec: { ...set().spec, volumeClaimUpdatePolicy: 'InPlace' } }, { readyReplicas: 2, volumeClaimTemplates: [{ name: 'data', compatible: 1, updating: 1, overSized: 0, totalCapacity: '3Gi' }] }),
      kind: 'progressing',
      message: 'Waiting for 1 claims to finish expanding...',
    },
    {
      desc: 'OnDelete claims: a claim someone else expands is not waited for',
      set: withStatus(set(), { volumeClaimTemplates: [{ name: 'data', compatible: 1, updating: 1, overSized: 0, totalCapacity: '3Gi' }] }),
      kind: 'done',
      message: 'statefulset rolling update complete 3 pods at revision web-1...',
    },
    {
      desc: 'waits for availability when minReadySeconds is set',
      set: withStatus(set({ minReadySeconds: 30 }), { availableReplicas: 2 }),
      kind: 'progressing',
      message: 'Waiting for 1 pods to be available (minReadySeconds 30)...',
    },
    {
      desc: 'waits for a scale-down to remove pods',
      set: withStatus(set(), { replicas: 5 }),
      kind: 'progressing',
      message: 'Waiting for 2 pods to be removed (scale-down)...',
    },
    {
      desc: 'waits for the rolling update with kubectl\'s message',
      set: withStatus(set(), { updateRevision: 'web-2', updatedReplicas: 1 }),
      kind: 'progressing',
      message: 'waiting for statefulset rolling update to complete 1 pods at revision web-2...',
    },
    {
      desc: 'tells an OnDelete user to delete the old pods',
      set: withStatus(set({ updateStrategy: { type: 'OnDelete' } }), { updateRevision: 'web-2', updatedReplicas: 0 }),
      kind: 'progressing',
      message: 'waiting for statefulset rolling update to complete 0 pods at revision web-2 (OnDelete: delete the old pods to update them)...',
    },
    {
      desc: 'waits for a partitioned roll out',
      set: withStatus(set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }), { updateRevision: 'web-2', updatedReplicas: 1 }),
      kind: 'progressing',
      message: 'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
    },
    {
      desc: 'is done when a partitioned roll out has updated every pod above the partition',
      set: withStatus(set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }), {
        updateRevision: 'web-2',
        updatedReplicas: 2,
        currentReplicas: 1,
      }),
      pods: [pod(0), pod(1, { revision: 'web-2' }), pod(2, { revision: 'web-2' })],
      kind: 'done',
      message: 'partitioned roll out complete: 2 new pods have been updated...',
    },
    {
      desc: 'is done when converged',
      set: withStatus(set(), {}),
      kind: 'done',
      message: 'statefulset rolling update complete 3 pods at revision web-1...',
    },
    {
      desc: 'keeps waiting while a pod still terminates even though the counters look done',
      set: withStatus(set(), {}),
      pods: [pod(0), pod(1), pod(2, { terminating: true })],
      kind: 'progressing',
      message: 'Waiting: web: pod web-2 is terminating...',
    },
    {
      desc: 'fails on ProgressDeadlineExceeded, like kubectl for Deployments',
      set: withStatus(set(), { readyReplicas: 2, ...progressing('ProgressDeadlineExceeded') }),
      kind: 'failed',
      message: 'statefulset "web" exceeded its progress deadline',
    },
    {
      desc: 'does not fail on a deadline the status judged for an older generation (right after a fix)',
      set: withStatus(set({ generation: 3 }), { observedGeneration: 2, readyReplicas: 2, ...progressing('ProgressDeadlineExceeded') }),
      kind: 'progressing',
      message: 'Waiting for statefulset spec update to be observed...',
    },
    {
      desc: 'fails on an EnforcedRollingUpdate safety halt',
      set: withStatus(set(), { readyReplicas: 2, ...progressing('SafetyHalt', 'False', 'pod web-2 failed') }),
      kind: 'failed',
      message: 'statefulset "web" rollout halted: pod web-2 failed',
    },
    {
      desc: 'fails on a rollout onFailure: Rollback aborted, with what failed',
      set: withStatus(set(), { updateRevision: 'web-2', abortedRevision: 'web-2', ...progressing('RolloutAborted', 'False', 'Rollout to revision web-2 aborted: pod web-2 failed') }),
      kind: 'failed',
      message: 'statefulset "web" rollout aborted: Rollout to revision web-2 aborted: pod web-2 failed',
    },
    {
      desc: 'waits while the controller has not acted on a retry of the aborted rollout',
      set: {
        ...withStatus(set(), { updateRevision: 'web-2', abortedRevision: 'web-2', observedRolloutRetry: 'first', ...progressing('RolloutAborted', 'False', 'aborted') }),
        metadata: { ...set().metadata, annotations: { 'apps.ordinal.dev/rollout-retry': 'second' } },
      },
      kind: 'progressing',
      message: 'Waiting for statefulset rollout retry to be observed...',
    },
    {
      desc: 'does not fail while Progressing is True',
      set: withStatus(set(), { readyReplicas: 2, ...progressing('RollingUpdateInProgress', 'True') }),
      kind: 'progressing',
      message: 'Waiting for 1 pods to be ready...',
    },
  ];
  for (const c of cases) {
    it(c.desc, () => {
      assert.deepEqual(rolloutState(c.set, c.pods ?? three, T0), { kind: c.kind, message: c.message });
    });
  }
});

describe('rolloutState after a spec change', () => {
  const timedOut = (generation: number, observedGeneration: number, at: string) =>
    withStatus(set({ generation }), { observedGeneration, readyReplicas: 2, ...progressing('ProgressDeadlineExceeded', 'False', 'timed out', at) });

  it('keeps the failure condition of a status written for an older spec, and only that', () => {
    assert.equal(staleFailure(timedOut(3, 2, '2026-01-01T00:00:37Z'))?.lastTransitionTime, '2026-01-01T00:00:37Z');
    assert.equal(staleFailure(timedOut(3, 3, '2026-01-01T00:00:37Z')), undefined);
    assert.equal(staleFailure(withStatus(set({ generation: 3 }), { observedGeneration: 2 })), undefined);
  });

  it('does not fail on the same condition once the new generation is observed, but fails on a new one', () => {
    const stale = staleFailure(timedOut(3, 2, '2026-01-01T00:00:37Z'));
    const kept = rolloutState(timedOut(3, 3, '2026-01-01T00:00:37Z'), three, T0, stale);
    assert.deepEqual(kept, { kind: 'progressing', message: 'Waiting for 1 pods to be ready...' });
    const again = rolloutState(timedOut(3, 3, '2026-01-01T00:01:20Z'), three, T0, stale);
    assert.deepEqual(again, { kind: 'failed', message: 'statefulset "web" exceeded its progress deadline' });
  });
});

describe('rolloutState of a staged rollout', () => {
  const http = { url: 'http://checks.example/healthz', count: 5 };
  const steps = [{ replicas: 1, pause: {} }, { replicas: 2, pause: { duration: '10m' } }, { replicas: 2, analysis: { http } }, { partition: 0, analysis: { readiness: { duration: '5m' } } }];
  const staged = (status: Partial<NonNullable<StatefulSet['status']>>, rolling: object = {}): StatefulSet =>
    withStatus({ ...set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps, ...rolling } } }), apiVersion: 'apps.ordinal.dev/v1' }, {
      updateRevision: 'web-2',
      stepRevision: 'web-2',
      updatedReplicas: 1,
      currentStepSince: '2026-01-01T00:00:00Z',
      ...status,
    });
  const at = (index: number, state: NonNullable<NonNullable<StatefulSet['status']>['currentStepState']>, more: object = {}) => staged({ currentStepIndex: index, currentStepState: state, ...more });
  const cases: { desc: string; set: StatefulSet; now?: number; state: object }[] = [
    { desc: 'a step paused until promoted is held for a person', set: at(0, 'Paused'), state: { kind: 'paused', by: 'step', message: 'step 1/4: paused until promoted (kubectl ordinal rollout promote web)' } },
    { desc: 'a bake says how long is left', set: at(1, 'Baking'), now: T0 + 3 * 60_000, state: { kind: 'progressing', message: 'step 2/4: paused for 7m more (bake)' } },
    { desc: 'an HTTP analysis counts its checks', set: at(2, 'Analyzing', { stepAnalysis: { successful: 2, failed: 0 } }), state: { kind: 'progressing', message: 'step 3/4: analysis running (2 of 5 checks passed)' } },
    { desc: 'and the failed ones within failureLimit', set: at(2, 'Analyzing', { stepAnalysis: { successful: 2, failed: 1 } }), state: { kind: 'progressing', message: 'step 3/4: analysis running (2 of 5 checks passed, 1 failed)' } },
    { desc: 'a readiness analysis says how long is left', set: at(3, 'Analyzing'), now: T0 + 30_000, state: { kind: 'progressing', message: 'step 4/4: readiness analysis for 4m30s more' } },
    { desc: 'a step updating its pods names its boundary', set: at(1, 'Updating'), state: { kind: 'progressing', message: 'step 2/4: waiting for 2 pods from index 1 up to be updated and available (1 updated)...' } },
    {
      desc: "the user's pause comes first",
      set: staged({ currentStepIndex: 1, currentStepState: 'Baking', pauseConditions: [{ reason: 'UserPause', since: '2026-01-01T00:00:00Z' }] }, { paused: true }),
      state: { kind: 'paused', by: 'user', message: 'step 2/4: paused (spec paused: true; kubectl ordinal rollout resume web)' },
    },
    {
      desc: 'a promote the controller has not acted on is waited for',
      set: { ...at(0, 'Paused'), metadata: { ...set().metadata, annotations: { 'apps.ordinal.dev/rollout-promote': 'web-2/0' } } },
      state: { kind: 'progressing', message: 'Waiting for statefulset rollout promote to be observed...' },
    },
    {
      desc: 'a failed analysis fails the rollout',
      set: at(2, 'Failed', progressing('AnalysisFailed', 'False', 'Rollout to revision web-2 at step 3/4 failed its analysis: 1 of 1 checks failed')),
      state: { kind: 'failed', message: 'statefulset "web" rollout failed: Rollout to revision web-2 at step 3/4 failed its analysis: 1 of 1 checks failed' },
    },
    {
      desc: 'a retry of a failed step the controller has not acted on is waited for',
      set: { ...at(2, 'Failed', progressing('AnalysisFailed')), metadata: { ...set().metadata, annotations: { 'apps.ordinal.dev/rollout-retry': 'now' } } },
      state: { kind: 'progressing', message: 'Waiting for statefulset rollout retry to be observed...' },
    },
  ];
  for (const c of cases) {
    it(c.desc, () => {
      assert.deepEqual(rolloutState(c.set, three, c.now ?? T0), c.state);
    });
  }
});

describe('rolloutState: spec.lifecycle.preUpdate', () => {
  const hooked = (): StatefulSet => ({
    ...withStatus(set(), { updateRevision: 'web-2', updatedReplicas: 2, currentReplicas: 1 }),
    apiVersion: 'apps.ordinal.dev/v1',
    spec: { ...set().spec, lifecycle: { preUpdate: { http: { url: 'http://op.example/switch' }, timeoutSeconds: 120 } } },
  });
  const recorded = (phase: string, message?: string) => {
    const p = pod(0);
    p.metadata.annotations = { 'apps.ordinal.dev/pre-update-hook': JSON.stringify({ revision: 'web-2', phase, since: '2026-01-01T00:00:00Z', ...(message ? { message } : {}) }) };
    return [p, pod(1, { revision: 'web-2' }), pod(2, { revision: 'web-2' })];
  };
  it('says which pod waits for its hook, the GET, and since when', () => {
    assert.deepEqual(rolloutState(hooked(), recorded('Calling'), T0 + 40_000), {
      kind: 'progressing',
      message: 'Waiting for the preUpdate hook of web-0 (GET http://op.example/switch?pod=web-0&revision=web-2), called 40s ago...',
    });
  });
  it('says a failed hook holds the pod, and how to call it again', () => {
    assert.deepEqual(rolloutState(hooked(), recorded('Failed', 'HTTP 503, expected 200'), T0 + 200_000), {
      kind: 'progressing',
      message: 'web-0 is held: its preUpdate hook (GET http://op.example/switch?pod=web-0&revision=web-2) did not pass within 120s (last: HTTP 503, expected 200); remove its annotation apps.ordinal.dev/pre-update-hook to call it again',
    });
  });
  it('says nothing of a hook that passed', () => {
    assert.equal(rolloutState(hooked(), recorded('Passed'), T0).message, 'waiting for statefulset rolling update to complete 2 pods at revision web-2...');
  });
});

describe('rolloutState: inPlaceUpdateStrategy.gracePeriodSeconds', () => {
  const draining = (): StatefulSet => ({
    ...withStatus(set(), { updateRevision: 'web-2', updatedReplicas: 2, currentReplicas: 1 }),
    apiVersion: 'apps.ordinal.dev/v1',
    spec: { ...set().spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 30 } } } },
  });
  const gated = (status: 'True' | 'False') => {
    const p = pod(0);
    p.spec.readinessGates = [{ conditionType: 'apps.ordinal.dev/InPlaceUpdateReady' }];
    p.status = { ...p.status, conditions: [...(p.status?.conditions ?? []), { type: 'apps.ordinal.dev/InPlaceUpdateReady', status, lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    return [p, pod(1, { revision: 'web-2' }), pod(2, { revision: 'web-2' })];
  };
  it('says which pod drains before its in-place restart, and how far', () => {
    assert.deepEqual(rolloutState(draining(), gated('False'), T0 + 12_000), { kind: 'progressing', message: 'Waiting for web-0 to drain before its in-place restart: NotReady for 12s of 30s...' });
  });
  it('says nothing of a pod whose gate is True', () => {
    assert.equal(rolloutState(draining(), gated('True'), T0).message, 'waiting for statefulset rolling update to complete 2 pods at revision web-2...');
  });
});
