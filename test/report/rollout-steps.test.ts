// A staged rollout on the report's timeline: each step's Updating, Paused, Baking, Analyzing and Failed
// stretches from the recorded status, as a row under the set's header and a table of when each step started,
// when its gate began and when it passed.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderReport } from '../../src/report/index.js';
import { buildModel } from '../../src/report/model.js';
import { renderStepRow, stepRecords } from '../../src/report/rollout-steps.js';
import { describeStep } from '../../src/report/step-labels.js';
import { timeScale } from '../../src/report/chart-layout.js';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { StatefulSetStatus, StepState } from '../../src/api/types.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';

const status = (t: number, index: number, state: StepState, revision = 'db-b'): TimelineRecord => ({
  t,
  type: 'status',
  namespace: 'default',
  name: 'db',
  generation: 2,
  status: { replicas: 4, updateRevision: revision, currentStepIndex: index, currentStepState: state, stepRevision: revision } as StatefulSetStatus,
});

const canary = async (): Promise<TimelineRecord[]> => {
  const text = readFileSync(new URL('../../examples/canary-steps.yaml', import.meta.url), 'utf8');
  return (await runScenario(parseScenario(text, 'canary-steps.yaml'))).records;
};

describe('rollout steps in the report', () => {
  it('draws the canary, its bake and each later step from the recorded status', async () => {
    const model = buildModel(await canary(), 't');
    const phases = model.stepPhases.get('default/db') ?? [];
    assert.deepEqual(
      phases.map((p) => [p.index, p.of, p.state, p.start, p.end]),
      [
        [0, 4, 'Updating', 40, 46],
        [0, 4, 'Baking', 46, 166],
        [1, 4, 'Updating', 166, 172],
        [1, 4, 'Baking', 172, 202],
        [2, 4, 'Updating', 202, 214],
        [2, 4, 'Baking', 214, 244],
        [3, 4, 'Updating', 244, 268],
      ],
    );
    const html = renderReport(await canary(), { title: 't' });
    assert.match(html, /<g class="steps-row" data-group="default\/db">/);
    assert.equal((html.match(/<g class="phase" data-step="0" data-state="Baking">/g) ?? []).length, 1);
    assert.match(html, /<title>step 1\/4 Baking 46s–2m46s \(2m00s\) revision db-/);
    assert.match(html, /<h2>Rollout steps<\/h2>/);
    assert.match(html, /<td>step 1\/4<\/td><td><code>db-[0-9a-f]+<\/code><\/td><td>40s<\/td><td>Baking from 46s<\/td><td>2m46s<\/td>/);
  });

  it('a set without steps gets no step row, legend or table', () => {
    const html = renderReport([{ t: 0, type: 'status', namespace: 'default', name: 'web', generation: 1, status: { replicas: 1 } }], { title: 't' });
    assert.doesNotMatch(html, /steps-row|Rollout steps/);
  });

  it('a manual pause and a failed analysis, and steps passed in one sync', () => {
    const failing = { successful: 1, failed: 2, message: 'HTTP 503, expected 200' };
    const withChecks = (r: TimelineRecord, analysis: StatefulSetStatus['stepAnalysis']): TimelineRecord => (r.type === 'status' ? { ...r, status: { ...r.status, stepAnalysis: analysis } } : r);
    const records = [
      status(0, 3, 'Completed', 'db-a'),
      status(10, 0, 'Updating'),
      status(15, 0, 'Paused'),
      status(90, 2, 'Updating'),
      withChecks(status(95, 2, 'Analyzing'), { successful: 0, failed: 0 }),
      withChecks(status(105, 2, 'Analyzing'), { successful: 1, failed: 0 }),
      withChecks(status(125, 2, 'Failed'), failing),
    ];
    const model = buildModel(records, 't');
    assert.deepEqual(
      model.stepPhases.get('default/db')?.map((p) => [p.index + 1, p.state, p.start, p.end, p.open]),
      [
        [1, 'Updating', 10, 15, false],
        [1, 'Paused', 15, 90, false],
        [3, 'Updating', 90, 95, false],
        [3, 'Analyzing', 95, 125, false],
        [3, 'Failed', 125, 125, true],
      ],
    );
    assert.deepEqual(
      stepRecords(model.counters[0]!).map((r) => [r.index + 1, r.of, r.started, r.gate?.state, r.gate?.at, r.passed, r.failed]),
      [
        [1, 3, 10, 'Paused', 15, 90, undefined],
        [2, 3, 90, undefined, undefined, 90, undefined],
        [3, 3, 90, 'Analyzing', 95, undefined, 125],
      ],
    );
    const html = renderReport(records, { title: 't' });
    assert.match(html, /<td>Analyzing from 1m35s \(1 passed, 2 failed: HTTP 503, expected 200\)<\/td><td><span class="bad">failed at 2m05s<\/span><\/td>/);
    const row = renderStepRow('default/db', model.stepPhases.get('default/db') ?? [], 0, timeScale(125));
    assert.match(row, /<title>step 3\/3 Analyzing 1m35s–2m05s \(30s\) revision db-b; checks: 1 passed, 0 failed<\/title>/);
  });
});

describe('a failed HTTP analysis in the report', () => {
  it('draws each check on the step row, green when it passed and red when it failed, and the Failed step', async () => {
    const text = readFileSync(new URL('../../examples/failed-analysis.yaml', import.meta.url), 'utf8');
    const { records } = await runScenario(parseScenario(text, 'failed-analysis.yaml'));
    const model = buildModel(records, 't');
    assert.deepEqual(model.analysisChecks.get('default/db')?.map((c) => [c.t, c.step, c.ok]), [
      [31, 0, true],
      [51, 0, false],
      [71, 0, false],
    ]);
    assert.deepEqual(model.stepPhases.get('default/db')?.map((p) => [p.state, p.start]), [
      ['Updating', 25],
      ['Analyzing', 31],
      ['Failed', 71],
    ]);
    const html = renderReport(records, { title: 't' });
    assert.equal((html.match(/<circle class="check check-failed" data-ok="false"/g) ?? []).length, 2);
    assert.match(html, /<circle class="check check-ok" data-ok="true"[^>]*><title>31s step 1 analysis: GET http:\/\/db-canary\.example\/healthz -&gt; HTTP 200 \(passed\)<\/title>/);
    assert.match(html, /<td>Analyzing from 31s \(1 passed, 2 failed: HTTP 503, expected 200\)<\/td><td><span class="bad">failed at 1m11s<\/span><\/td>/);
  });
});

describe('the staged-rollout scenario steps in words', () => {
  it('names the endpoint and the user\'s signals as the plugin would', () => {
    assert.equal(describeStep({ endpoint: { url: 'http://h/ok', status: 503 } }), 'analysis endpoint http://h/ok answers 503');
    assert.equal(describeStep({ endpoint: { url: 'http://h/ok', status: null } }), 'analysis endpoint http://h/ok refuses connections');
    assert.equal(describeStep({ promote: { name: 'db', full: true } }), 'rollout promote db --full');
    assert.equal(describeStep({ pause: 'db' }), 'rollout pause db');
    assert.equal(describeStep({ abort: { name: 'db' } }), 'rollout abort db');
  });
});
