// The checks of an analysis — an HTTP GET, or a Prometheus query judged by its CEL successCondition — as one
// mechanism for a step's analysis (rollout-steps.ts) and the rollout's background analysis (rollout-analysis.ts).
// The planner says which check is due (an AnalysisProbe, with a Prometheus query's placeholders filled in from
// the pods it observes); the runtime makes it and reports an AnalysisResult; the next sync folds the results
// after status' lastCheckTime into the counts. A Prometheus check that gives no verdict (no data, or an error)
// is what its policy says: Fail counts it as failed; Pause does not count it and holds the rollout until a check
// gives a verdict again (checks go on at the interval, as grafana's rollout-operator proposal does); Ignore does
// not count it and holds nothing.

import { parseGoDuration } from '../../api/duration.js';
import { fromTimestamp, toTimestamp, type AnalysisPolicy, type HttpAnalysis, type Instant, type PrometheusAnalysis, type StepAnalysisStatus } from '../../api/types.js';
import type { AnalysisProbe, AnalysisResult } from '../model/plan-types.js';
import type { SyncContext } from './sync-context.js';

const DEFAULT_INTERVAL_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_POLICY: AnalysisPolicy = 'Pause';
/** `{{pods}}` lists at most this many pods: a longer regex makes a query no server should have to parse. */
export const MAX_PODS_IN_QUERY = 500;

/** An analysis of checks: a step's (`count` of them pass it) or the rollout's (no count: until it completes). */
export interface Checks {
  kind: 'http' | 'prometheus';
  http?: Omit<HttpAnalysis, 'count'>;
  prometheus?: Omit<PrometheusAnalysis, 'count'>;
  intervalMs: number;
  timeoutMs: number;
  count: number;
  failureLimit: number;
  noData: AnalysisPolicy;
  error: AnalysisPolicy;
  /** For messages: "http://canary/health", "the Prometheus query". */
  what: string;
}

const durationMs = (text: string | undefined, fallback: number): number => (text === undefined ? fallback : parseGoDuration(text));
const policy = (p: string | undefined): AnalysisPolicy => (p === 'Fail' || p === 'Ignore' || p === 'Pause' ? p : DEFAULT_POLICY);

/** The checks of an analysis block with an http or prometheus check (undefined: neither). */
export function checksOf(analysis: { http?: Omit<HttpAnalysis, 'count'> & { count?: number }; prometheus?: Omit<PrometheusAnalysis, 'count'> & { count?: number } } | undefined): Checks | undefined {
  const http = analysis?.http;
  const prometheus = analysis?.prometheus;
  const check = http ?? prometheus;
  if (check === undefined) return undefined;
  return {
    kind: http !== undefined ? 'http' : 'prometheus',
    ...(http !== undefined ? { http } : { prometheus }),
    intervalMs: durationMs(check.interval, DEFAULT_INTERVAL_MS),
    timeoutMs: durationMs(check.timeout, DEFAULT_TIMEOUT_MS),
    count: check.count ?? 1,
    failureLimit: check.failureLimit ?? 0,
    noData: policy(prometheus?.noDataPolicy),
    error: policy(prometheus?.errorPolicy),
    what: http !== undefined ? http.url : 'the Prometheus query',
  };
}

/** Status times have whole seconds: a check is counted once, by the second it came back in. */
const wholeSecond = (t: Instant): Instant => Math.floor(t / 1000) * 1000;

/** One result into the counts: a verdict, or (Prometheus) no verdict, which its policy decides. */
function foldOne(out: StepAnalysisStatus, r: AnalysisResult, checks: Checks): StepAnalysisStatus {
  const base = { successful: out.successful, failed: out.failed, lastCheckTime: toTimestamp(r.at), message: r.message };
  const inconclusive = out.inconclusive ?? 0;
  if (r.inconclusive === undefined) return { ...base, successful: out.successful + (r.ok ? 1 : 0), failed: out.failed + (r.ok ? 0 : 1), ...(inconclusive > 0 ? { inconclusive } : {}) };
  const p = r.inconclusive === 'noData' ? checks.noData : checks.error;
  if (p === 'Fail') return { ...base, failed: out.failed + 1, ...(inconclusive > 0 ? { inconclusive } : {}) };
  return { ...base, inconclusive: inconclusive + 1, ...(p === 'Pause' ? { paused: true } : {}) };
}

/** The keyed results after `since` (and after the last one counted), folded into `analysis`. */
export function foldChecks(analysis: StepAnalysisStatus, key: string, since: Instant, results: readonly AnalysisResult[], checks: Checks): StepAnalysisStatus {
  const last = fromTimestamp(analysis.lastCheckTime) ?? Number.NEGATIVE_INFINITY;
  const fresh = results.filter((r) => r.key === key && r.at >= since && wholeSecond(r.at) > last).sort((a, b) => a.at - b.at);
  return fresh.reduce((out, r) => foldOne(out, r, checks), analysis);
}

/** "2 of 3 checks of http://canary/health failed (failureLimit 1): HTTP 503, expected 200". */
export function checksFailure(checks: Checks, analysis: StepAnalysisStatus): string {
  const made = analysis.successful + analysis.failed;
  return `${analysis.failed} of ${made} checks of ${checks.what} failed (failureLimit ${checks.failureLimit})${analysis.message ? `: ${analysis.message}` : ''}`;
}

/** When the next check is due: at once for the first, then `interval` after the last. */
export function nextCheckAt(analysis: StepAnalysisStatus, since: Instant, checks: Checks): Instant {
  const last = fromTimestamp(analysis.lastCheckTime);
  return last === undefined ? since : last + checks.intervalMs;
}

/** The pods on `revision` (not terminating), as a regex for `{{pods}}`; undefined when there are none. */
function podsRegex(ctx: SyncContext, revision: string): { regex?: string; count: number } {
  const index = ctx.slots.index;
  const names: string[] = [];
  for (const o of index.onRevision(revision).ascending()) {
    const f = index.member(o);
    if (f === undefined || f.terminating) continue;
    names.push(f.name);
    if (names.length > MAX_PODS_IN_QUERY) return { count: index.onRevision(revision).size };
  }
  // set names are DNS labels: pod names carry no regex metacharacter
  return names.length === 0 ? { count: 0 } : { regex: names.join('|'), count: names.length };
}

type Filled = { text: string } | { inconclusive: 'noData' | 'error'; message: string };

/** `query` with its placeholders filled in; `{{pods}}` lists the pods on `podsRevision`. */
function fill(ctx: SyncContext, query: string, podsRevision: string): Filled {
  const values: Record<string, string> = { revision: ctx.updateRevision, baselineRevision: ctx.currentRevision, namespace: ctx.set.metadata.namespace ?? 'default', set: ctx.set.metadata.name ?? '' };
  let refusal: Filled | undefined;
  const text = query.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (all, name: string) => {
    if (name !== 'pods') return values[name] ?? all;
    const pods = podsRegex(ctx, podsRevision);
    if (pods.regex === undefined) {
      refusal ??= pods.count === 0 ? { inconclusive: 'noData', message: `no pod is on revision ${podsRevision}, so {{pods}} matches nothing` } : { inconclusive: 'error', message: `{{pods}} would list ${pods.count} pods of revision ${podsRevision} (at most ${MAX_PODS_IN_QUERY})` };
      return all;
    }
    return pods.regex;
  });
  return refusal ?? { text };
}

/** The check due now, with `key` (the results that count for the analysis) and the step it is for (absent: the rollout's). */
export function probeFor(ctx: SyncContext, checks: Checks, key: string, step: number | undefined): AnalysisProbe {
  const base = { key, revision: ctx.updateRevision, ...(step !== undefined ? { step } : {}), timeoutMs: checks.timeoutMs };
  const http = checks.http;
  if (http !== undefined) return { ...base, kind: 'http', url: http.url, expectedStatus: http.expectedStatus ?? 200 };
  const p = checks.prometheus as Omit<PrometheusAnalysis, 'count'>;
  const query = fill(ctx, p.query, ctx.updateRevision);
  const baseline = p.baselineQuery === undefined ? undefined : fill(ctx, p.baselineQuery, ctx.currentRevision);
  const refusal = 'inconclusive' in query ? query : baseline !== undefined && 'inconclusive' in baseline ? baseline : undefined;
  return {
    ...base,
    kind: 'prometheus',
    address: p.address,
    query: 'text' in query ? query.text : p.query,
    ...(baseline !== undefined ? { baselineQuery: 'text' in baseline ? baseline.text : (p.baselineQuery as string) } : {}),
    successCondition: p.successCondition,
    ...(refusal !== undefined ? { known: { inconclusive: refusal.inconclusive, message: refusal.message } } : {}),
  };
}
