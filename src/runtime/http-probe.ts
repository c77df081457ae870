// The real ProbePort: an HTTP GET with Node's fetch, made by the controller process itself (as Argo Rollouts'
// web metric provider does), aborted after the probe's timeout on the injected timers. Redirects are followed,
// as the kubelet's HTTP probes follow them; the check passes when the final status is the expected one.

import type { AnalysisProbe, HttpProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome, ProbePort } from './analysis-prober.js';
import type { Timers } from './clock.js';

/** The words of a check that got an answer: "HTTP 200", or "HTTP 503, expected 200". */
export function statusOutcome(status: number, expected: number): ProbeOutcome {
  return status === expected ? { ok: true, message: `HTTP ${status}` } : { ok: false, message: `HTTP ${status}, expected ${expected}` };
}

/** fetch's "fetch failed" says nothing: the cause (e.g. "connect ECONNREFUSED 127.0.0.1:8080") does. */
export function errorText(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error && cause.message !== '') return cause.message;
  if (cause !== null && typeof cause === 'object' && 'code' in cause) return String(cause.code);
  return err instanceof Error ? err.message : String(err);
}

export function httpProbePort(timers: Timers, fetchFn: typeof fetch = fetch): ProbePort<AnalysisProbe & HttpProbe> {
  return async (probe, stop): Promise<ProbeOutcome> => {
    const abort = new AbortController();
    let timedOut = false;
    const timer = timers.at(timers.now() + probe.timeoutMs, () => {
      timedOut = true;
      abort.abort();
    }, 'analysis check timeout');
    const onStop = (): void => abort.abort();
    stop.addEventListener('abort', onStop, { once: true });
    try {
      const res = await fetchFn(probe.url, { method: 'GET', signal: abort.signal, headers: { 'user-agent': 'ordinal-controller' } });
      // the body is not read: free the connection
      await res.body?.cancel().catch(() => undefined);
      return statusOutcome(res.status, probe.expectedStatus);
    } catch (err) {
      if (timedOut) return { ok: false, message: `no answer within ${probe.timeoutMs / 1000}s` };
      return { ok: false, message: errorText(err) };
    } finally {
      timers.cancel(timer);
      stop.removeEventListener('abort', onStop);
    }
  };
}
