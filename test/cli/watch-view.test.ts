import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { holdingPods, podChanges, renderLiveFrame, watchRows, type WatchPodRow } from '../../src/cli/rollout/watch-view.js';
import { etaText, type Eta } from '../../src/cli/rollout/rollout-eta.js';
import type { Pod } from '../../src/api/types.js';
import { convergedStatus, iso, pod, set, T0 } from '../sim/fixtures.js';

const s = { ...set({ minReadySeconds: 10 }), status: { ...convergedStatus(3), updateRevision: 'web-2' } };

describe('rollout status --watch view', () => {
  it('shows each pod with its state, time in state and whether it is on the update revision', () => {
    const pods = [pod(2, { revision: 'web-2', readySince: T0 - 4000 }), pod(0, { readySince: T0 - 65_000 }), pod(1, { ready: false })];
    const rows = watchRows(s, pods, T0);
    assert.deepEqual(
      rows.map((r) => [r.ordinal, r.state, r.age, r.mark]),
      [
        [0, 'Ready', '65s', 'old'],
        [1, 'Pending', '0s', 'old'],
        [2, 'Ready (not yet available)', '4s', 'new'],
      ],
    );
  });

  it('during an aborted rollout, marks the pods back on the good revision and those left on the aborted one', () => {
    const aborted = { ...s, status: { ...s.status, abortedRevision: 'web-2' } };
    const rows = watchRows(aborted, [pod(2, { revision: 'web-2' }), pod(1)], T0);
    assert.deepEqual(rows.map((r) => [r.pod, r.mark]), [['web-1', 'back'], ['web-2', 'aborted']]);
  });

  it('measures a terminating pod from the deletion request, not from deletionTimestamp', () => {
    const p = pod(0);
    p.metadata.deletionTimestamp = iso(T0 + 20_000);
    p.metadata.deletionGracePeriodSeconds = 30;
    assert.equal(watchRows(s, [p], T0)[0]?.age, '10s');
    assert.equal(watchRows(s, [p], T0)[0]?.state, 'Terminating');
  });

  it('renders a plain frame without escapes when colour is off', () => {
    const lines = renderLiveFrame({ title: 'statefulset.apps/web in default', message: 'Waiting for 1 pods to be ready...', set: s, rows: watchRows(s, [pod(0, { readySince: T0 - 60_000 })], T0) }, { color: false });
    assert.equal(lines[0], 'statefulset.apps/web in default');
    assert.equal(lines[1], 'replicas 3/3  ready 3  available 3  updated 3  current 3');
    assert.match(lines[2] ?? '', /^ {2}ORDINAL\s+POD\s+STATE\s+FOR\s+REVISION$/);
    assert.match(lines[3] ?? '', /^ {2}0\s+web-0\s+Ready\s+60s\s+web-1 \(old\)$/);
    assert.equal(lines.at(-1), 'Waiting for 1 pods to be ready...');
    assert.ok(lines.every((l) => !l.includes('\x1b[')));
  });

  it('colours states and revisions on a terminal', () => {
    const lines = renderLiveFrame({ title: 't', message: 'm', set: s, rows: watchRows(s, [pod(0, { readySince: T0 - 60_000 })], T0) }, { color: true });
    assert.ok(lines.some((l) => l.includes('\x1b[32mReady')));
  });

  it('names the pods that hold the rollout at the first look, with their time in state', () => {
    const rows = watchRows(s, [pod(0, { readySince: T0 - 65_000 }), pod(1, { revision: 'web-2', ready: false, readySince: T0 - 12_000 })], T0);
    assert.deepEqual(holdingPods(rows), ['  web-1: Pending for 12s (revision web-2)']);
  });

  describe('ETA line', () => {
    const forecast: Eta = { terminationUnknown: false, remaining: (updated) => ({ p5: 50 - 20 * updated, p50: 60 - 20 * updated, p90: 70 - 20 * updated, p95: 75 - 20 * updated }) };
    const pulling = (ordinal: number, reason: string): Pod => {
      const p = pod(ordinal, { ready: false, revision: 'web-2' });
      p.status = { ...p.status, containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'i', imageID: '', state: { waiting: { reason } } }] };
      return p;
    };
    it('gives the forecast of what is left while no pod fails', () => {
      assert.equal(etaText(forecast, [pod(0), pod(1)], 1), "ETA: about 40s left (p90 50s), forecast from this set's pod timings");
    });
    it('is unknown while a pod is failing, naming the lowest such ordinal, even before the forecast answers', () => {
      const pods = [pod(0), pulling(2, 'CrashLoopBackOff'), pulling(1, 'ImagePullBackOff')];
      assert.equal(etaText(forecast, pods, 1), 'ETA: unknown while web-1 is failing (ImagePullBackOff)');
      assert.equal(etaText('pending', pods, 1), 'ETA: unknown while web-1 is failing (ImagePullBackOff)');
      assert.equal(etaText('pending', [pod(0)], 1), undefined);
    });
    it('says the forecast is at most what is left while no pod has been seen going (the grace period stands in)', () => {
      assert.equal(etaText({ ...forecast, terminationUnknown: true }, [pod(0)], 0), 'ETA: at most about 60s left (p90 70s): no pod seen going yet, so each takes its grace period to stop');
    });
    it('says nothing when no rollout is under way', () => {
      assert.equal(etaText('none', [pulling(1, 'ImagePullBackOff')], 0), undefined);
    });
  });

  describe('podChanges (plain lines)', () => {
    const row = (pod: string, state: string, revision = 'web-1'): WatchPodRow => ({ ordinal: 0, pod, state, age: '1s', revision, mark: 'old', available: false });
    it('prints new pods, state and revision changes, and deletions', () => {
      const before = new Map([
        ['web-0', row('web-0', 'Ready')],
        ['web-1', row('web-1', 'Ready')],
        ['web-2', row('web-2', 'Ready')],
      ]);
      const lines = podChanges(before, [row('web-0', 'Ready'), row('web-1', 'Terminating'), row('web-3', 'Pending', 'web-2')]);
      assert.deepEqual(lines, [
        '  web-1: Ready -> Terminating (revision web-1)',
        '  web-3: Pending (revision web-2)',
        '  web-2: deleted',
      ]);
    });
    it('prints nothing when only the age moved', () => {
      assert.deepEqual(podChanges(new Map([['web-0', row('web-0', 'Ready')]]), [{ ...row('web-0', 'Ready'), age: '5s' }]), []);
    });
  });
});
