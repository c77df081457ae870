import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { frameOf, renderFrame } from '../../src/report/terminal-view.js';
import { SimState } from '../../src/sim/state.js';
import { T0, convergedStatus, pod, set } from '../sim/fixtures.js';

function state(): SimState {
  const s = new SimState();
  s.applySet(Resources.statefulSets, set({ status: { ...convergedStatus(3, 'web-2'), currentRevision: 'web-1' } }), false);
  s.applyPod(pod(2, { revision: 'web-2', ready: false }), false);
  s.applyPod(pod(0, { revision: 'web-1' }), false);
  s.applyPod(pod(1, { revision: 'web-1', terminating: true }), false);
  return s;
}

describe('terminal view', () => {
  it('lists pods by ordinal with state, revision (old/new) and readiness', () => {
    const frame = frameOf(state(), T0, 12.5, ['step #1']);
    assert.deepEqual(
      frame.sets[0]!.rows.map((r) => [r.ordinal, r.state, r.revision, r.ready]),
      [
        [0, 'Ready', 'web-1', true],
        [1, 'Terminating', 'web-1', true],
        [2, 'Pending', 'web-2', false],
      ],
    );
    const lines = renderFrame(frame, { color: false });
    assert.equal(lines[0], 't = 12.5s (virtual)');
    assert.match(lines[1]!, /^StatefulSet web {2}replicas 3 {2}ready 3/);
    assert.match(lines[2]!, /^ {4}0 {2}web-0 +Ready +\d+s web-1 \(old\) +ready available$/);
    assert.match(lines[4]!, /web-2 \(new\)/);
    assert.equal(lines[5], 'step #1');
    assert.ok(lines.every((l) => !l.includes('\x1b')));
  });

  it('colours states and revisions only when asked', () => {
    const lines = renderFrame(frameOf(state(), T0, 0), { color: true });
    assert.ok(lines.some((l) => l.includes('\x1b[32mReady')));
  });

  it('shows how long each pod has been in its state, and a Ready pod not yet available under minReadySeconds', () => {
    const s = new SimState();
    const created = T0 - 30_000;
    s.applySet(Resources.statefulSets, set({ minReadySeconds: 60, status: convergedStatus(1, 'web-1') }), false);
    const ready = pod(0, { revision: 'web-1' });
    ready.metadata.creationTimestamp = new Date(created).toISOString();
    ready.status!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(T0 - 12_000).toISOString() }];
    s.applyPod(ready, false);
    const frame = frameOf(s, T0, 0);
    assert.equal(frame.sets[0]!.rows[0]!.forSeconds, 12);
    assert.match(renderFrame(frame, { color: false })[2]!, / 12s web-1 \(new\) +ready not yet available$/);
  });

  it('marks an aborted rollout: the failure, the pods on the aborted revision and those back on the good one', () => {
    const s = new SimState();
    const message = 'Rollout to revision web-2 aborted: pod web-2 failed to become available (ImagePullBackOff); every pod goes back to revision web-1';
    const status = { ...convergedStatus(3, 'web-2'), currentRevision: 'web-1', abortedRevision: 'web-2', conditions: [{ type: 'Progressing', status: 'False' as const, reason: 'RolloutAborted', message }] };
    s.applySet(Resources.statefulSets, set({ status }), false);
    s.applyPod(pod(2, { revision: 'web-2', ready: false }), false);
    s.applyPod(pod(1, { revision: 'web-1' }), false);
    const lines = renderFrame(frameOf(s, T0, 0), { color: false });
    assert.equal(lines[2], `  aborted: ${message}`);
    assert.match(lines[3]!, /web-1 \(back\)/);
    assert.match(lines[4]!, /web-2 \(aborted\)/);
  });
});
