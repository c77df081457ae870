// The observability package's alert rules, as a Prometheus rule group: deploy/observability/alerts.yaml (a
// rules file) and the PrometheusRule of `ordinal manifests --observability` and the Helm chart. Each alert
// links its runbook (docs/runbooks.md, one section per alert named after it); test/deploy/alerts.test.ts runs
// `promtool test rules` on series recorded from the simulator.
//
// The rollout alerts read statefulset_status_condition, which only Ordinal exports. Metrics kube-controller-manager
// exports too (workqueue_*, leader_election_master_status) are kept to Ordinal's scrape by joining on
// ordinal_build_info, so the rules need no job name however Prometheus scrapes the controller.

/** Keeps the series of Ordinal's own scrape targets (every one serves ordinal_build_info). */
const ORDINAL_TARGETS = 'and on (job, instance) ordinal_build_info';

const progressing = (reasons: string): string => `statefulset_status_condition{condition="Progressing",status="False",reason=~"${reasons}"} == 1`;
const SET = '{{ $labels.statefulset_namespace }}/{{ $labels.statefulset_name }}';

export type Severity = 'critical' | 'warning' | 'info';

export interface AlertRule {
  alert: string;
  expr: string;
  /** How long the condition must hold (Prometheus duration; `0m`: at once). */
  for: string;
  severity: Severity;
  summary: string;
  description: string;
}

export const ALERTS: readonly AlertRule[] = [
  {
    alert: 'OrdinalRolloutStuck',
    expr: progressing('ProgressDeadlineExceeded'),
    for: '5m',
    severity: 'warning',
    summary: 'A StatefulSet rollout has made no progress for progressDeadlineSeconds',
    description: `StatefulSet ${SET} is Progressing=False, reason ProgressDeadlineExceeded: no pod became available within its progress deadline. No pod is deleted because of it; the rollout waits.`,
  },
  {
    alert: 'OrdinalRolloutAborted',
    expr: progressing('RolloutAborted|AnalysisFailed'),
    for: '0m',
    severity: 'warning',
    summary: 'A StatefulSet rollout failed and was aborted',
    description: `StatefulSet ${SET} is Progressing=False, reason {{ $labels.reason }}: the rollout failed (onFailure: Rollback takes the pods back; Halt keeps them at the failed step) until it is retried or the template changes.`,
  },
  {
    alert: 'OrdinalRolloutSlowerThanForecast',
    expr: progressing('SlowerThanForecast'),
    for: '0m',
    severity: 'info',
    summary: "A StatefulSet rollout is slower than its own pods' recorded durations",
    description: `StatefulSet ${SET} is Progressing=False, reason SlowerThanForecast: a pod took longer than the p95 band of the set's recorded start or termination times. A warning: the rollout goes on.`,
  },
  {
    alert: 'OrdinalSafetyHalt',
    expr: progressing('SafetyHalt'),
    for: '0m',
    severity: 'critical',
    summary: 'An EnforcedRollingUpdate halted: its newest pod failed',
    description: `StatefulSet ${SET} halted (Progressing=False, reason SafetyHalt): the highest-ordinal pod of the new revision failed to become available. No lower ordinal is touched until the template changes.`,
  },
  {
    alert: 'OrdinalReconcileErrors',
    expr: 'sum by (job, instance) (rate(ordinal_reconcile_total{result="error"}[5m])) / sum by (job, instance) (rate(ordinal_reconcile_total[5m])) > 0.1',
    for: '15m',
    severity: 'warning',
    summary: 'More than 10% of StatefulSet syncs fail',
    description: '{{ $value | humanizePercentage }} of the syncs of {{ $labels.instance }} ended in an error for 15 minutes (API errors, conflicts, refused writes); each is retried with backoff.',
  },
  {
    alert: 'OrdinalInternalError',
    expr: 'increase(ordinal_reconcile_panics_total[10m]) > 0',
    for: '0m',
    severity: 'critical',
    summary: 'Ordinal hit an internal error (a bug) while syncing a StatefulSet',
    description: 'Syncs of {{ $labels.instance }} ended in an internal error in the last 10 minutes: nothing was touched for those sets, the log has the stack, and the syncs are retried with backoff.',
  },
  {
    alert: 'OrdinalLeaderChanges',
    // each process that held the Lease within the hour, dead ones included (a range keeps their samples)
    expr: 'count by (job, name) (max_over_time(leader_election_master_status[1h]) == 1 and on (job, instance) max_over_time(ordinal_build_info[1h])) > 2',
    for: '0m',
    severity: 'warning',
    summary: "Ordinal's Lease changes hands often",
    description: '{{ $value }} processes of {{ $labels.job }} held the Lease {{ $labels.name }} in the last hour: replicas restarting, renewals failing or a partition.',
  },
  {
    alert: 'OrdinalNoLeader',
    expr: `max by (job, name) (leader_election_master_status ${ORDINAL_TARGETS}) == 0`,
    for: '5m',
    severity: 'critical',
    summary: "No Ordinal replica holds the Lease: no StatefulSet is reconciled",
    description: 'Every replica of {{ $labels.job }} has been waiting for the Lease {{ $labels.name }} for 5 minutes.',
  },
  {
    alert: 'OrdinalWorkQueueDepth',
    expr: `(workqueue_depth{name="statefulset"} ${ORDINAL_TARGETS}) > 100`,
    for: '15m',
    severity: 'warning',
    summary: "Ordinal's StatefulSet queue is not draining",
    description: '{{ $value }} StatefulSets have been waiting in the queue of {{ $labels.instance }} for 15 minutes: the controller is behind (client rate limits, slow API server, too few --concurrent-syncs).',
  },
];

/** The runbook section of an alert: the heading of docs/runbooks.md named after it, as its link anchor. */
export const runbookAnchor = (alert: string): string => alert.toLowerCase();

/** Where the alerts link their runbooks by default: the path of the runbooks in Ordinal's repository. */
export const DEFAULT_RUNBOOK_URL = 'docs/runbooks.md';

/** The rule group, as a Prometheus rules file and a PrometheusRule's spec hold it. */
export function alertRuleGroup(runbookUrl: string = DEFAULT_RUNBOOK_URL): Record<string, unknown> {
  return {
    name: 'ordinal',
    rules: ALERTS.map((a) => ({
      alert: a.alert,
      expr: a.expr,
      ...(a.for !== '0m' ? { for: a.for } : {}),
      labels: { severity: a.severity },
      annotations: { summary: a.summary, description: a.description, runbook_url: `${runbookUrl}#${runbookAnchor(a.alert)}` },
    })),
  };
}
