// What the simulated network answers to a staged rollout's analysis checks: an HTTP check by the scenario's
// `cluster.analysisEndpoints` (URL → status code), changed by `endpoint` steps, a URL not listed refusing the
// connection; a Prometheus check by the simulated Prometheus (simulated-prometheus.ts) over `cluster.metrics`,
// which scrapes the pods that run. Checks are answered at once, at virtual time, with the same words and the
// same judgement (prometheus-verdict.ts) as the real ports.

import type { Pod } from '../api/types.js';
import type { AnalysisProbe, PrometheusProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome, ProbePort } from '../runtime/analysis-prober.js';
import { statusOutcome } from '../runtime/http-probe.js';
import { ConditionCache, judge, queryValue, type QueryValue } from '../runtime/prometheus-verdict.js';
import type { WriteRecord } from '../cluster/memory/memory-types.js';
import { QueryError, SimulatedPrometheus, type ScrapedPod } from './simulated-prometheus.js';
import type { MetricSeriesSpec } from './scenario-types.js';

/** host:port of a URL as Node names it in "connect ECONNREFUSED host:port". */
function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}

export class AnalysisEndpoints {
  private readonly answers: Map<string, number>;
  /** Running pods by namespace/name, kept from the cluster's writes (see `sawWrite`). */
  private readonly running = new Map<string, ScrapedPod>();
  private readonly prometheus: SimulatedPrometheus;
  private readonly conditions = new ConditionCache();

  constructor(initial: Readonly<Record<string, number>> = {}, metrics: readonly MetricSeriesSpec[] = [], private readonly now: () => number = () => 0) {
    this.answers = new Map(Object.entries(initial));
    this.prometheus = new SimulatedPrometheus(metrics, () => [...this.running.values()]);
  }

  /** From now on `url` answers `status`; null: it refuses the connection. */
  set(url: string, status: number | null): void {
    if (status === null) this.answers.delete(url);
    else this.answers.set(url, status);
  }

  /** A write to the cluster: a pod that runs is scraped from when it started running until it is gone. */
  sawWrite(w: WriteRecord): void {
    if (w.resource.kind !== 'Pod') return;
    const key = `${w.namespace ?? ''}/${w.name}`;
    const pod = w.object as Pod;
    if (w.change === 'DELETED' || pod.status?.phase !== 'Running') return void this.running.delete(key);
    if (this.running.has(key)) return;
    const images = (pod.spec?.containers ?? []).map((c) => c.image ?? '');
    this.running.set(key, { namespace: w.namespace ?? '', name: w.name, images, runningSince: w.at });
  }

  answer(probe: AnalysisProbe): ProbeOutcome {
    if (probe.kind === 'prometheus') return this.judgeQuery(probe);
    const status = this.answers.get(probe.url);
    return status === undefined ? { ok: false, message: `connect ECONNREFUSED ${hostPort(probe.url)}` } : statusOutcome(status, probe.expectedStatus);
  }

  private ask(query: string, what: string): QueryValue {
    try {
      return queryValue(this.prometheus.query(query, this.now()), what);
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      return { inconclusive: 'error', message: `${what}: Prometheus answered bad_data: ${err.message}` };
    }
  }

  private judgeQuery(probe: PrometheusProbe): ProbeOutcome {
    if (probe.known !== undefined) return { ok: false, inconclusive: probe.known.inconclusive, message: probe.known.message };
    const baseline = probe.baselineQuery === undefined ? undefined : this.ask(probe.baselineQuery, 'baselineQuery');
    return judge(probe, this.ask(probe.query, 'query'), baseline, this.conditions);
  }

  readonly port: ProbePort = (probe) => Promise.resolve(this.answer(probe));
}
