// Prometheus analyses in the planner (analysis-checks.ts, rollout-analysis.ts, rollout-steps.ts): a step's
// check is a probe with its placeholders filled in from the pods ({{pods}}: the updated pods in `query`, the
// old ones in `baselineQuery`), folded into stepAnalysis when its result comes back; a check with no verdict is
// what its policy says (Fail counts it, Pause holds the rollout until a verdict, Ignore only records it); the
// background analysis (rollingUpdate.analysis) checks from the first updated pod, fails a rollout without steps
// as it fails a step, holds the update under Pause, and starts again on a retry. The harness checks the plan
// invariants after every sync.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { retryPatch } from '../../src/api/rollout-signals.js';
import type { PrometheusAnalysis, RolloutAnalysis, RolloutStep, StatefulSet } from '../../src/api/types.js';
import type { AnalysisProbe, AnalysisResult, Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { newSet, SECOND, type SetOptions } from './fixtures.js';
import { Harness, runSyncs } from './harness.js';

class Analysed extends Harness {
  results: AnalysisResult[] = [];
  override observed(): ObservedState {
    return { ...super.observed(), analysisResults: this.results };
  }
  /** Answers every probe the plans asked for with `answer` (one result per key and second). */
  answer(plans: Plan[], answer: (p: AnalysisProbe) => Omit<AnalysisResult, 'key' | 'at'>): void {
    const seen = new Set(this.results.map((r) => `${r.key}@${Math.floor(r.at / 1000)}`));
    for (const p of plans.flatMap((x) => x.probes ?? [])) {
      if (seen.has(`${p.key}@${Math.floor(this.now / 1000)}`)) continue;
      seen.add(`${p.key}@${Math.floor(this.now / 1000)}`);
      this.results.push({ key: p.key, at: this.now, ...answer(p) });
    }
  }
}

const ADDRESS = 'http://prometheus.monitoring:9090';
const QUERY = 'sum(rate(errors_total{namespace="{{namespace}}",set="{{set}}",pod=~"{{pods}}",rev="{{revision}}"}[1m]))';
const BASELINE = 'sum(rate(errors_total{pod=~"{{pods}}",rev="{{ baselineRevision }}"}[1m]))';
const prom = (extra: Partial<PrometheusAnalysis> = {}): PrometheusAnalysis => ({ address: ADDRESS, query: QUERY, successCondition: 'result < 0.05', ...extra });

function analysed(steps: RolloutStep[], background?: RolloutAnalysis, opts: SetOptions = {}, replicas = 4): Analysed {
  const set = newSet(replicas, { claims: false, ...opts });
  const block = (set.spec.updateStrategy as NonNullable<StatefulSet['spec']['updateStrategy']>).rollingUpdate as { steps?: RolloutStep[]; analysis?: RolloutAnalysis };
  if (steps.length > 0) block.steps = steps;
  if (background !== undefined) block.analysis = background;
  const h = new Analysed(set, { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

const at = (h: Harness): [number | undefined, string | undefined] => [h.set.status?.currentStepIndex, h.set.status?.currentStepState];
const probesOf = (plans: Plan[]): AnalysisProbe[] => plans.flatMap((p) => p.probes ?? []);
const deletions = (plans: Plan[]): string[] => plans.flatMap((p) => p.actions.flatMap((a) => (a.kind === 'deletePod' ? [a.name] : [])));
const pauses = (h: Harness): string[] => (h.set.status?.pauseConditions ?? []).map((p) => p.reason);
const PASS = { ok: true, message: 'result 0.01: result < 0.05 is true' };
const FAIL = { ok: false, message: 'result 0.2: result < 0.05 is false' };
const NO_DATA = { ok: false, inconclusive: 'noData' as const, message: 'query returned no series' };

describe('prometheus: a step analysis', () => {
  it('asks for the query with its placeholders filled in: {{pods}} the updated pods, in the baseline query the old ones', () => {
    const h = analysed([{ replicas: 2, analysis: { prometheus: prom({ baselineQuery: BASELINE, successCondition: 'result <= baseline * 1.5' }) } }, { replicas: '100%' }]);
    const current = h.set.status?.currentRevision ?? '';
    h.setImage('app:v2');
    const probes = probesOf(runSyncs(h, 10));
    const update = h.set.status?.updateRevision ?? '';
    assert.deepEqual(probes[0], {
      key: `${update}/0/`,
      revision: update,
      step: 0,
      timeoutMs: 5000,
      kind: 'prometheus',
      address: ADDRESS,
      query: `sum(rate(errors_total{namespace="default",set="web",pod=~"web-2|web-3",rev="${update}"}[1m]))`,
      baselineQuery: `sum(rate(errors_total{pod=~"web-0|web-1",rev="${current}"}[1m]))`,
      successCondition: 'result <= baseline * 1.5',
    });
  });

  it('is a step whose gate is prometheus (an HTTP analysis\'s is http)', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom() } }, { replicas: '100%', analysis: { http: { url: 'http://web.default/healthz' } } }]);
    h.setImage('app:v2');
    const gates = runSyncs(h, 6).flatMap((p) => p.blockers.flatMap((b) => (b.kind === 'rolloutStep' ? [[b.state, b.gate, 'check' in b]] : [])));
    assert.deepEqual(gates.at(-1), ['Analyzing', 'prometheus', false]);
    assert.ok(gates.some(([state, gate]) => state === 'Updating' && gate === 'prometheus'));
  });

  it('passes after count checks that met the condition', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom({ count: 2, interval: '10s' }) } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    let plans = runSyncs(h, 6);
    h.answer(plans, () => PASS);
    runSyncs(h, 1);
    assert.deepEqual([at(h), h.set.status?.stepAnalysis?.successful], [[0, 'Analyzing'], 1]);
    h.advance(10 * SECOND);
    plans = runSyncs(h, 1);
    h.answer(plans, () => PASS);
    runSyncs(h, 20);
    assert.deepEqual(at(h), [1, 'Paused']);
  });

  it('fails the rollout at the check past failureLimit, and onFailure: Rollback takes the canary back', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom({ count: 3, interval: '10s', failureLimit: 0 }) } }, { replicas: '100%' }], undefined, { onFailure: 'Rollback' });
    h.setImage('app:v2');
    h.answer(runSyncs(h, 6), () => FAIL);
    const plans = runSyncs(h, 8);
    assert.equal(h.set.status?.currentStepState, 'Failed');
    assert.equal(h.set.status?.abortedRevision, h.set.status?.updateRevision);
    assert.ok(plans.some((p) => p.events.some((e) => e.reason === 'AnalysisFailed' && e.message.includes('1 of 1 checks of the Prometheus query failed (failureLimit 0): result 0.2'))));
    assert.deepEqual(deletions(plans), ['web-3'], 'the canary goes back');
    assert.equal(h.revisionOf('web-3'), h.set.status?.currentRevision);
  });

  it('noDataPolicy Fail: no data is a failed check', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom({ noDataPolicy: 'Fail' }) } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 6), () => NO_DATA);
    runSyncs(h, 1);
    assert.deepEqual(at(h), [0, 'Failed']);
    assert.equal(h.set.status?.stepAnalysis?.failed, 1);
  });

  it('noDataPolicy Pause (the default): no data holds the step (AnalysisInconclusive) and checks go on; a verdict lifts it', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom({ interval: '10s' }) } }, { replicas: '100%', pause: {} }]);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 6), () => NO_DATA);
    runSyncs(h, 2);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    assert.deepEqual([h.set.status?.stepAnalysis?.inconclusive, h.set.status?.stepAnalysis?.paused, h.set.status?.stepAnalysis?.failed], [1, true, 0]);
    assert.deepEqual(pauses(h), ['AnalysisInconclusive']);
    h.advance(10 * SECOND);
    const plans = runSyncs(h, 1);
    assert.equal(probesOf(plans).length, 1, 'the next check is made at the interval');
    h.answer(plans, () => PASS);
    runSyncs(h, 20);
    assert.deepEqual(at(h), [1, 'Paused']);
    assert.equal(h.set.status?.stepAnalysis, undefined);
  });

  it('errorPolicy Ignore: an error is recorded but neither fails nor holds', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom({ errorPolicy: 'Ignore' }) } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 6), () => ({ ok: false, inconclusive: 'error', message: 'query: connect ECONNREFUSED 10.0.0.9:9090' }));
    runSyncs(h, 1);
    assert.deepEqual(at(h), [0, 'Analyzing']);
    assert.deepEqual([h.set.status?.stepAnalysis?.inconclusive, h.set.status?.stepAnalysis?.paused, h.set.status?.stepAnalysis?.message], [1, undefined, 'query: connect ECONNREFUSED 10.0.0.9:9090']);
    assert.deepEqual(pauses(h), ['AnalysisRunning']);
  });

  it('a query whose {{pods}} matches no pod is known to have no data without asking', () => {
    const h = analysed([{ replicas: 0, analysis: { prometheus: prom() } }, { replicas: '100%' }]);
    h.setImage('app:v2');
    const probe = probesOf(runSyncs(h, 3))[0];
    assert.equal(probe?.kind, 'prometheus');
    assert.deepEqual(probe?.kind === 'prometheus' ? probe.known : undefined, { inconclusive: 'noData', message: `no pod is on revision ${h.set.status?.updateRevision ?? ''}, so {{pods}} matches nothing` });
  });
});

describe('prometheus: the rollout analysis (rollingUpdate.analysis)', () => {
  const background: RolloutAnalysis = { prometheus: prom({ interval: '20s', failureLimit: 1 }) };

  it('checks from the first updated pod that is Ready, every interval, keyed apart from the steps', () => {
    const h = analysed([], background);
    h.setImage('app:v2');
    const first = runSyncs(h, 1);
    assert.deepEqual(probesOf(first), [], 'no updated pod yet');
    const plans = runSyncs(h, 4);
    const update = h.set.status?.updateRevision ?? '';
    const probes = probesOf(plans);
    assert.equal(probes[0]?.key, `${update}/rollout/`);
    assert.equal(probes[0]?.step, undefined);
    h.answer(plans, () => PASS);
    runSyncs(h, 2);
    assert.deepEqual([h.set.status?.rolloutAnalysis?.revision, h.set.status?.rolloutAnalysis?.successful], [update, 1]);
  });

  it('fails a rollout without steps past failureLimit: nothing more is updated (Halt), and a retry starts it again', () => {
    const h = analysed([], { prometheus: prom({ interval: '5s', failureLimit: 1 }) }, {}, 8);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 4), () => FAIL);
    runSyncs(h, 2);
    assert.equal(h.set.status?.rolloutAnalysis?.failed, 1, 'within failureLimit 1: the rollout goes on');
    h.advance(5 * SECOND);
    h.answer(runSyncs(h, 1), () => FAIL);
    const failed = runSyncs(h, 10);
    assert.equal(h.set.status?.rolloutAnalysis?.failed, 2);
    assert.deepEqual(deletions(failed), [], 'a failed rollout updates nothing more');
    const progressing = h.set.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason], ['False', 'AnalysisFailed']);
    assert.match(progressing?.message ?? '', /the rollout's analysis \(rollingUpdate.analysis\) failed: 2 of 2 checks of the Prometheus query failed \(failureLimit 1\)/);
    assert.ok(failed.some((p) => p.events.some((e) => e.reason === 'AnalysisFailed')));
    assert.ok(failed.every((p) => p.blockers.some((b) => b.kind === 'stepFailed')));
    const retry = (retryPatch(h.now) as { metadata: { annotations: Record<string, string | null> } }).metadata.annotations;
    const annotations = Object.fromEntries(Object.entries({ ...h.set.metadata.annotations, ...retry }).filter((e): e is [string, string] => e[1] !== null));
    h.set = { ...h.set, metadata: { ...h.set.metadata, annotations } };
    runSyncs(h, 1);
    assert.deepEqual([h.set.status?.rolloutAnalysis?.failed, h.set.status?.observedRolloutRetry !== undefined], [0, true], 'the retry starts the analysis again');
  });

  it('noDataPolicy Pause holds the update (no pod deleted) until a check gives a verdict', () => {
    const h = analysed([], { prometheus: prom({ interval: '10s' }) }, {}, 3);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 3), () => NO_DATA);
    const held = runSyncs(h, 4);
    assert.deepEqual([h.set.status?.rolloutAnalysis?.paused, deletions(held)], [true, []]);
    assert.deepEqual(pauses(h), ['AnalysisInconclusive']);
    assert.ok(held.some((p) => p.blockers.some((b) => b.kind === 'rolloutAnalysis' && b.paused)));
    h.advance(10 * SECOND);
    h.answer(runSyncs(h, 1), () => PASS);
    const resumed = runSyncs(h, 6);
    assert.ok(deletions(resumed).length > 0, 'a verdict lifts the hold');
  });

  it('fails a rollout without steps under onFailure: Rollback: the abort says its analysis failed, not a step', () => {
    const h = analysed([], { prometheus: prom({ failureLimit: 0 }) }, { onFailure: 'Rollback' }, 4);
    h.setImage('app:v2');
    h.answer(runSyncs(h, 4), () => FAIL);
    const plans = runSyncs(h, 4);
    const aborted = plans.flatMap((p) => p.events).find((e) => e.reason === 'RolloutAborted');
    assert.match(aborted?.message ?? '', /aborted: its analysis failed: the rollout's analysis \(rollingUpdate.analysis\) failed: 1 of 1 checks/);
    assert.doesNotMatch(aborted?.message ?? '', /step 1/);
  });

  it('holding on no data (AnalysisInconclusive) is a pause: the progress deadline does not run out', () => {
    const h = analysed([], { prometheus: prom({ interval: '10s' }) }, { progressDeadlineSeconds: 60 }, 3);
    h.setImage('app:v2');
    for (let i = 0; i < 12; i++) {
      h.answer(runSyncs(h, 3), () => NO_DATA);
      h.advance(10 * SECOND);
    }
    runSyncs(h, 2);
    assert.deepEqual(pauses(h), ['AnalysisInconclusive']);
    const progressing = h.set.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason], ['True', 'RolloutPaused']);
    assert.match(progressing?.message ?? '', /paused: its analysis gave no verdict, checks go on/);
  });

  it('is checked alongside a step analysis: the plan asks for both, the step\'s first', () => {
    const h = analysed([{ replicas: 1, analysis: { prometheus: prom() } }, { replicas: '100%' }], { prometheus: prom({ query: 'up{pod=~"{{pods}}"}', successCondition: 'result > 0' }) });
    h.setImage('app:v2');
    const update = () => h.set.status?.updateRevision ?? '';
    const both = runSyncs(h, 6).find((p) => (p.probes ?? []).length > 1);
    assert.deepEqual(both?.probes?.map((p) => p.key), [`${update()}/0/`, `${update()}/rollout/`]);
  });

  it('fails the step the rollout is at when it fails during a staged rollout', () => {
    const h = analysed([{ replicas: 1, pause: {} }, { replicas: '100%' }], { prometheus: prom({ failureLimit: 0 }) });
    h.setImage('app:v2');
    h.answer(runSyncs(h, 5), () => FAIL);
    const plans = runSyncs(h, 2);
    assert.deepEqual(at(h), [0, 'Failed']);
    const events = plans.flatMap((p) => p.events).filter((e) => e.reason === 'AnalysisFailed');
    assert.equal(events.length, 1, 'announced once');
    assert.match(events[0]?.message ?? '', /failed at step 1\/2: the rollout's analysis \(rollingUpdate.analysis\) failed/);
  });
});
