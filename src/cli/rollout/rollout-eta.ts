// The ETA `rollout status` shows during a rollout: the forecast of this rollout (the set at its current
// revision, the update revision applied; durations learned from its pods and the controller's events),
// refreshed with what has happened so far — with u pods updated, what remains is each simulated run's
// duration minus the moment it had u pods updated. A forecast that had to take the grace period for the
// termination time (no pod seen going yet) is made again once the watch has seen one go. While a pod is
// failing (ImagePullBackOff, CrashLoopBackOff, …) no forecast holds: the rollout waits for a change, so the
// ETA is unknown.

import { apiVersionOf, type ClusterClient, type Resource } from '../../api/client.js';
import { learnLiveDurations } from '../explain/live-durations.js';
import type { WatchedTermination } from '../../sim/learned-durations.js';
import { applyRevision } from '../../api/revision/hash.js';
import type { Pod, StatefulSet } from '../../api/types.js';
import { isTerminating, podOrdinal, stuckReason } from '../../controller/pod-state.js';
import { humanDuration } from '../explain/durations.js';
import { setHistory } from './rollout-history.js';

/** The forecast of a watch: undefined until asked, 'none' when no rollout is under way (see forecastEta). */
export type EtaForecast = Eta | { error: string } | 'pending' | 'none' | undefined;

/** Runs of the forecast behind an ETA: enough for p50 and p90, quick enough to be there in a second. */
const ETA_RUNS = 10;

/** Seconds left, as percentiles over the simulated runs. */
export interface EtaBand {
  p5: number;
  p50: number;
  p90: number;
  p95: number;
}

export interface Eta {
  /** Seconds left with `updated` pods updated, over the runs (`rollout status` shows p50 and p90, the dashboard p5..p95). */
  remaining(updated: number): EtaBand | undefined;
  /** No pod was seen going: the forecast took the grace period, the most a termination can take. */
  terminationUnknown: boolean;
}

/**
 * The forecast of the rollout under way; undefined when no rollout is under way (a scale, OnDelete), a
 * sentence when it cannot be forecast.
 */
export async function forecastEta(
  client: ClusterClient,
  resource: Resource,
  set: StatefulSet,
  pods: readonly Pod[],
  watched: readonly WatchedTermination[],
): Promise<Eta | string | undefined> {
  const { currentRevision, updateRevision } = set.status ?? {};
  if (!currentRevision || !updateRevision || currentRevision === updateRevision || set.spec.updateStrategy?.type === 'OnDelete') return undefined;
  const current = (await setHistory(client, set)).find((r) => r.metadata.name === currentRevision);
  if (current === undefined) return `revision ${currentRevision} is gone`;
  const learned = await learnLiveDurations(client, set, pods, watched);
  // Loaded only now: the simulation brings in prom-client.
  const { forecastRollout, percentile, remainingAfter } = await import('../../sim/forecast.js');
  if (learned.start.samples.length === 0) return 'no Ready pod to learn start times from';
  const typed = { ...set, apiVersion: apiVersionOf(resource), kind: 'StatefulSet' };
  const before = applyRevision(typed, current);
  const [forecast] = await forecastRollout({
    name: set.metadata.name ?? '',
    manifests: [before],
    change: { images: [], set: [], replacements: [typed] },
    start: { samples: learned.start.samples },
    termination: { samples: learned.termination.samples },
    runs: ETA_RUNS,
    seed: 1,
    candidates: [],
  });
  const runs = (forecast?.runs ?? []).filter((r) => r.seconds !== undefined);
  if (runs.length === 0) return 'no simulated run of this rollout converged';
  return {
    terminationUnknown: learned.termination.upperBound === true,
    remaining(updated) {
      const left = remainingAfter(runs, updated);
      const [p5, p50, p90, p95] = [5, 50, 90, 95].map((p) => percentile(left, p));
      return p5 === undefined || p50 === undefined || p90 === undefined || p95 === undefined ? undefined : { p5, p50, p90, p95 };
    },
  };
}

/** The forecast answered, but with the grace period for want of a termination time (see the header). */
export const isTerminationUnknown = (forecast: EtaForecast): boolean => typeof forecast === 'object' && 'terminationUnknown' in forecast && forecast.terminationUnknown;

/** `about 1m5s left (p90 1m30s), forecast from this set's pod timings` */
export function etaLine(eta: Eta, updated: number): string | undefined {
  const r = eta.remaining(updated);
  if (r === undefined) return undefined;
  const h = (s: number) => humanDuration(Math.round(s * 1000));
  if (eta.terminationUnknown) return `at most about ${h(r.p50)} left (p90 ${h(r.p90)}): no pod seen going yet, so each takes its grace period to stop`;
  return `about ${h(r.p50)} left (p90 ${h(r.p90)}), forecast from this set's pod timings`;
}

/** The lowest ordinal in a failure state it cannot leave by itself (pod-state.ts stuckReason), with that state. */
export function failingPod(pods: readonly Pod[]): { pod: string; reason: string } | undefined {
  const failing = pods.flatMap((pod) => {
    const reason = isTerminating(pod) ? undefined : stuckReason(pod);
    return reason === undefined ? [] : [{ pod: pod.metadata.name ?? '', reason, ordinal: podOrdinal(pod) }];
  });
  const first = failing.sort((a, b) => a.ordinal - b.ordinal)[0];
  return first && { pod: first.pod, reason: first.reason };
}

/** The ETA line of a rollout under way with `updated` pods updated, or why there is none; undefined when there is nothing to say. */
export function etaText(forecast: EtaForecast, pods: readonly Pod[], updated: number): string | undefined {
  if (forecast === undefined || forecast === 'none') return undefined;
  const failing = failingPod(pods);
  if (failing !== undefined) return `ETA: unknown while ${failing.pod} is failing (${failing.reason})`;
  if (forecast === 'pending') return undefined;
  if ('error' in forecast) return `ETA: none (${forecast.error})`;
  const line = etaLine(forecast, updated);
  return line === undefined ? undefined : `ETA: ${line}`;
}
