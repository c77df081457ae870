// How long this set's pods take, learned from what the cluster already records, for a forecast:
// - start: creation → Ready (the pod's Ready condition's lastTransitionTime) of every Ready pod;
// - termination: from the controller's `SuccessfulDelete` event for a pod to its `SuccessfulCreate` event for
//   the same name (an update deletes a pod and creates it again when the old one is gone), as upstream's
//   controller and Ordinal both record them; without such pairs (Events expire after an hour by default),
//   the pod template's grace period, an upper bound.
// API timestamps have whole seconds, so a difference of two of them is the true duration give or take a
// second: each measured value becomes three samples, itself and half a second either side, so that the
// forecast's spread covers that uncertainty (without it, eight pods all measured at 2 s forecast exactly
// 16 s for what takes 8 × 2.2 s).

import type { KubeEvent, Pod, StatefulSet } from '../api/types.js';
import { fromTimestamp } from '../api/types.js';

export interface LearnedSeconds {
  samples: number[];
  /** Where the samples come from, for people. */
  source: string;
}

export interface LearnedDurations {
  start: LearnedSeconds;
  termination: LearnedSeconds;
}

const DEFAULT_GRACE_SECONDS = 30;

function readySince(pod: Pod): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return ready?.status === 'True' ? fromTimestamp(ready.lastTransitionTime) : undefined;
}

/** A duration measured between whole-second timestamps, as samples around it (see the header). */
export const wholeSecondSamples = (seconds: number): number[] => [seconds - 0.5, seconds, seconds + 0.5].filter((s) => s >= 0);

function startSamples(pods: readonly Pod[]): LearnedSeconds {
  const measured: number[] = [];
  for (const pod of pods) {
    const created = fromTimestamp(pod.metadata.creationTimestamp);
    const ready = readySince(pod);
    if (created !== undefined && ready !== undefined && ready >= created) measured.push((ready - created) / 1000);
  }
  return { samples: measured.flatMap(wholeSecondSamples), source: `creation → Ready of ${measured.length} pod${measured.length === 1 ? '' : 's'}, ±0.5 s` };
}

/** `delete Pod web-3 in StatefulSet web successful` → web-3 (upstream's message, Ordinal's too). */
const podOfMessage = (message: string | undefined): string | undefined => /^(?:create|delete) Pod (\S+) in StatefulSet /.exec(message ?? '')?.[1];

function terminationSamples(set: StatefulSet, events: readonly KubeEvent[]): LearnedSeconds | undefined {
  const last = new Map<string, { deleted?: number; created?: number }>();
  for (const e of events) {
    const involved = e.involvedObject;
    if (involved.kind !== 'StatefulSet' || involved.name !== set.metadata.name) continue;
    if (involved.uid !== undefined && set.metadata.uid !== undefined && involved.uid !== set.metadata.uid) continue;
    const pod = podOfMessage(e.message);
    const at = fromTimestamp(e.lastTimestamp ?? e.firstTimestamp);
    if (pod === undefined || at === undefined) continue;
    const entry = last.get(pod) ?? {};
    if (e.reason === 'SuccessfulDelete') entry.deleted = Math.max(entry.deleted ?? at, at);
    else if (e.reason === 'SuccessfulCreate') entry.created = Math.max(entry.created ?? at, at);
    last.set(pod, entry);
  }
  const measured = [...last.values()].flatMap((p) => (p.deleted !== undefined && p.created !== undefined && p.created >= p.deleted ? [(p.created - p.deleted) / 1000] : []));
  if (measured.length === 0) return undefined;
  return { samples: measured.flatMap(wholeSecondSamples), source: `SuccessfulDelete → SuccessfulCreate events of ${measured.length} pod${measured.length === 1 ? '' : 's'}, ±0.5 s` };
}

/** What the cluster tells about this set's pods; `start.samples` is empty when no pod is Ready. */
export function learnDurations(set: StatefulSet, pods: readonly Pod[], events: readonly KubeEvent[]): LearnedDurations {
  const grace = set.spec.template.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  return {
    start: startSamples(pods),
    termination: terminationSamples(set, events) ?? {
      samples: [grace],
      source: `the grace period (${grace} s), an upper bound: no SuccessfulDelete → SuccessfulCreate events to learn from`,
    },
  };
}
