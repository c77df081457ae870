// A staged rollout's current step in the live views: the demo's terminal view and `rollout status --watch`.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { RolloutStep, StatefulSet, StatefulSetStatus } from '../../src/api/types.js';
import { renderLiveFrame, watchRows } from '../../src/cli/rollout/watch-view.js';
import { currentStepLine } from '../../src/report/current-step.js';
import { frameOf, renderFrame } from '../../src/report/terminal-view.js';
import { SimState } from '../../src/sim/state.js';
import { T0, convergedStatus, iso, pod, set } from '../sim/fixtures.js';

const steps: RolloutStep[] = [
  { replicas: 1, pause: { duration: '2m' } },
  { replicas: '50%', pause: {} },
  { partition: 1, analysis: { readiness: { duration: '45s' } } },
  { replicas: '100%', analysis: { http: { url: 'http://checks/db', count: 3 } } },
];

const staged = (status: Partial<StatefulSetStatus>): StatefulSet => ({
  ...set({ replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps } }, status: { ...convergedStatus(4, 'web-2'), currentRevision: 'web-1', ...status } }),
  apiVersion: 'apps.ordinal.dev/v1',
});

describe('the current step in the live views', () => {
  it('says where the rollout is and what it waits for, with the time left of a bake or readiness window', () => {
    const since = iso(T0 - 40_000);
    assert.equal(currentStepLine(staged({ currentStepIndex: 0, currentStepState: 'Updating', currentStepSince: since })), 'step 1/4 (replicas 1, partition 3): updating, then a bake of 2m');
    assert.equal(currentStepLine(staged({ currentStepIndex: 0, currentStepState: 'Baking', currentStepSince: since }), T0), 'step 1/4 (replicas 1, partition 3): baking, 1m20s more of 2m00s');
    assert.equal(currentStepLine(staged({ currentStepIndex: 0, currentStepState: 'Baking', currentStepSince: since })), 'step 1/4 (replicas 1, partition 3): baking, 2m00s from 2025-12-31T23:59:20Z');
    assert.equal(currentStepLine(staged({ currentStepIndex: 1, currentStepState: 'Paused', currentStepSince: since })), 'step 2/4 (replicas 50%, partition 2): paused until promoted (kubectl ordinal rollout promote web)');
    assert.equal(
      currentStepLine(staged({ currentStepIndex: 2, currentStepState: 'Analyzing', currentStepSince: since, stepAnalysis: { successful: 0, failed: 1 } }), T0),
      'step 3/4 (partition 1): readiness analysis, 5s more of 45s, 0 passed, 1 failed',
    );
    assert.equal(
      currentStepLine(staged({ currentStepIndex: 3, currentStepState: 'Failed', stepAnalysis: { successful: 1, failed: 1, message: 'HTTP 503, expected 200' } })),
      'step 4/4 (replicas 100%, partition 0): failed: HTTP 503, expected 200',
    );
    assert.equal(currentStepLine(staged({ currentStepIndex: 4, currentStepState: 'Completed' })), 'steps: all 4 passed');
    assert.equal(
      currentStepLine(staged({ currentStepIndex: 1, currentStepState: 'Updating', pauseConditions: [{ reason: 'UserPause', since }] })),
      'step 2/4 (replicas 50%, partition 2): updating, then a pause until promoted; paused by the user (spec paused: true)',
    );
    assert.equal(currentStepLine(set({ status: convergedStatus(3) })), undefined);
  });

  it('names a Prometheus step by its gate, before and while it checks', () => {
    const prometheus: RolloutStep[] = [{ replicas: 1, analysis: { prometheus: { address: 'http://prometheus:9090', query: 'up', successCondition: 'result > 0', count: 2 } } }, { replicas: '100%' }];
    const at = (status: Partial<StatefulSetStatus>): StatefulSet => {
      const s = staged(status);
      return { ...s, spec: { ...s.spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps: prometheus } } } };
    };
    assert.equal(currentStepLine(at({ currentStepIndex: 0, currentStepState: 'Updating' })), 'step 1/2 (replicas 1, partition 3): updating, then a prometheus analysis');
    assert.equal(currentStepLine(at({ currentStepIndex: 0, currentStepState: 'Analyzing', stepAnalysis: { successful: 1, failed: 0 } })), 'step 1/2 (replicas 1, partition 3): prometheus analysis, 1 passed, 0 failed');
  });

  it('rollout status --watch draws it under the counters, with the time left when it knows the time', () => {
    const s = staged({ currentStepIndex: 0, currentStepState: 'Baking', currentStepSince: iso(T0 - 40_000) });
    const lines = renderLiveFrame({ title: 't', message: 'm', set: s, rows: watchRows(s, [pod(3, { revision: 'web-2' })], T0), now: T0 }, { color: false });
    assert.equal(lines[2], 'step 1/4 (replicas 1, partition 3): baking, 1m20s more of 2m00s');
    const plain = renderLiveFrame({ title: 't', message: 'm', set: set({ status: convergedStatus(3) }), rows: [] }, { color: false });
    assert.doesNotMatch(plain.join('\n'), /step/);
  });

  it('the demo\'s view draws it under the set', () => {
    const sim = new SimState();
    sim.applySet(Resources.ordinalStatefulSets, staged({ currentStepIndex: 1, currentStepState: 'Paused', currentStepSince: iso(T0) }), false);
    const lines = renderFrame(frameOf(sim, T0, 0), { color: false });
    assert.equal(lines[2], '  step 2/4 (replicas 50%, partition 2): paused until promoted (kubectl ordinal rollout promote web)');
  });
});
