// Prometheus analyses on kube-apiserver with a real Prometheus server (prometheus-server.ts): `ordinal
// controller` queries it for each check of a step's analysis.prometheus, {{pods}} naming the canary in `query`
// and the old pods in `baselineQuery`, and judges the values with the CEL successCondition. The exporter gives
// each pod an error ratio by the image it runs: a release that errs like the old one passes every step; one
// that errs more fails its step and onFailure: Rollback takes it back; one with no traffic has no data, which
// holds the step (noDataPolicy Pause, the default) until the policy says Fail. Skipped without a control plane
// or a prometheus binary, failed under CI without one.

import { after as afterAll, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { Pod, PrometheusAnalysis, RolloutStep, StatefulSet } from '../../src/api/types.js';
import { podRevision } from '../../src/controller/model/pod-state.js';
import { closeSession, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { e2eTest, twoReplicaSet, type TestEnv } from './harness.js';
import { prometheusMissing, startPrometheus, type PrometheusServer, type ScrapedPod } from './prometheus-server.js';

const KUBELET = { podStartSeconds: 1, podTerminationSeconds: 1 };
/** The error ratio each image's pods report; `app:idle` serves no traffic, so it has no series. */
const ERROR_RATIO: Record<string, number> = { 'app:1': 0.01, 'app:2': 0.012, 'app:bad': 0.3 };

const missing = prometheusMissing();
/** The namespaces of this file's tests: the exporter speaks for their Running pods. */
const namespaces = new Set<string>();
let prometheus: PrometheusServer | undefined;

async function runningPods(): Promise<ScrapedPod[]> {
  const found = controlPlaneFromEnv();
  if (!('kubeconfigPath' in found)) return [];
  const { client } = openSession(found);
  const lists = await Promise.all([...namespaces].map((ns) => client.list<Pod>(Resources.pods, ns).then((l) => l.items, () => [])));
  return lists.flat().flatMap((p) => (p.status?.phase === 'Running' ? [{ namespace: p.metadata.namespace ?? '', name: p.metadata.name ?? '', image: p.spec?.containers[0]?.image ?? '' }] : []));
}

before(async () => {
  if (missing === undefined && 'kubeconfigPath' in controlPlaneFromEnv()) {
    prometheus = await startPrometheus(runningPods, (pod): Record<string, number> => {
      const ratio = ERROR_RATIO[pod.image];
      return ratio === undefined ? {} : { app_request_error_ratio: ratio };
    });
  }
});
afterAll(async () => {
  await prometheus?.stop();
  closeSession();
});

/** The canary's error ratio against the old pods', checked every second. */
function errorRatio(extra: Partial<PrometheusAnalysis> = {}): PrometheusAnalysis {
  return {
    address: prometheus?.address ?? '',
    query: 'max(app_request_error_ratio{namespace="{{namespace}}",pod=~"{{pods}}"})',
    baselineQuery: 'avg(app_request_error_ratio{namespace="{{namespace}}",pod=~"{{pods}}"})',
    successCondition: 'result <= baseline * 1.5',
    interval: '1s',
    ...extra,
  };
}

/** Three replicas of `app:1`, started in parallel, rolled out by `steps`; the exporter speaks for its pods. */
function gatedSet(env: TestEnv, name: string, steps: RolloutStep[], onFailure?: 'Rollback'): StatefulSet {
  namespaces.add(env.ns);
  const set = twoReplicaSet(env, name);
  return { ...set, spec: { ...set.spec, replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps, ...(onFailure ? { onFailure } : {}) } } } };
}

async function revisions(env: TestEnv, name: string): Promise<string[]> {
  const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items.filter((p) => p.metadata.name?.startsWith(`${name}-`));
  return pods.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).map(podRevision);
}

const progressing = (s: StatefulSet) => s.status?.conditions?.find((c) => c.type === 'Progressing');

describe('Prometheus analyses on kube-apiserver with a real Prometheus', { skip: missing }, () => {
  e2eTest('a canary that errs like the old pods passes every step', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    const steps: RolloutStep[] = [{ replicas: 1, analysis: { prometheus: errorRatio({ count: 2 }) } }, { replicas: 2, analysis: { prometheus: errorRatio() } }, { partition: 0 }];
    await env.createConverged(gatedSet(env, 'healthy', steps));
    const old = (await env.client.get<StatefulSet>(env.res, env.ns, 'healthy')).status?.currentRevision ?? '';
    await env.setImage('healthy', 'app', 'app:2');
    const done = (s: StatefulSet): boolean =>
      s.status?.currentRevision !== old && s.status?.currentStepState === 'Completed' && s.status.updatedReplicas === 3 && s.status.currentRevision === s.status.updateRevision;
    await env.waitForSet('healthy', 'the rollout to complete', 60_000, (s) => done(s) || `step ${s.status?.currentStepIndex} ${s.status?.currentStepState}`);
    assert.deepEqual(await revisions(env, 'healthy'), Array(3).fill((await env.client.get<StatefulSet>(env.res, env.ns, 'healthy')).status?.updateRevision));
    const passed = (await env.events('healthy', 'RolloutStepCompleted')).map((e) => e.message ?? '');
    assert.ok(passed.some((m) => /step 1\/3 passed its analysis \(2 of 2 checks of the Prometheus query\)/.test(m)), passed.join('; '));
    assert.ok(passed.some((m) => /step 2\/3 passed its analysis/.test(m)), passed.join('; '));
  });

  e2eTest('a canary whose error ratio is worse than the old pods\' fails its step and is rolled back', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    await env.createConverged(gatedSet(env, 'worse', [{ replicas: 1, analysis: { prometheus: errorRatio({ count: 3 }) } }, { partition: 0 }], 'Rollback'));
    const old = (await env.client.get<StatefulSet>(env.res, env.ns, 'worse')).status?.currentRevision ?? '';
    await env.setImage('worse', 'app', 'app:bad');
    await env.waitForSet('worse', 'the rollback', 60_000, (s) => (s.status?.abortedRevision !== undefined && s.status.currentReplicas === 3 && s.status.availableReplicas === 3) || `aborted ${s.status?.abortedRevision ?? 'no'}, current ${s.status?.currentReplicas}`);
    const set = await env.client.get<StatefulSet>(env.res, env.ns, 'worse');
    assert.equal(set.status?.currentStepState, 'Failed');
    assert.equal(progressing(set)?.reason, 'RolloutAborted');
    assert.match(progressing(set)?.message ?? '', /failed its analysis: 1 of 1 checks of the Prometheus query failed \(failureLimit 0\): result 0\.3, baseline 0\.01: result <= baseline \* 1\.5 is false/);
    assert.deepEqual(await revisions(env, 'worse'), [old, old, old]);
    assert.equal((await env.events('worse', 'AnalysisFailed')).length, 1);
  });

  e2eTest('no data holds the step (noDataPolicy Pause) and fails it once the policy is Fail', { timeout: 120_000, kubelet: KUBELET }, async (env) => {
    await env.createConverged(gatedSet(env, 'idle', [{ replicas: 1, analysis: { prometheus: errorRatio() } }, { partition: 0 }]));
    await env.setImage('idle', 'app', 'app:idle');
    await env.waitForSet('idle', 'the check without data to hold the step', 45_000, (s) => (s.status?.stepAnalysis?.paused === true && s.status.pauseConditions?.some((p) => p.reason === 'AnalysisInconclusive') === true) || JSON.stringify(s.status?.stepAnalysis ?? {}));
    const held = await env.client.get<StatefulSet>(env.res, env.ns, 'idle');
    assert.equal(held.status?.stepAnalysis?.message, 'query returned no series');
    assert.equal(held.status?.stepAnalysis?.failed, 0);
    assert.equal(progressing(held)?.reason, 'RolloutPaused');
    const noData = (held.spec.updateStrategy?.rollingUpdate?.steps ?? []).map((s, i) => (i === 0 ? { ...s, analysis: { prometheus: errorRatio({ noDataPolicy: 'Fail' }) } } : s));
    await env.client.patch(env.res, env.ns, 'idle', { spec: { updateStrategy: { rollingUpdate: { steps: noData } } } });
    await env.waitForSet('idle', 'the step to fail', 45_000, (s) => s.status?.currentStepState === 'Failed' || `${s.status?.currentStepState}`);
    const failed = await env.client.get<StatefulSet>(env.res, env.ns, 'idle');
    assert.equal(progressing(failed)?.reason, 'AnalysisFailed');
    assert.match(progressing(failed)?.message ?? '', /query returned no series/);
  });
});
