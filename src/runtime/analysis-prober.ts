// The checks of staged rollouts' analyses (rollingUpdate.steps[].analysis.http and .prometheus, and the
// background rollingUpdate.analysis). The planner says which check is due (Plan.probes, keyed
// `<update revision>/<step index or "rollout">/<attempt>`); the prober makes it through a
// ProbePort without holding up the sync, keeps what each check saw per set, hands those results to the next
// observe() (ObservedState.analysisResults) and queues the set again when one arrives. Results are kept, not
// consumed: the planner counts only those after status.stepAnalysis.lastCheckTime, so a sync whose status
// write failed counts them again from the same list. Two checks of one key are at least a second apart: status
// times have whole seconds, so a second result within the same second would not be counted, and the planner
// would ask for the same check again at once (an interval under a second, e.g. 500ms).

import type { Instant, StatefulSet } from '../api/types.js';
import type { AnalysisProbe, AnalysisResult } from '../controller/model/plan-types.js';
import type { TimerId, Timers } from './clock.js';
import type { Logger } from './logging-port.js';

/** What one check saw: ok when the endpoint answered the expected status, or the query's values met the condition. */
export interface ProbeOutcome {
  ok: boolean;
  /** e.g. "HTTP 200", "HTTP 503, expected 200", "connect ECONNREFUSED 10.0.0.1:8080", "result 0.2: result < 0.05 is false". */
  message: string;
  /** A Prometheus check with no verdict (ok false): no value, or a query that could not be made or judged. */
  inconclusive?: 'noData' | 'error';
}

/**
 * Makes one check: an HTTP GET of `probe.url` (http-probe.ts), a Prometheus query (prometheus-probe.ts), or the
 * simulator's answers to either. Never rejects; a failed request is a failed check (HTTP) or an inconclusive one
 * (Prometheus). `signal` aborts it when the controller stops.
 */
export type ProbePort<P extends AnalysisProbe = AnalysisProbe> = (probe: P, signal: AbortSignal) => Promise<ProbeOutcome>;

/** One port for every kind of check: each probe goes to the port of its kind. */
export function probePortByKind(ports: { http: ProbePort<Extract<AnalysisProbe, { kind: 'http' }>>; prometheus: ProbePort<Extract<AnalysisProbe, { kind: 'prometheus' }>> }): ProbePort {
  return (probe, signal) => (probe.kind === 'http' ? ports.http(probe, signal) : ports.prometheus(probe, signal));
}

/** The last results kept per set: a step counts at most `count + failureLimit` of them, one sync after another. */
export const RESULTS_PER_SET = 32;
/** The least time between two checks of one probe key (status.stepAnalysis.lastCheckTime has whole seconds). */
export const MIN_CHECK_SPACING_MS = 1000;

export interface AnalysisProberDeps {
  port: ProbePort;
  /** The time of a result, and the wait before a check due too soon after the last one. */
  timers: Timers;
  /** A result arrived for the set queued under `key`. */
  onResult(key: string, set: StatefulSet, probe: AnalysisProbe, result: AnalysisResult): void;
  logger: Logger;
}

interface SetChecks {
  results: AnalysisResult[];
  /** Probe keys with a check in flight. */
  inFlight: Set<string>;
}

export class AnalysisProber {
  /** By set UID: a set deleted and created again under the same name starts with nothing. */
  private readonly sets = new Map<string, SetChecks>();
  private readonly stopping = new AbortController();
  /** Checks waiting for MIN_CHECK_SPACING_MS after the last one of their key. */
  private readonly waiting = new Set<TimerId>();

  constructor(private readonly deps: AnalysisProberDeps) {}

  /** Starts the plan's checks of the set queued under `key`; at most one per probe key is in flight. */
  start(key: string, set: StatefulSet, probes: readonly AnalysisProbe[] | undefined): void {
    const uid = set.metadata.uid;
    if (probes === undefined || probes.length === 0 || uid === undefined || this.stopping.signal.aborted) return;
    let checks = this.sets.get(uid);
    if (checks === undefined) {
      checks = { results: [], inFlight: new Set() };
      this.sets.set(uid, checks);
    }
    const now = this.deps.timers.now();
    for (const probe of probes) {
      if (checks.inFlight.has(probe.key)) continue;
      checks.inFlight.add(probe.key);
      const last = checks.results.findLast((r) => r.key === probe.key)?.at;
      if (last === undefined || now >= last + MIN_CHECK_SPACING_MS) {
        void this.check(key, set, checks, probe);
        continue;
      }
      const id = this.deps.timers.at(last + MIN_CHECK_SPACING_MS, () => {
        this.waiting.delete(id);
        void this.check(key, set, checks, probe);
      }, 'analysis check');
      this.waiting.add(id);
    }
  }

  /** The results kept for the set (oldest first). */
  results(set: StatefulSet): readonly AnalysisResult[] {
    const uid = set.metadata.uid;
    return (uid === undefined ? undefined : this.sets.get(uid)?.results) ?? [];
  }

  /** Drops what is kept for a deleted set; a check still in flight for it is not recorded. */
  forget(set: StatefulSet): void {
    if (set.metadata.uid !== undefined) this.sets.delete(set.metadata.uid);
  }

  /** Aborts the checks in flight (the controller stops); later results are not recorded. */
  stop(): void {
    this.stopping.abort();
    for (const id of this.waiting) this.deps.timers.cancel(id);
    this.waiting.clear();
  }

  private async check(key: string, set: StatefulSet, checks: SetChecks, probe: AnalysisProbe): Promise<void> {
    if (this.sets.get(set.metadata.uid ?? '') !== checks) return;
    let outcome: ProbeOutcome;
    try {
      outcome = await this.deps.port(probe, this.stopping.signal);
    } catch (err) {
      // a port reports failures as outcomes; a throw is still a failed check, not a lost one
      outcome = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    checks.inFlight.delete(probe.key);
    if (this.stopping.signal.aborted || this.sets.get(set.metadata.uid ?? '') !== checks) return;
    const at: Instant = this.deps.timers.now();
    const result: AnalysisResult = { key: probe.key, at, ok: outcome.ok, message: outcome.message, ...(outcome.inconclusive !== undefined && !outcome.ok ? { inconclusive: outcome.inconclusive } : {}) };
    checks.results.push(result);
    if (checks.results.length > RESULTS_PER_SET) checks.results.splice(0, checks.results.length - RESULTS_PER_SET);
    const target = probe.kind === 'http' ? { url: probe.url } : { address: probe.address, query: probe.query };
    this.deps.logger.debug({ key, probe: probe.key, ...target, ok: outcome.ok, message: outcome.message }, 'analysis check done');
    this.deps.onResult(key, set, probe, result);
  }
}
