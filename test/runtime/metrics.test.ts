import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import type { PlanMetrics } from '../../src/controller/model/plan-types.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

const set = (name: string, policy?: string, strategy?: string): StatefulSet => ({
  metadata: { name, namespace: 'ns' },
  spec: {
    template: { spec: { containers: [] } },
    ...(policy ? { podManagementPolicy: policy } : {}),
    ...(strategy ? { updateStrategy: { type: strategy } } : {}),
  },
});

const pm = (over: Partial<PlanMetrics> = {}): PlanMetrics => ({
  maxUnavailable: 1,
  unavailabilityViolation: false,
  forcedReplacements: 0,
  safetyHalt: false,
  enforcedRollingUpdateStarted: false,
  ...over,
});

async function sample(m: ReturnType<typeof createControllerMetrics>, name: string, labels: Record<string, string> = {}) {
  const metric = (await m.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const match = metric?.values.filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return match?.map((v) => ({ value: v.value, labels: v.labels, metricName: (v as { metricName?: string }).metricName }));
}

describe('controller metrics', () => {
  it('uses its own registry, so two controllers do not share series', async () => {
    const a = createControllerMetrics();
    const b = createControllerMetrics();
    a.recordPlanMetrics(set('web'), pm({ maxUnavailable: 3 }));
    assert.equal((await sample(a, 'statefulset_max_unavailable'))?.length, 1);
    assert.equal((await sample(b, 'statefulset_max_unavailable'))?.length, 0);
  });

  it('sets the gauges with namespace, statefulset and pod_management_policy labels', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web', 'Parallel'), pm({ maxUnavailable: 2, unavailableReplicas: 1 }));
    const text = await m.registry.metrics();
    assert.match(text, /statefulset_max_unavailable\{namespace="ns",statefulset="web",pod_management_policy="Parallel"\} 2/);
    assert.match(text, /statefulset_unavailable_replicas\{namespace="ns",statefulset="web",pod_management_policy="Parallel"\} 1/);
  });

  it('leaves statefulset_unavailable_replicas alone when the rolling-update path did not run', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web'), pm({ unavailableReplicas: 2 }));
    m.recordPlanMetrics(set('web'), pm());
    assert.equal((await sample(m, 'statefulset_unavailable_replicas'))?.[0]?.value, 2);
  });

  it('counts violations, forced replacements and enforced rollouts per sync', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web'), pm({ unavailabilityViolation: true, forcedReplacements: 2, enforcedRollingUpdateStarted: true }));
    m.recordPlanMetrics(set('web'), pm({ unavailabilityViolation: true, forcedReplacements: 1 }));
    assert.equal((await sample(m, 'statefulset_unavailability_violation_total'))?.[0]?.value, 2);
    assert.equal((await sample(m, 'statefulset_forced_pod_replacements_total'))?.[0]?.value, 3);
    assert.equal((await sample(m, 'statefulset_enforced_rolling_updates_total'))?.[0]?.value, 1);
  });

  it('counts each rollout aborted by onFailure: Rollback', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web'), pm({ rolloutAborted: true }));
    m.recordPlanMetrics(set('web'), pm());
    m.recordPlanMetrics(set('web'), pm({ rolloutAborted: true }));
    assert.equal((await sample(m, 'statefulset_rollbacks_total'))?.[0]?.value, 2);
    m.forgetSet('ns', 'web');
    assert.equal((await sample(m, 'statefulset_rollbacks_total'))?.length, 0);
  });

  it('counts a safety halt once however many syncs it lasts, and again after it clears', async () => {
    const m = createControllerMetrics();
    for (const halted of [true, true, true, false, true]) m.recordPlanMetrics(set('web'), pm({ safetyHalt: halted }));
    assert.equal((await sample(m, 'statefulset_safety_halt_total'))?.[0]?.value, 2);
  });

  it('observes completed rollouts by strategy and stuck pods', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web', undefined, 'Recreate'), pm({ updateCompletedSeconds: 90 }));
    m.observeStuckPod(set('web'), 400);
    const sums = (await sample(m, 'statefulset_update_duration_seconds', { strategy: 'Recreate' }))?.filter((v) => v.metricName?.endsWith('_sum'));
    assert.equal(sums?.[0]?.value, 90);
    const stuck = (await sample(m, 'statefulset_stuck_pod_duration_seconds'))?.filter((v) => v.metricName?.endsWith('_sum'));
    assert.equal(stuck?.[0]?.value, 400);
  });

  it('forgets every series of a deleted set and keeps the others', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web', 'OrderedReady', 'RollingUpdate'), pm({ unavailableReplicas: 1, updateCompletedSeconds: 5, safetyHalt: true }));
    m.recordPlanMetrics(set('web', 'Parallel'), pm());
    m.observeStuckPod(set('web'), 1);
    m.recordPlanMetrics(set('db'), pm());
    m.forgetSet('ns', 'web');
    const text = await m.registry.metrics();
    assert.doesNotMatch(text, /statefulset="web"/);
    assert.match(text, /statefulset_max_unavailable\{namespace="ns",statefulset="db"/);
  });

  it('counts reconciles by result and exposes work-queue metrics in the same registry', async () => {
    const m = createControllerMetrics();
    m.observeReconcile('success', 0.01);
    m.observeReconcile('error', 0.02);
    m.observeReconcile('success', 0);
    m.workQueue<string>('statefulset', createVirtualClock()).add('a');
    assert.equal((await sample(m, 'ordinal_reconcile_total', { result: 'success' }))?.[0]?.value, 2);
    assert.match(await m.registry.metrics(), /workqueue_adds_total\{name="statefulset"\} 1/);
  });

  it('counts analysis checks by result per set, and forgets them with the set', async () => {
    const m = createControllerMetrics();
    m.observeAnalysisCheck(set('web', 'Parallel'), true);
    m.observeAnalysisCheck(set('web', 'Parallel'), true);
    m.observeAnalysisCheck(set('web', 'Parallel'), false);
    m.observeAnalysisCheck(set('db'), false);
    const text = await m.registry.metrics();
    assert.match(text, /ordinal_analysis_checks_total\{namespace="ns",statefulset="web",result="success"\} 2/);
    assert.match(text, /ordinal_analysis_checks_total\{namespace="ns",statefulset="web",result="failure"\} 1/);
    m.forgetSet('ns', 'web');
    assert.deepEqual((await sample(m, 'ordinal_analysis_checks_total'))?.map((s) => [s.labels.statefulset, s.labels.result, s.value]), [['db', 'failure', 1]]);
  });

  it('adds process metrics only when asked', async () => {
    assert.doesNotMatch(await createControllerMetrics().registry.metrics(), /process_cpu/);
    assert.match(await createControllerMetrics({ processMetrics: true }).registry.metrics(), /process_cpu/);
  });
});
