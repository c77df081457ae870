// The ETA `rollout status` shows during a rollout: the forecast of this rollout (the set at its current
// revision, the update revision applied; durations learned from its pods and the controller's events),
// refreshed with what has happened so far — with u pods updated, what remains is each simulated run's
// duration minus the moment it had u pods updated.

import { apiVersionOf, type ClusterClient, type Resource } from '../../api/client.js';
import { learnLiveDurations } from '../explain/live-durations.js';
import { applyRevision } from '../../api/revision/hash.js';
import type { Pod, StatefulSet } from '../../api/types.js';
import { humanDuration } from '../explain/durations.js';
import { setHistory } from './rollout-history.js';

/** Runs of the forecast behind an ETA: enough for p50 and p90, quick enough to be there in a second. */
const ETA_RUNS = 10;

export interface Eta {
  /** Seconds left with `updated` pods updated: the median and the 90th percentile over the runs. */
  remaining(updated: number): { p50: number; p90: number } | undefined;
}

/**
 * The forecast of the rollout under way; undefined when no rollout is under way (a scale, OnDelete), a
 * sentence when it cannot be forecast.
 */
export async function forecastEta(client: ClusterClient, resource: Resource, set: StatefulSet, pods: readonly Pod[]): Promise<Eta | string | undefined> {
  const { currentRevision, updateRevision } = set.status ?? {};
  if (!currentRevision || !updateRevision || currentRevision === updateRevision || set.spec.updateStrategy?.type === 'OnDelete') return undefined;
  const current = (await setHistory(client, set)).find((r) => r.metadata.name === currentRevision);
  if (current === undefined) return `revision ${currentRevision} is gone`;
  const learned = await learnLiveDurations(client, set, pods);
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
    remaining(updated) {
      const left = remainingAfter(runs, updated);
      const [p50, p90] = [percentile(left, 50), percentile(left, 90)];
      return p50 === undefined || p90 === undefined ? undefined : { p50, p90 };
    },
  };
}

/** `about 1m5s left (p90 1m30s), forecast from this set's pod timings` */
export function etaLine(eta: Eta, updated: number): string | undefined {
  const r = eta.remaining(updated);
  if (r === undefined) return undefined;
  const h = (s: number) => humanDuration(Math.round(s * 1000));
  return `about ${h(r.p50)} left (p90 ${h(r.p90)}), forecast from this set's pod timings`;
}
