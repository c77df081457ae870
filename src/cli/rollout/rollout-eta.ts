// The ETA `rollout status` shows during a rollout: the forecast of this rollout (the set at its current
// revision, the update revision applied; durations learned from its pods and the controller's events),
// refreshed with what has happened so far — with u pods updated, what remains is each simulated run's
// duration minus the moment it had u pods updated.

import { apiVersionOf, Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { applyRevision } from '../../api/revision/hash.js';
import type { KubeEvent, Pod, StatefulSet } from '../../api/types.js';
import { humanDuration } from '../explain/durations.js';
import { setHistory } from './rollout-history.js';

/** Runs of the forecast behind an ETA: enough for p50 and p90, quick enough to be there in a second. */
const ETA_RUNS = 10;

export interface Eta {
  /** Seconds left with `updated` pods updated: the median and the 90th percentile over the runs. */
  remaining(updated: number): { p50: number; p90: number } | undefined;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/**
 * The forecast of the rollout under way; undefined when no rollout is under way (a scale, OnDelete), a
 * sentence when it cannot be forecast.
 */
export async function forecastEta(client: ClusterClient, resource: Resource, set: StatefulSet, pods: readonly Pod[]): Promise<Eta | string | undefined> {
  const { currentRevision, updateRevision } = set.status ?? {};
  if (!currentRevision || !updateRevision || currentRevision === updateRevision || set.spec.updateStrategy?.type === 'OnDelete') return undefined;
  const current = (await setHistory(client, set)).find((r) => r.metadata.name === currentRevision);
  if (current === undefined) return `revision ${currentRevision} is gone`;
  const events = (await client.list<KubeEvent>(Resources.events, set.metadata.namespace ?? 'default')).items;
  // Loaded only now: the simulation brings in prom-client.
  const { learnDurations } = await import('../../sim/learned-durations.js');
  const { forecastRollout } = await import('../../sim/forecast.js');
  const learned = learnDurations(set, pods, events);
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
      const left = runs.flatMap((r) => {
        const at = r.updatedAt[Math.min(updated, r.updatedAt.length - 1)];
        return r.seconds === undefined || at === undefined ? [] : [Math.max(0, r.seconds - at)];
      });
      if (left.length === 0) return undefined;
      left.sort((a, b) => a - b);
      return { p50: percentile(left, 50), p90: percentile(left, 90) };
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
