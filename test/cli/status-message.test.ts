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
