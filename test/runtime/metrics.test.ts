import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import type { PlanMetrics } from '../../src/controller/plan-types.js';
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
    assert.equal((await sample(a, 'statefulset_controller_statefulset_max_unavailable'))?.length, 1);
    assert.equal((await sample(b, 'statefulset_controller_statefulset_max_unavailable'))?.length, 0);
  });

  it('sets the gauges under kube-controller-manager\'s names and labels: statefulset_namespace, statefulset_name, pod_management_policy', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web', 'Parallel'), pm({ maxUnavailable: 2, unavailableReplicas: 1 }));
    const text = await m.registry.metrics();
    assert.match(text, /^statefulset_controller_statefulset_max_unavailable\{statefulset_namespace="ns",statefulset_name="web",pod_management_policy="Parallel"\} 2$/m);
    assert.match(text, /^statefulset_controller_statefulset_unavailable_replicas\{statefulset_namespace="ns",statefulset_name="web",pod_management_policy="Parallel"\} 1$/m);
  });

  it('leaves statefulset_controller_statefulset_unavailable_replicas alone when the rolling-update path did not run', async () => {
    const m = createControllerMetrics();
    m.recordPlanMetrics(set('web'), pm({ unavailableReplicas: 2 }));
    m.recordPlanMetrics(set('web'), pm());
    assert.equal((await sample(m, 'statefulset_controller_statefulset_unavailable_replicas'))?.[0]?.value, 2);
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
    assert.doesNotMatch(text, /statefulset_name="web"/);
    assert.match(text, /statefulset_controller_statefulset_max_unavailable\{statefulset_namespace="ns",statefulset_name="db"/);
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
    assert.match(text, /ordinal_analysis_checks_total\{statefulset_namespace="ns",statefulset_name="web",result="success"\} 2/);
    assert.match(text, /ordinal_analysis_checks_total\{statefulset_namespace="ns",statefulset_name="web",result="failure"\} 1/);
    m.forgetSet('ns', 'web');
    assert.deepEqual((await sample(m, 'ordinal_analysis_checks_total'))?.map((s) => [s.labels.statefulset_name, s.labels.result, s.value]), [['db', 'failure', 1]]);
  });

  it('exports each planned condition once, replaces it when its status or reason changes, and forgets it with the set', async () => {
    const m = createControllerMetrics();
    const progressing = (status: 'True' | 'False', reason: string) => ({ type: 'Progressing', status, reason });
    const available = { type: 'Available', status: 'True' as const, reason: 'MinimumReplicasAvailable' };
    m.recordConditions(set('web'), [progressing('True', 'RollingUpdateInProgress'), available]);
    m.recordConditions(set('web'), [progressing('False', 'ProgressDeadlineExceeded'), available]);
    m.recordConditions(set('db'), [available]);
    const series = async () =>
      ((await sample(m, 'statefulset_status_condition')) ?? []).map((s) => `${s.labels.statefulset_name} ${s.labels.condition}=${s.labels.status} ${s.labels.reason} ${s.value}`).sort();
    assert.deepEqual(await series(), ['db Available=True MinimumReplicasAvailable 1', 'web Available=True MinimumReplicasAvailable 1', 'web Progressing=False ProgressDeadlineExceeded 1']);
    m.recordConditions(set('web'), [available]);
    assert.deepEqual(await series(), ['db Available=True MinimumReplicasAvailable 1', 'web Available=True MinimumReplicasAvailable 1']);
    m.forgetSet('ns', 'web');
    assert.deepEqual(await series(), ['db Available=True MinimumReplicasAvailable 1']);
  });

  it('exports leader_election_master_status per Lease, as client-go does', async () => {
    const m = createControllerMetrics();
    m.leaderStatus('ordinal-controller', false);
    assert.match(await m.registry.metrics(), /^leader_election_master_status\{name="ordinal-controller"\} 0$/m);
    m.leaderStatus('ordinal-controller', true);
    assert.match(await m.registry.metrics(), /^leader_election_master_status\{name="ordinal-controller"\} 1$/m);
  });

  it("counts syncs skipped for a stale cache by group and resource, as kube-controller-manager's statefulset_controller_stale_sync_skips_total", async () => {
    const m = createControllerMetrics();
    m.staleSyncSkipped({ group: '', plural: 'pods' });
    m.staleSyncSkipped({ group: '', plural: 'pods' });
    m.staleSyncSkipped({ group: 'apps', plural: 'controllerrevisions' });
    const text = await m.registry.metrics();
    assert.match(text, /^statefulset_controller_stale_sync_skips_total\{group="",resource="pods"\} 2$/m);
    assert.match(text, /^statefulset_controller_stale_sync_skips_total\{group="apps",resource="controllerrevisions"\} 1$/m);
  });

  it('exports ordinal_build_info only for a version given', async () => {
    assert.doesNotMatch(await createControllerMetrics().registry.metrics(), /^ordinal_build_info\{/m);
    assert.match(await createControllerMetrics({ version: '1.2.3' }).registry.metrics(), /^ordinal_build_info\{version="1\.2\.3",node_version="v\d+\.\d+\.\d+"\} 1$/m);
  });

  it('adds process metrics only when asked', async () => {
    assert.doesNotMatch(await createControllerMetrics().registry.metrics(), /process_cpu/);
    assert.match(await createControllerMetrics({ processMetrics: true }).registry.metrics(), /process_cpu/);
  });
});
