// Staged rollouts in the simulator: HTTP analysis checks answered by `cluster.analysisEndpoints` (and
// `endpoint` steps), made by the same controller runtime as `ordinal controller`, and the user's signals as
// scenario steps (pause, resume, promote, abort, retry), each the plugin's merge patch.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario, type RunResult } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { issuesOf } from './fixtures.js';
import { TextTimeline } from '../../src/sim/timeline-text.js';
import type { AnalysisRecord, EventRecord, ExpectRecord, FailureRecord, PodRecord } from '../../src/sim/timeline.js';

const URL = 'http://canary.test/healthz';

interface Options {
  /** The first step's gate (YAML). */
  gate?: string;
  endpoints?: string;
  onFailure?: 'Halt' | 'Rollback';
  apiVersion?: string;
  steps: string;
}

function scenario(o: Options): string {
  const gate = o.gate ?? `analysis: {http: {url: "${URL}", interval: 10s, count: 2}}`;
  return `kind: Scenario
endSeconds: 3600
cluster:
  podStartSeconds: 2
${o.endpoints ? `  analysisEndpoints: ${o.endpoints}\n` : ''}objects:
  - apiVersion: ${o.apiVersion ?? 'apps.ordinal.dev/v1'}
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 4
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
${
  o.apiVersion === 'apps/v1'
    ? ''
    : `      updateStrategy:
        type: RollingUpdate
        rollingUpdate:
          onFailure: ${o.onFailure ?? 'Halt'}
          steps:
            - replicas: 1
              ${gate}
            - replicas: 100%
`
}steps:
  - waitFor: Converged
${o.steps}`;
}

const run = (text: string): Promise<RunResult> => runScenario(parseScenario(text, 'test.yaml'));
const of = <T extends { type: string }>(r: RunResult, type: T['type']): T[] => r.records.filter((x) => x.type === type) as unknown as T[];
const expects = (r: RunResult): ExpectRecord[] => of<ExpectRecord>(r, 'expect');
const analyses = (r: RunResult): AnalysisRecord[] => of<AnalysisRecord>(r, 'analysis');
const events = (r: RunResult, reason: string): EventRecord[] => of<EventRecord>(r, 'event').filter((e) => e.reason === reason);
const failures = (r: RunResult): FailureRecord[] => of<FailureRecord>(r, 'failure');

function assertHeld(r: RunResult): void {
  assert.deepEqual(failures(r), []);
  for (const e of expects(r)) assert.ok(e.ok, e.message);
  assert.equal(r.exitCode, 0);
  assert.deepEqual(r.summary.violations, []);
}

const ROLL = '  - setImage: {name: web, container: app, image: "app:v2"}\n';

describe('simulated HTTP analysis', () => {
  it('passes: two checks 10 s apart, each result syncs the set at once, and the next step runs', async () => {
    const r = await run(
      scenario({
        endpoints: `{"${URL}": 200}`,
        steps: `${ROLL}  - waitFor: Converged
  - expect:
      status: {web: {currentStepIndex: 2, currentStepState: Completed, updatedReplicas: 4, stepRevision: web-54b5d45b5}}
`,
      }),
    );
    assertHeld(r);
    const checks = analyses(r);
    assert.deepEqual(checks.map((c) => [c.t, c.step, c.ok, c.message, c.revision]), [
      [11, 0, true, 'HTTP 200', 'web-54b5d45b5'],
      [21, 0, true, 'HTTP 200', 'web-54b5d45b5'],
    ]);
    // the second result completes the step at its own instant (not at the planner's fallback wake-up)
    const completed = events(r, 'RolloutStepCompleted');
    assert.equal(completed[0]?.t, 21);
    assert.match(completed[0]?.message ?? '', /step 1\/2 passed its analysis \(2 of 2 checks of http:\/\/canary\.test\/healthz\)/);
    assert.equal(r.summary.metrics['ordinal_analysis_checks_total{result="success",statefulset_name="web",statefulset_namespace="default"}'], 2);
  });

  it('fails under onFailure Halt: the step is Failed, Progressing False AnalysisFailed, and the rollout stays at the canary', async () => {
    const r = await run(
      scenario({
        endpoints: `{"${URL}": 503}`,
        steps: `${ROLL}  - advance: 60
  - expect:
      status: {web: {currentStepIndex: 0, currentStepState: Failed, updatedReplicas: 1, stepAnalysis: {successful: 0, failed: 1, message: "HTTP 503, expected 200"}, conditions: [{type: Progressing, status: "False", reason: AnalysisFailed}]}}
      event: {reason: AnalysisFailed, type: Warning}
`,
      }),
    );
    assertHeld(r);
    assert.deepEqual(analyses(r).map((c) => [c.t, c.ok, c.message]), [[11, false, 'HTTP 503, expected 200']]);
    assert.equal(r.summary.metrics['ordinal_analysis_checks_total{result="failure",statefulset_name="web",statefulset_namespace="default"}'], 1);
  });

  it('fails under onFailure Rollback: the canary goes back to the old revision', async () => {
    const r = await run(
      scenario({
        endpoints: `{"${URL}": 500}`,
        onFailure: 'Rollback',
        steps: `${ROLL}  - waitFor: {statefulset: web, condition: RolloutAborted}
  - waitFor: Converged
  - expect:
      status: {web: {abortedRevision: web-54b5d45b5, currentRevision: web-6986cb69d8, currentReplicas: 4, readyReplicas: 4}}
      pods: {web-3: {revision: web-6986cb69d8}, web-0: {revision: web-6986cb69d8}}
`,
      }),
    );
    assertHeld(r);
    const web3 = of<PodRecord>(r, 'pod').filter((p) => p.name === 'web-3' && p.event === 'Created').map((p) => p.revision);
    assert.deepEqual(web3, ['web-6986cb69d8', 'web-54b5d45b5', 'web-6986cb69d8'], 'web-3 went to the canary revision and back');
  });

  it('answers a URL not listed as a refused connection, and an endpoint step changes the answer from then on', async () => {
    const r = await run(
      scenario({
        gate: `analysis: {http: {url: "${URL}", interval: 10s, count: 3, failureLimit: 1}}`,
        steps: `${ROLL}  - advance: 5
  - endpoint: {url: "${URL}", status: 200}
  - waitFor: Converged
`,
      }),
    );
    assertHeld(r);
    assert.deepEqual(analyses(r).map((c) => [c.t, c.ok, c.message]), [
      [11, false, 'connect ECONNREFUSED canary.test:80'],
      [21, true, 'HTTP 200'],
      [31, true, 'HTTP 200'],
    ]);
  });

  it('makes checks of one step at most a second apart, whatever the interval (status times have whole seconds)', async () => {
    const r = await run(
      scenario({
        endpoints: `{"${URL}": 200}`,
        gate: `analysis: {http: {url: "${URL}", interval: 500ms, count: 3}}`,
        steps: `${ROLL}  - waitFor: Converged
`,
      }),
    );
    assertHeld(r);
    assert.deepEqual(analyses(r).map((c) => c.t), [11, 12, 13]);
    assert.equal(events(r, 'RolloutStepCompleted')[0]?.t, 13);
  });

  it('prints each check in the text timeline', async () => {
    const text = scenario({ endpoints: `{"${URL}": 503}`, steps: `${ROLL}  - advance: 30\n` });
    const parsed = parseScenario(text);
    const timeline = new TextTimeline(parsed);
    const r = await runScenario(parsed);
    const lines = r.records.filter((x) => x.type === 'analysis').map((x) => timeline.format(x));
    assert.deepEqual(lines, ['    11.000s  analysis  default/web step 1: GET http://canary.test/healthz -> HTTP 503, expected 200 (failed)']);
  });
});

describe('rollout signals as scenario steps', () => {
  it('promote passes a pause step; promote full passes every remaining step', async () => {
    const r = await run(
      scenario({
        gate: 'pause: {}',
        steps: `${ROLL}  - advance: 30
  - expect:
      status: {web: {currentStepIndex: 0, currentStepState: Paused, updatedReplicas: 1, conditions: [{type: Progressing, status: "True", reason: RolloutPaused}]}}
  - promote: web
  - waitFor: Converged
  - expect:
      status: {web: {currentStepState: Completed, updatedReplicas: 4}}
  - setImage: {name: web, container: app, image: "app:v3"}
  - advance: 30
  - promote: {name: web, full: true}
  - waitFor: Converged
  - expect:
      status: {web: {currentStepState: Completed, updatedReplicas: 4}}
      event: {reason: RolloutPromoted}
`,
      }),
    );
    assertHeld(r);
  });

  it('pause holds the rollout (spec paused) and resume lets it go on', async () => {
    const r = await run(
      scenario({
        gate: 'pause: {duration: 5s}',
        steps: `  - pause: web
${ROLL}  - advance: 60
  - expect:
      status: {web: {updatedReplicas: 0, pauseConditions: [{reason: UserPause}], conditions: [{type: Progressing, reason: RolloutPaused}]}}
  - resume: {name: web, namespace: default}
  - waitFor: Converged
  - expect:
      status: {web: {currentStepState: Completed, updatedReplicas: 4}}
`,
      }),
    );
    assertHeld(r);
  });

  it('abort fails the rollout at its step; retry runs the step again', async () => {
    const r = await run(
      scenario({
        gate: 'pause: {}',
        steps: `${ROLL}  - advance: 30
  - abort: web
  - advance: 5
  - expect:
      status: {web: {currentStepIndex: 0, currentStepState: Failed, conditions: [{type: Progressing, status: "False", reason: RolloutAborted}]}}
  - retry: web
  - advance: 5
  - expect:
      status: {web: {currentStepIndex: 0, currentStepState: Paused}}
  - promote: web
  - waitFor: Converged
`,
      }),
    );
    assertHeld(r);
  });

  it('abort of a rollout without steps under Halt holds it where it is (RolloutAborted, once); retry lets it go on', async () => {
    const text = scenario({ steps: '' }).replace(/ {10}steps:\n {12}- replicas: 1\n.*\n {12}- replicas: 100%\n/, '');
    const r = await run(`${text}  - setImage: {name: web, container: app, image: "app:v2"}
  - advance: 3
  - abort: web
  - advance: 30
  - expect:
      status: {web: {updatedReplicas: 2, conditions: [{type: Progressing, status: "False", reason: RolloutAborted}]}}
  - retry: web
  - waitFor: Converged
`);
    assertHeld(r);
    const aborted = of<EventRecord>(r, 'event').filter((e) => e.reason === 'RolloutAborted');
    assert.equal(aborted.length, 1);
    assert.match(aborted[0]?.message ?? '', /aborted by the user/);
  });

  it('a signal that cannot apply ends the run with a failure naming the step', async () => {
    const promote = await run(scenario({ gate: 'pause: {}', steps: '  - promote: web\n' }));
    assert.equal(promote.exitCode, 1);
    assert.deepEqual(
      failures(promote).map((f) => [f.index, f.message]),
      [[1, 'promote: StatefulSet default/web has no step to promote (its status names no step of a staged rollout under way)']],
    );
    const retry = await run(scenario({ gate: 'pause: {}', steps: '  - retry: web\n' }));
    assert.deepEqual(failures(retry).map((f) => [f.index, f.message]), [[1, 'retry: StatefulSet default/web has no failed or aborted rollout to retry']]);
    const abort = await run(scenario({ gate: 'pause: {}', steps: '  - abort: web\n' }));
    assert.match(failures(abort)[0]?.message ?? '', /^abort: StatefulSet default\/web has no rollout to abort/);
  });
});

describe('scenario keys of staged rollouts', () => {
  it('checks analysisEndpoints and endpoint steps field by field', () => {
    const text = scenario({
      endpoints: `{"ftp://x": 200, "${URL}": 99, "http://ok.test/": 204}`,
      steps: `  - endpoint: {url: "${URL}", status: 600}
  - endpoint: {url: "${URL}"}
  - endpoint: {url: "${URL}", status: 200, method: GET}
`,
    });
    assert.deepEqual(issuesOf(text), [
      'cluster.analysisEndpoints["ftp://x"]: must be an http:// or https:// URL, got "ftp://x"',
      'cluster.analysisEndpoints["http://canary.test/healthz"]: must be >= 100, got 99',
      'steps[1].endpoint.status: must be <= 599, got 600',
      'steps[2].endpoint.status: required (a status code, or null: connection refused)',
      'steps[3].endpoint.method: unknown field (allowed: url, status)',
    ]);
    const ok = parseScenario(scenario({ endpoints: `{"${URL}": 200}`, steps: `  - endpoint: {url: "${URL}", status: null}\n` }));
    assert.deepEqual(ok.cluster.analysisEndpoints, { [URL]: 200 });
    assert.deepEqual(ok.steps[1], { raw: { endpoint: { url: URL, status: null } }, kind: 'endpoint', url: URL, status: null });
  });

  it('checks the signal steps: their fields, a known set, and an apps.ordinal.dev/v1 one', () => {
    assert.deepEqual(issuesOf(scenario({ steps: '  - promote: {name: web, full: yes}\n  - abort: {name: web, full: true}\n  - pause: db\n' })), [
      'steps[1].promote.full: must be true or false, got string "yes"',
      'steps[2].abort.full: unknown field (allowed: name, namespace)',
      'steps[3].pause.name: no StatefulSet default/db among the objects or earlier apply steps (or give apiVersion)',
    ]);
    assert.deepEqual(issuesOf(scenario({ apiVersion: 'apps/v1', steps: '  - resume: web\n' })), [
      'steps[1].resume.name: StatefulSet default/web is apps/v1: resume is a signal to a staged rollout of an apps.ordinal.dev/v1 StatefulSet',
    ]);
  });
});
