// The real Prometheus ProbePort: instant queries of the HTTP API (GET <address>/api/v1/query?query=…, Prometheus'
// own interface, as Argo Rollouts' prometheus provider makes them) from the controller process, the query and
// the baseline query side by side, each aborted after the probe's timeout on the injected timers. An answer
// that is not a value (an error status, an unreachable server, a timeout) is a check with no verdict (error);
// prometheus-verdict.ts says what the values mean and judges them with the successCondition.

import type { AnalysisProbe, PrometheusProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome, ProbePort } from './analysis-prober.js';
import type { Timers } from './clock.js';
import { errorText } from './http-probe.js';
import { ConditionCache, judge, queryValue, type QueryData, type QueryValue } from './prometheus-verdict.js';

/** The API's answer to a query: `data` on success, `errorType`/`error` otherwise (with a 4xx or 5xx status). */
interface ApiAnswer {
  status?: string;
  data?: QueryData;
  errorType?: string;
  error?: string;
}

const queryUrl = (address: string, query: string): string => `${address.replace(/\/+$/, '')}/api/v1/query?query=${encodeURIComponent(query)}`;

async function readAnswer(res: Response): Promise<ApiAnswer | undefined> {
  try {
    return (await res.json()) as ApiAnswer;
  } catch {
    return undefined;
  }
}

/** One query, as a value or no verdict; `what` names it in messages. */
async function ask(fetchFn: typeof fetch, probe: PrometheusProbe & { timeoutMs: number }, query: string, what: string, signal: AbortSignal, timedOut: () => boolean): Promise<QueryValue> {
  try {
    const res = await fetchFn(queryUrl(probe.address, query), { method: 'GET', signal, headers: { accept: 'application/json', 'user-agent': 'ordinal-controller' } });
    const answer = await readAnswer(res);
    if (res.ok && answer?.status === 'success' && answer.data !== undefined) return queryValue(answer.data, what);
    const why = answer?.error !== undefined ? `${answer.errorType ?? 'error'}: ${answer.error}` : `HTTP ${res.status}`;
    return { inconclusive: 'error', message: `${what}: Prometheus answered ${why}` };
  } catch (err) {
    return { inconclusive: 'error', message: timedOut() ? `${what}: no answer within ${probe.timeoutMs / 1000}s` : `${what}: ${errorText(err)}` };
  }
}

export function prometheusProbePort(timers: Timers, fetchFn: typeof fetch = fetch): ProbePort<AnalysisProbe & PrometheusProbe> {
  const conditions = new ConditionCache();
  return async (probe, stop): Promise<ProbeOutcome> => {
    if (probe.known !== undefined) return { ok: false, inconclusive: probe.known.inconclusive, message: probe.known.message };
    const abort = new AbortController();
    let timedOut = false;
    const timer = timers.at(timers.now() + probe.timeoutMs, () => {
      timedOut = true;
      abort.abort();
    }, 'analysis query timeout');
    const onStop = (): void => abort.abort();
    stop.addEventListener('abort', onStop, { once: true });
    try {
      const [result, baseline] = await Promise.all([
        ask(fetchFn, probe, probe.query, 'query', abort.signal, () => timedOut),
        probe.baselineQuery === undefined ? undefined : ask(fetchFn, probe, probe.baselineQuery, 'baselineQuery', abort.signal, () => timedOut),
      ]);
      return judge(probe, result, baseline, conditions);
    } finally {
      timers.cancel(timer);
      stop.removeEventListener('abort', onStop);
    }
  };
}
