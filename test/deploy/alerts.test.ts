// The observability package's alert rules under a real promtool (Debian's prometheus package): they pass
// `promtool check rules`, and `promtool test rules` fires each rollout alert on series recorded from the
// controller's registry during a simulated run (recorded-series.ts), at the times the run's own status
// records say, and none on a healthy rollout. The alerts about the controller itself (errors, bugs, the
// Lease, the queue) are tested on series written here, the shape a scrape of the process has.
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ALERTS, alertRuleGroup, runbookAnchor } from '../../src/cli/manifests/alert-rules.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { StatusRecord } from '../../src/sim/timeline.js';
import { expand, promtool, recordScenario, TARGET, type Recording } from './recorded-series.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const RULES = { groups: [alertRuleGroup()] };

interface Expected {
  at: number;
  alert: string;
  /** Labels of each firing alert, beside severity; none: the alert must not fire. */
  firing: Array<Record<string, string>>;
  /** Annotations that need the value ($value): given; others are filled in from the labels. */
  annotations?: Record<string, string>;
}

function alertTest(e: Expected): Record<string, unknown> {
  const rule = ALERTS.find((a) => a.alert === e.alert)!;
  return {
    eval_time: `${e.at}s`,
    alertname: e.alert,
    exp_alerts: e.firing.map((labels) => ({
      exp_labels: { ...labels, severity: rule.severity },
      exp_annotations: {
        summary: rule.summary,
        description: e.annotations?.description ?? expand(rule.description, labels),
        runbook_url: `docs/runbooks.md#${runbookAnchor(e.alert)}`,
      },
    })),
  };
}

function runTests(t: TestContext, interval: number, series: Recording['series'], expected: Expected[]): void {
  const test = { rule_files: ['rules.yaml'], evaluation_interval: `${interval}s`, tests: [{ interval: `${interval}s`, input_series: series, alert_rule_test: expected.map(alertTest) }] };
  const out = promtool(t, { 'rules.yaml': RULES, 'test.yaml': test }, 'test', 'rules', 'test.yaml');
  if (out !== undefined) assert.match(out, /SUCCESS/);
}

/** The instants (seconds) the set's Progressing condition had `reason`, from the run's status records: [first, last]. */
function reasonSpan(records: Recording['records'], reason: string): { from: number; to: number } {
  const statuses = records.filter((r): r is StatusRecord => r.type === 'status');
  const at = statuses.filter((r) => r.status.conditions?.some((c) => c.type === 'Progressing' && c.reason === reason)).map((r) => r.t);
  assert.ok(at.length > 0, `no status record with reason ${reason}`);
  const after = statuses.find((r) => r.t > at[at.length - 1]! && !r.status.conditions?.some((c) => c.type === 'Progressing' && c.reason === reason));
  return { from: at[0]!, to: after?.t ?? Infinity };
}

/** A point of the series' grid by which a scrape has seen what the run wrote at `t` (scrapes are at most `interval` apart). */
const seenBy = (t: number, interval: number) => Math.ceil(t / interval) * interval + interval;
const progressing = (reason: string, set = 'app', policy = 'OrderedReady') => ({
  ...TARGET,
  statefulset_namespace: 'default',
  statefulset_name: set,
  pod_management_policy: policy,
  condition: 'Progressing',
  status: 'False',
  reason,
});

describe('the runbooks', () => {
  const runbooks = readFileSync(join(ROOT, 'docs/runbooks.md'), 'utf8');
  /** A heading's anchor as GitHub renders it. */
  const anchor = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
  it('has one section per alert, whose anchor its runbook_url ends with, and lists each with its severity', () => {
    const headings = [...runbooks.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    assert.deepEqual(headings, ALERTS.map((a) => a.alert));
    for (const a of ALERTS) {
      assert.equal(anchor(a.alert), runbookAnchor(a.alert));
      assert.ok(runbooks.includes(`| [${a.alert}](#${runbookAnchor(a.alert)}) | ${a.severity} |`), `${a.alert} in the table, ${a.severity}`);
    }
  });
});

describe('the alert rules under promtool', () => {
  it('pass promtool check rules, and deploy/observability/alerts.yaml holds them', (t) => {
    assert.deepEqual(parse(readFileSync(join(ROOT, 'deploy/observability/alerts.yaml'), 'utf8')), RULES);
    const out = promtool(t, { 'rules.yaml': RULES }, 'check', 'rules', 'rules.yaml');
    if (out !== undefined) assert.match(out, new RegExp(`SUCCESS: ${ALERTS.length} rules found`));
  });

  it('a rollout stuck past its progress deadline: OrdinalRolloutStuck after 5 minutes, not before (recorded: examples/stuck-rollout-rolling-update.yaml left stuck)', async (t) => {
    // the example's set and broken image, without its fix: stuck for 15 minutes
    const example = readFileSync(join(ROOT, 'examples/stuck-rollout-rolling-update.yaml'), 'utf8');
    const steps = 'steps:\n  - waitFor: Converged\n    timeoutSeconds: 120\n  - setImage: {name: app, container: app, image: "registry.example.com/app:v2.0.0-typo"}\n  - advance: 900\n';
    const rec = await recordScenario(parseScenario(`${example.slice(0, example.indexOf('\nsteps:\n') + 1)}${steps}`));
    const stuck = reasonSpan(rec.records, 'ProgressDeadlineExceeded');
    const seen = seenBy(stuck.from, rec.interval);
    assert.ok(seen + 360 < stuck.to, 'the rollout stays stuck long enough to alert');
    runTests(t, rec.interval, rec.series, [
      { at: seen + 240, alert: 'OrdinalRolloutStuck', firing: [] },
      { at: seen + 300, alert: 'OrdinalRolloutStuck', firing: [progressing('ProgressDeadlineExceeded')] },
      { at: seen + 300, alert: 'OrdinalRolloutAborted', firing: [] },
      { at: seen + 300, alert: 'OrdinalSafetyHalt', firing: [] },
    ]);
  });

  it('a rollout aborted by onFailure: Rollback: OrdinalRolloutAborted at once, and SlowerThanForecast while the pod was slow (recorded: examples/rollback-rolling-update.yaml)', async (t) => {
    const rec = await recordScenario(join(ROOT, 'examples/rollback-rolling-update.yaml'));
    const aborted = reasonSpan(rec.records, 'RolloutAborted');
    const slow = reasonSpan(rec.records, 'SlowerThanForecast');
    const slowAt = seenBy(slow.from, rec.interval);
    assert.ok(slowAt < slow.to, 'SlowerThanForecast lasted past a scrape');
    runTests(t, rec.interval, rec.series, [
      { at: seenBy(aborted.from, rec.interval), alert: 'OrdinalRolloutAborted', firing: [progressing('RolloutAborted')] },
      { at: slowAt, alert: 'OrdinalRolloutSlowerThanForecast', firing: [progressing('SlowerThanForecast')] },
      { at: slowAt, alert: 'OrdinalRolloutAborted', firing: [] },
      // aborted as the deadline passed: never stuck for 5 minutes
      { at: seenBy(aborted.from, rec.interval) + 330, alert: 'OrdinalRolloutStuck', firing: [] },
    ]);
  });

  it('an EnforcedRollingUpdate whose newest pod fails: OrdinalSafetyHalt (recorded: examples/enforced-rolling-update.yaml)', async (t) => {
    const rec = await recordScenario(join(ROOT, 'examples/enforced-rolling-update.yaml'));
    const halt = reasonSpan(rec.records, 'SafetyHalt');
    const at = seenBy(halt.from, rec.interval);
    assert.ok(at < halt.to);
    runTests(t, rec.interval, rec.series, [
      { at: Math.max(0, Math.floor(halt.from / rec.interval) * rec.interval - rec.interval), alert: 'OrdinalSafetyHalt', firing: [] },
      { at, alert: 'OrdinalSafetyHalt', firing: [progressing('SafetyHalt')] },
    ]);
  });

  it('a healthy rollout fires nothing (recorded: examples/demo.yaml)', async (t) => {
    const rec = await recordScenario(join(ROOT, 'examples/demo.yaml'));
    const end = (rec.series[0]!.values.split(' ').length - 1) * rec.interval;
    const points = [0, Math.floor(end / 2 / rec.interval) * rec.interval, end];
    runTests(t, rec.interval, rec.series, points.flatMap((at) => ALERTS.map((a) => ({ at, alert: a.alert, firing: [] }))));
  });
});

/** `v0+step*k` for k = 0 … n-1, as promtool's expanding notation writes it. */
const ramp = (from: number, step: number, n: number) => `${from}+${step}x${n - 1}`;
const instance = (name: string) => ({ job: TARGET.job, instance: name });
const build = (name: string) => ({ series: `ordinal_build_info{instance="${name}",job="${TARGET.job}",node_version="v20",version="0.1.0"}`, values: '1x240' });

describe('the controller alerts under promtool (series of a scrape of the process)', () => {
  it('OrdinalReconcileErrors: a quarter of the syncs failing for 15 minutes', (t) => {
    const a = '10.0.0.7:8080';
    runTests(t, 15, [build(a), { series: `ordinal_reconcile_total{instance="${a}",job="${TARGET.job}",result="error"}`, values: ramp(0, 3, 120) }, { series: `ordinal_reconcile_total{instance="${a}",job="${TARGET.job}",result="success"}`, values: ramp(0, 9, 120) }], [
      { at: 600, alert: 'OrdinalReconcileErrors', firing: [] },
      { at: 1200, alert: 'OrdinalReconcileErrors', firing: [instance(a)], annotations: { description: `25% of the syncs of ${a} ended in an error for 15 minutes (API errors, conflicts, refused writes); each is retried with backoff.` } },
    ]);
  });

  it('OrdinalInternalError: one sync that ended in a bug', (t) => {
    const a = '10.0.0.7:8080';
    runTests(t, 15, [{ series: `ordinal_reconcile_panics_total{instance="${a}",job="${TARGET.job}"}`, values: '0x20 1x40' }], [
      { at: 240, alert: 'OrdinalInternalError', firing: [] },
      { at: 330, alert: 'OrdinalInternalError', firing: [instance(a)] },
      { at: 960, alert: 'OrdinalInternalError', firing: [] },
    ]);
  });

  it("OrdinalLeaderChanges and OrdinalNoLeader: the Lease's holders, Ordinal's scrape only", (t) => {
    const lease = (inst: string, values: string) => ({ series: `leader_election_master_status{instance="${inst}",job="${TARGET.job}",name="ordinal-controller"}`, values });
    // kube-controller-manager serves the same gauge: never Ordinal's alert
    const kcm = { series: 'leader_election_master_status{instance="10.0.0.1:10257",job="kube-controller-manager",name="kube-controller-manager"}', values: '0x240' };
    // three processes lead in turn (a, then b from 10 min, then c from 20 min); from 40 min c waits and nobody leads
    const series = [build('a'), build('b'), build('c'), lease('a', '1x39 stale'), lease('b', '0x39 1x39 stale'), lease('c', '0x79 1x79 0x80'), kcm];
    runTests(t, 15, series, [
      { at: 540, alert: 'OrdinalLeaderChanges', firing: [] },
      { at: 1500, alert: 'OrdinalLeaderChanges', firing: [{ job: TARGET.job, name: 'ordinal-controller' }], annotations: { description: `3 processes of ${TARGET.job} held the Lease ordinal-controller in the last hour: replicas restarting, renewals failing or a partition.` } },
      { at: 1500, alert: 'OrdinalNoLeader', firing: [] },
      { at: 2640, alert: 'OrdinalNoLeader', firing: [] },
      { at: 2760, alert: 'OrdinalNoLeader', firing: [{ job: TARGET.job, name: 'ordinal-controller' }] },
    ]);
  });

  it("OrdinalWorkQueueDepth: Ordinal's statefulset queue over 100 for 15 minutes, not kube-controller-manager's", (t) => {
    const a = '10.0.0.7:8080';
    const series = [
      build(a),
      { series: `workqueue_depth{instance="${a}",job="${TARGET.job}",name="statefulset"}`, values: '150x100' },
      { series: 'workqueue_depth{instance="10.0.0.1:10257",job="kube-controller-manager",name="statefulset"}', values: '5000x100' },
    ];
    runTests(t, 15, series, [
      { at: 600, alert: 'OrdinalWorkQueueDepth', firing: [] },
      { at: 1200, alert: 'OrdinalWorkQueueDepth', firing: [{ ...instance(a), name: 'statefulset' }], annotations: { description: `150 StatefulSets have been waiting in the queue of ${a} for 15 minutes: the controller is behind (client rate limits, slow API server, too few --concurrent-syncs).` } },
    ]);
  });
});
