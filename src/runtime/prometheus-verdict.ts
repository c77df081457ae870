// What a Prometheus check's answers mean, for the real port (prometheus-probe.ts) and the simulator's Prometheus
// alike, so both judge the same way: a query's answer (the HTTP API's `data`: an instant vector or a scalar)
// becomes one value or no verdict — no series, or NaN (0/0, e.g. an error ratio without traffic), is no data;
// several series are an error, since successCondition judges one value (aggregate them: sum, max, …) — and the
// CEL successCondition (api/success-condition.ts, compiled once per text) judges the value and the baseline's.

import { compileCondition, type ConditionProgram } from '../api/success-condition.js';
import type { PrometheusProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome } from './analysis-prober.js';

/** The `data` of a successful /api/v1/query answer. */
export interface QueryData {
  resultType: string;
  result: unknown;
}

export type QueryValue = { value: number } | { inconclusive: 'noData' | 'error'; message: string };

const sampleValue = (pair: unknown): number => (Array.isArray(pair) && typeof pair[1] === 'string' ? Number(pair[1]) : Number.NaN);

/** The one value of a query's answer; `what` names the query in messages ("query", "baselineQuery"). */
export function queryValue(data: QueryData, what: string): QueryValue {
  let value: number;
  if (data.resultType === 'scalar') value = sampleValue(data.result);
  else if (data.resultType === 'vector' && Array.isArray(data.result)) {
    const series = data.result as { value?: unknown }[];
    if (series.length === 0) return { inconclusive: 'noData', message: `${what} returned no series` };
    if (series.length > 1) return { inconclusive: 'error', message: `${what} returned ${series.length} series; successCondition judges one value: aggregate them (sum, max, avg)` };
    value = sampleValue(series[0]?.value);
  } else return { inconclusive: 'error', message: `${what} returned a ${data.resultType}; successCondition judges an instant vector of one series or a scalar` };
  if (Number.isNaN(value)) return { inconclusive: 'noData', message: `${what} returned NaN` };
  return { value };
}

const show = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6))));

/** Compiles each successCondition once (per owner: a port keeps its own). */
export class ConditionCache {
  private readonly programs = new Map<string, ConditionProgram | Error>();
  private static readonly LIMIT = 256;

  program(text: string, withBaseline: boolean): ConditionProgram | Error {
    const key = `${withBaseline ? 'b' : 'r'}:${text}`;
    let p = this.programs.get(key);
    if (p === undefined) {
      const compiled = compileCondition(text, withBaseline);
      p = compiled.ok ? compiled.program : new Error(compiled.message);
      if (this.programs.size >= ConditionCache.LIMIT) this.programs.clear();
      this.programs.set(key, p);
    }
    return p;
  }
}

/** The verdict on the query's value (and the baseline's): successCondition true passes the check. */
export function judge(probe: PrometheusProbe, result: QueryValue, baseline: QueryValue | undefined, cache: ConditionCache): ProbeOutcome {
  for (const v of [result, baseline]) if (v !== undefined && 'inconclusive' in v) return { ok: false, inconclusive: v.inconclusive, message: v.message };
  const r = (result as { value: number }).value;
  const b = baseline === undefined ? undefined : (baseline as { value: number }).value;
  const values = `result ${show(r)}${b === undefined ? '' : `, baseline ${show(b)}`}`;
  const program = cache.program(probe.successCondition, probe.baselineQuery !== undefined);
  const verdict = program instanceof Error ? program : program(b === undefined ? { result: r } : { result: r, baseline: b });
  if (verdict instanceof Error) return { ok: false, inconclusive: 'error', message: `${values}: successCondition: ${verdict.message}` };
  return { ok: verdict, message: `${values}: ${probe.successCondition} is ${verdict}` };
}
