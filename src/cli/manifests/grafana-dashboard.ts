// The observability package's Grafana dashboard (deploy/observability/dashboard.json, and the ConfigMap of
// `ordinal manifests --observability` and the Helm chart, which Grafana's dashboard sidecar loads). Every
// query selects Ordinal's scrape by `job` (the variable lists the jobs that serve ordinal_build_info), as
// kube-controller-manager exports some of the same names; test/deploy/dashboard.test.ts checks each query's
// metrics against a scrape of the controller.

type Json = Record<string, unknown>;

/** One query of a panel: PromQL and its legend. */
interface Query {
  expr: string;
  legend: string;
}

interface PanelSpec {
  title: string;
  description: string;
  type: 'timeseries' | 'stat' | 'table';
  queries: Query[];
  unit?: string;
  /** Grid width of 24; height 8. */
  width?: number;
}

const JOB = 'job=~"$job"';
const SET = `${JOB},statefulset_namespace=~"$namespace",statefulset_name=~"$statefulset"`;
const RATE = '$__rate_interval';
const q = (expr: string, legend = ''): Query => ({ expr, legend });
const byLe = (metric: string, selector: string, by = '') => `sum by (le${by}) (rate(${metric}_bucket{${selector}}[${RATE}]))`;
const quantile = (p: number, metric: string, selector: string, by = '') => `histogram_quantile(${p}, ${byLe(metric, selector, by)})`;
const events = (metric: string, legend: string): Query => q(`sum by (statefulset_namespace, statefulset_name) (increase(${metric}{${SET}}[${RATE}]))`, `${legend} {{statefulset_namespace}}/{{statefulset_name}}`);

const ROWS: Array<{ title: string; panels: PanelSpec[] }> = [
  {
    title: 'Rollouts',
    panels: [
      {
        title: 'Rollouts stuck, aborted or halted',
        description: 'Sets whose Progressing condition is False for a failure (ProgressDeadlineExceeded, RolloutAborted, AnalysisFailed, SafetyHalt): each has an alert and a runbook',
        type: 'stat',
        width: 6,
        queries: [q(`count(statefulset_status_condition{${SET},condition="Progressing",status="False",reason=~"ProgressDeadlineExceeded|RolloutAborted|AnalysisFailed|SafetyHalt"}) or vector(0)`)],
      },
      {
        title: 'Progressing, per set',
        description: "Each set's Progressing condition now: status and reason (RollingUpdateInProgress, RolloutPaused, RolloutCompleted, ProgressDeadlineExceeded, …)",
        type: 'table',
        width: 18,
        queries: [q(`statefulset_status_condition{${SET},condition="Progressing"}`)],
      },
      {
        title: 'Unavailable replicas against maxUnavailable',
        description: 'statefulset_controller_statefulset_unavailable_replicas (set while the rolling-update path runs) and the budget, kube-controller-manager\'s names',
        type: 'timeseries',
        queries: [
          q(`statefulset_controller_statefulset_unavailable_replicas{${SET}}`, 'unavailable {{statefulset_namespace}}/{{statefulset_name}}'),
          q(`statefulset_controller_statefulset_max_unavailable{${SET}}`, 'maxUnavailable {{statefulset_namespace}}/{{statefulset_name}}'),
        ],
      },
      {
        title: 'Rollout events',
        description: 'Rollbacks (onFailure: Rollback), safety halts, SlowerThanForecast warnings, budget violations, forced replacements and EnforcedRollingUpdate starts',
        type: 'timeseries',
        queries: [
          events('statefulset_rollbacks_total', 'rolled back'),
          events('statefulset_safety_halt_total', 'safety halt'),
          events('statefulset_slower_than_forecast_total', 'slower than forecast'),
          events('statefulset_unavailability_violation_total', 'over maxUnavailable'),
          events('statefulset_forced_pod_replacements_total', 'forced replacement'),
          events('statefulset_enforced_rolling_updates_total', 'EnforcedRollingUpdate started'),
        ],
      },
      {
        title: 'Rollout duration (p50, p90) by strategy',
        description: 'From the template change to every replica updated and available, minReadySeconds included',
        type: 'timeseries',
        unit: 's',
        queries: [
          q(quantile(0.5, 'statefulset_update_duration_seconds', SET, ', strategy'), 'p50 {{strategy}}'),
          q(quantile(0.9, 'statefulset_update_duration_seconds', SET, ', strategy'), 'p90 {{strategy}}'),
        ],
      },
      {
        title: 'Stuck pods replaced: how long they were stuck (p90)',
        description: 'EnforcedRollingUpdate: how long a pod was not Ready before it was replaced',
        type: 'timeseries',
        unit: 's',
        queries: [q(quantile(0.9, 'statefulset_stuck_pod_duration_seconds', SET), 'p90')],
      },
      {
        title: 'Staged rollouts: analysis checks',
        description: 'Checks of staged rollouts\' analyses (rollingUpdate.steps and rollingUpdate.analysis), by gate (http, prometheus) and result (success, failure, inconclusive)',
        type: 'timeseries',
        queries: [q(`sum by (statefulset_namespace, statefulset_name, gate, result) (increase(ordinal_analysis_checks_total{${SET}}[${RATE}]))`, '{{gate}} {{result}} {{statefulset_namespace}}/{{statefulset_name}}')],
      },
      {
        title: 'Evictions by result',
        description: 'Update deletions sent as evictions (respectPodDisruptionBudgets): evicted, refused (a PodDisruptionBudget answered 429; the pod waits for the next sync) or failed',
        type: 'timeseries',
        queries: [q(`sum by (result) (increase(ordinal_evictions_total{${JOB}}[${RATE}]))`, '{{result}}')],
      },
      {
        title: 'preUpdate hooks: results and how long they took (p90)',
        description: 'spec.lifecycle.preUpdate: hooks called, passed, ignored and failed; from the first call to the result',
        type: 'timeseries',
        queries: [
          q(`sum by (statefulset_namespace, statefulset_name, result) (increase(ordinal_preupdate_hooks_total{${SET}}[${RATE}]))`, '{{result}} {{statefulset_namespace}}/{{statefulset_name}}'),
          q(quantile(0.9, 'ordinal_preupdate_hook_duration_seconds', SET), 'p90 duration'),
        ],
      },
    ],
  },
  {
    title: 'Claims (volumeClaimUpdatePolicy: InPlace)',
    panels: [
      {
        title: 'Claims grown, and failures by reason',
        description: 'Claims whose capacity reached the new request; PatchRefused, ExpansionNotAllowed, ResizeError',
        type: 'timeseries',
        queries: [
          q(`sum by (statefulset_namespace, statefulset_name) (increase(statefulset_claims_resized_total{${SET}}[${RATE}]))`, 'grown {{statefulset_namespace}}/{{statefulset_name}}'),
          q(`sum by (statefulset_namespace, statefulset_name, reason) (increase(statefulset_claim_resize_failures_total{${SET}}[${RATE}]))`, '{{reason}} {{statefulset_namespace}}/{{statefulset_name}}'),
        ],
      },
      {
        title: 'Claim resize duration (p90)',
        description: "From the controller's patch of a claim to its capacity reaching the request",
        type: 'timeseries',
        unit: 's',
        queries: [q(quantile(0.9, 'statefulset_claim_resize_duration_seconds', SET), 'p90')],
      },
    ],
  },
  {
    title: 'Controller',
    panels: [
      {
        title: 'Syncs by result',
        description: 'ordinal_reconcile_total: success, error (retried with backoff), skipped; and the skips for a cache that has not seen the controller\'s own writes yet, by resource (kube-controller-manager\'s statefulset_controller_stale_sync_skips_total)',
        type: 'timeseries',
        unit: 'ops',
        queries: [
          q(`sum by (result) (rate(ordinal_reconcile_total{${JOB}}[${RATE}]))`, '{{result}}'),
          q(`sum by (resource) (rate(statefulset_controller_stale_sync_skips_total{${JOB}}[${RATE}]))`, 'stale {{resource}} cache'),
        ],
      },
      {
        title: 'Sync duration (p50, p99)',
        description: 'One StatefulSet sync: plan, writes and status',
        type: 'timeseries',
        unit: 's',
        queries: [q(quantile(0.5, 'ordinal_reconcile_duration_seconds', JOB), 'p50'), q(quantile(0.99, 'ordinal_reconcile_duration_seconds', JOB), 'p99')],
      },
      {
        title: 'Internal errors and dropped Events',
        description: 'Syncs that ended in a bug in Ordinal (OrdinalInternalError), and Events not written because 1,000 were waiting',
        type: 'timeseries',
        queries: [
          q(`sum(increase(ordinal_reconcile_panics_total{${JOB}}[${RATE}]))`, 'internal errors'),
          q(`sum by (type) (increase(ordinal_events_dropped_total{${JOB}}[${RATE}]))`, 'dropped {{type}} events'),
        ],
      },
      {
        title: 'Work queue depth and retries',
        description: 'workqueue_depth and workqueue_retries_total of the statefulset queue (client-go\'s names)',
        type: 'timeseries',
        queries: [
          q(`sum by (instance) (workqueue_depth{${JOB},name="statefulset"})`, 'depth {{instance}}'),
          q(`sum by (instance) (rate(workqueue_retries_total{${JOB},name="statefulset"}[${RATE}]))`, 'retries/s {{instance}}'),
          q(`sum by (instance) (rate(workqueue_adds_total{${JOB},name="statefulset"}[${RATE}]))`, 'adds/s {{instance}}'),
        ],
      },
      {
        title: 'Work queue latency (p99)',
        description: 'How long a set waits in the queue, and how long its processing takes',
        type: 'timeseries',
        unit: 's',
        queries: [
          q(quantile(0.99, 'workqueue_queue_duration_seconds', `${JOB},name="statefulset"`), 'queued'),
          q(quantile(0.99, 'workqueue_work_duration_seconds', `${JOB},name="statefulset"`), 'processing'),
        ],
      },
      {
        title: 'Leader',
        description: 'leader_election_master_status: 1 on the replica that holds the Lease',
        type: 'timeseries',
        queries: [q(`leader_election_master_status{${JOB}}`, '{{instance}} {{name}}')],
      },
    ],
  },
  {
    title: 'Process',
    panels: [
      { title: 'CPU', description: 'process_cpu_seconds_total', type: 'timeseries', unit: 'percentunit', queries: [q(`rate(process_cpu_seconds_total{${JOB}}[${RATE}])`, '{{instance}}')] },
      { title: 'Memory (RSS)', description: 'process_resident_memory_bytes', type: 'timeseries', unit: 'bytes', queries: [q(`process_resident_memory_bytes{${JOB}}`, '{{instance}}')] },
      { title: 'Event loop lag (p99)', description: 'nodejs_eventloop_lag_p99_seconds, sampled once a second', type: 'timeseries', unit: 's', queries: [q(`nodejs_eventloop_lag_p99_seconds{${JOB}}`, '{{instance}}')] },
      {
        title: 'Version',
        description: 'ordinal_build_info',
        type: 'table',
        queries: [q(`ordinal_build_info{${JOB}}`)],
      },
    ],
  },
];

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

function panelJson(p: PanelSpec, id: number, x: number, y: number): Json {
  const instant = p.type !== 'timeseries';
  return {
    id,
    type: p.type,
    title: p.title,
    description: p.description,
    datasource: DATASOURCE,
    gridPos: { h: 8, w: p.width ?? 12, x, y },
    fieldConfig: { defaults: p.unit ? { unit: p.unit } : {}, overrides: [] },
    options: p.type === 'table' ? { showHeader: true } : {},
    targets: p.queries.map((query, i) => ({
      refId: String.fromCharCode(65 + i),
      datasource: DATASOURCE,
      expr: query.expr,
      legendFormat: query.legend,
      ...(instant ? { instant: true, range: false, format: p.type === 'table' ? 'table' : 'time_series' } : { range: true }),
    })),
  };
}

/** The panels laid out row by row, 24 grid units wide. */
function panels(): Json[] {
  const out: Json[] = [];
  let id = 1;
  let y = 0;
  for (const row of ROWS) {
    out.push({ id: id++, type: 'row', title: row.title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
    let x = 0;
    for (const p of row.panels) {
      const w = p.width ?? 12;
      if (x + w > 24) {
        x = 0;
        y += 8;
      }
      out.push(panelJson(p, id++, x, y));
      x += w;
    }
    y += 8;
  }
  return out;
}

function variable(name: string, label: string, query: string, all: boolean): Json {
  return {
    name,
    label,
    type: 'query',
    datasource: DATASOURCE,
    query: { query, refId: `${name}-variable` },
    definition: query,
    refresh: 2,
    sort: 1,
    multi: all,
    includeAll: all,
    ...(all ? { allValue: '.*', current: { text: 'All', value: '$__all' } } : {}),
  };
}

/** The dashboard JSON (Grafana's schema 39), `uid` ordinal-controller. */
export function grafanaDashboard(version: string): Json {
  return {
    uid: 'ordinal-controller',
    title: 'Ordinal: StatefulSet rollouts and controller',
    description: `Ordinal ${version}: rollouts (conditions, budget, events, durations), claims, the controller (syncs, queue, leader) and its process. Alerts link to docs/runbooks.md.`,
    tags: ['ordinal', 'statefulset', 'kubernetes'],
    editable: true,
    schemaVersion: 39,
    version: 1,
    time: { from: 'now-6h', to: 'now' },
    refresh: '30s',
    timezone: '',
    templating: {
      list: [
        { name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus', current: {}, hide: 0 },
        variable('job', 'Job', 'label_values(ordinal_build_info, job)', false),
        variable('namespace', 'Namespace', `label_values(statefulset_controller_statefulset_max_unavailable{${JOB}}, statefulset_namespace)`, true),
        variable('statefulset', 'StatefulSet', `label_values(statefulset_controller_statefulset_max_unavailable{${JOB},statefulset_namespace=~"$namespace"}, statefulset_name)`, true),
      ],
    },
    annotations: { list: [] },
    panels: panels(),
  };
}

/** Every PromQL expression of the dashboard (panels and variables), for checks. */
export function dashboardQueries(dashboard: Json): string[] {
  const panelQueries = (dashboard.panels as Json[]).flatMap((p) => ((p.targets as Json[] | undefined) ?? []).map((t) => String(t.expr)));
  const variables = ((dashboard.templating as Json).list as Json[]).flatMap((v) => (typeof v.definition === 'string' ? [v.definition] : []));
  return [...panelQueries, ...variables];
}
