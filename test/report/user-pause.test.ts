// A staged rollout that the user pauses and resumes is one rollout in the summary, the text timeline and the
// report (pause and resume bump the generation, and each bump used to count as a rollout "replaced by the next
// change"), with the pause's time stated and drawn on the steps row; and the report's step table counts the
// analysis checks the timeline drew.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderReport } from '../../src/report/index.js';
import { buildModel } from '../../src/report/model.js';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { rolloutLines } from '../../src/sim/timeline-text.js';
import type { AnalysisRecord } from '../../src/sim/timeline.js';

/** An example's objects with other steps. */
const example = (name: string, steps: string) => {
  const text = readFileSync(new URL(`../../examples/${name}.yaml`, import.meta.url), 'utf8');
  return parseScenario(`${text.slice(0, text.indexOf('\nsteps:\n') + 1)}steps:\n${steps}`, `${name} (steps of the test)`);
};

const run = async (name: string, steps: string) => {
  const r = await runScenario(example(name, steps));
  assert.equal(r.exitCode, 0);
  return r;
};

const WAIT = '  - waitFor: Converged\n    timeoutSeconds: 900\n';
const NEW_IMAGE = '  - setImage: {name: db, container: postgres, image: "example/postgres:17.6"}\n';

describe('a rollout the user pauses', () => {
  it('is one rollout of its revision in the summary and the text, its pause stated', async () => {
    const r = await run('canary-steps', `${WAIT}${NEW_IMAGE}  - advance: 20\n  - pause: db\n  - advance: 90\n  - resume: db\n${WAIT}`);
    const [only, ...rest] = r.summary.rollouts;
    assert.deepEqual(rest, [], 'pause and resume start no rollout of their own');
    assert.deepEqual([only?.generation, only?.startedAt, only?.convergedAt, only?.replacedAt, only?.pausedSeconds, only?.podsDeleted], [2, 40, 268, null, 90, 8]);
    assert.match(rolloutLines(r.summary)[0] ?? '', /started at t=40s, 8 pods replaced, took 3m48s \(paused by the user for 1m30s\)/);
  });

  it('draws the pause on the steps row, in the legend, and in the rollouts table', async () => {
    const r = await run('canary-steps', `${WAIT}${NEW_IMAGE}  - advance: 20\n  - pause: db\n  - advance: 90\n  - resume: db\n${WAIT}`);
    const model = buildModel(r.records, 't');
    assert.deepEqual(model.userPauses.get('default/db'), [{ start: 60, end: 150, open: false }]);
    const html = renderReport(r.records, { title: 't' });
    const row = /<g class="steps-row" data-group="default\/db">.*?<\/g><\/g>(?=<g class="row")/s.exec(html)?.[0] ?? '';
    assert.match(row, /<g class="user-pause"><title>paused by the user 1m00s–2m30s \(1m30s\): spec paused: true<\/title><rect /);
    assert.match(html, /User pause <span class="muted">\(paused by you: spec paused: true/);
    assert.match(html, /<td>3m48s <span class="muted">\(paused by the user for 1m30s\)<\/span><\/td>/);
    assert.equal((html.match(/replaced by the next change/g) ?? []).length, 0);
  });

  it('a pause and resume of a converged set start no rollout; a set never paused draws no pause', async () => {
    const r = await run('canary-steps', `${WAIT}  - pause: db\n  - advance: 30\n  - resume: db\n  - advance: 10\n${NEW_IMAGE}${WAIT}`);
    assert.deepEqual(r.summary.rollouts.map((x) => [x.startedAt, x.pausedSeconds]), [[80, undefined]], "only the template change at t=80 s is a rollout");
    const plain = await run('canary-steps', `${WAIT}${NEW_IMAGE}${WAIT}`);
    assert.equal(buildModel(plain.records, 't').userPauses.size, 0);
    assert.doesNotMatch(renderReport(plain.records, { title: 't' }), /user-pause|User pause/);
  });
});

describe("the report's step table", () => {
  it('counts the analysis checks the timeline recorded, the one that passed the step included', async () => {
    const r = await run('failed-analysis', `${WAIT}${NEW_IMAGE}${WAIT}`);
    const checks = r.records.filter((x): x is AnalysisRecord => x.type === 'analysis');
    assert.equal(checks.length, 3, 'count: 3, every check passing');
    const html = renderReport(r.records, { title: 't' });
    assert.equal((html.match(/<circle class="check check-ok"/g) ?? []).length, 3);
    assert.match(html, /<td>step 1\/2<\/td><td><code>db-[0-9a-f]+<\/code><\/td><td>25s<\/td><td>Analyzing from 31s \(3 passed, 0 failed: HTTP 200\)<\/td><td>1m11s<\/td>/);
  });
});
