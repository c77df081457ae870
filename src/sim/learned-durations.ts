// How long this set's pods take, learned from what the cluster already records, for a forecast:
// - start: creation → Ready (the pod's Ready condition's lastTransitionTime) of every Ready pod;
// - termination: deletion requested → pod gone. The controller's `SuccessfulDelete` event for a pod marks the
//   request, and its `SuccessfulCreate` event for the same name the moment the old pod was gone (the
//   controller creates it again at once) — except under OrderedReady when a lower ordinal was created in
//   between: the creation then waited for that pod to be Ready, a start already counted on its own, so the
//   pair is left out. A pair longer than the grace period is not a termination either (the kubelet kills the
//   pod then): a scale-down followed by a scale-up, say. Deletions a watch saw end (rollout status) are
//   direct observations and come first. Nothing observed (Events expire after an hour by default): the pod
//   template's grace period, an upper bound, and the source says so.
// Each measured value becomes three samples, ±0.5 s, for the whole-second timestamps
// (controller/learned-durations.ts, which the controller's own learning shares).

import type { KubeEvent, Pod, StatefulSet } from '../api/types.js';
import { fromTimestamp } from '../api/types.js';
import { parentNameAndOrdinal } from '../controller/model/pod-state.js';
import { startSecondsOf, wholeSecondSamples, type LearnedSeconds } from '../controller/model/learned-durations.js';

export type { LearnedSeconds } from '../controller/model/learned-durations.js';
export { wholeSecondSamples } from '../controller/model/learned-durations.js';

export interface LearnedDurations {
  start: LearnedSeconds;
  termination: LearnedSeconds;
}

/** A pod seen going: deletion requested (deletionTimestamp − grace period, whole seconds) → gone (when the watch saw it). */
export interface WatchedTermination {
  pod: string;
  seconds: number;
}

const DEFAULT_GRACE_SECONDS = 30;

function startSamples(pods: readonly Pod[]): LearnedSeconds {
  const measured = pods.map(startSecondsOf).filter((s) => s !== undefined);
  return { samples: measured.flatMap(wholeSecondSamples), source: `creation → Ready of ${measured.length} pod${measured.length === 1 ? '' : 's'}, ±0.5 s` };
}

/** `delete Pod web-3 in StatefulSet web successful` → web-3 (upstream's message, Ordinal's too). */
const podOfMessage = (message: string | undefined): string | undefined => /^(?:create|delete) Pod (\S+) in StatefulSet /.exec(message ?? '')?.[1];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The latest SuccessfulDelete and SuccessfulCreate of each pod of the set, from its controller's events. */
function latestDeleteAndCreate(set: StatefulSet, events: readonly KubeEvent[]): Map<string, { deleted?: number; created?: number }> {
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
  return last;
}

/** Deletion → gone from the events (see the header): the pairs kept, and how many were left out as waits. */
function eventTerminations(set: StatefulSet, events: readonly KubeEvent[], graceSeconds: number): { measured: number[]; waited: number } {
  const last = latestDeleteAndCreate(set, events);
  const ordered = set.spec.podManagementPolicy !== 'Parallel';
  const createdBetween = (ordinal: number, from: number, to: number) =>
    [...last].some(([name, p]) => parentNameAndOrdinal(name).ordinal < ordinal && p.created !== undefined && p.created > from && p.created < to);
  const measured: number[] = [];
  let waited = 0;
  for (const [name, { deleted, created }] of last) {
    if (deleted === undefined || created === undefined || created < deleted) continue;
    // +1: whole-second timestamps
    if ((created - deleted) / 1000 > graceSeconds + 1) continue;
    if (ordered && createdBetween(parentNameAndOrdinal(name).ordinal, deleted, created)) waited++;
    else measured.push((created - deleted) / 1000);
  }
  return { measured, waited };
}

function terminationSamples(set: StatefulSet, events: readonly KubeEvent[], watched: readonly WatchedTermination[], graceSeconds: number): LearnedSeconds | undefined {
  const fromEvents = eventTerminations(set, events, graceSeconds);
  const measured = [...watched.map((w) => w.seconds), ...fromEvents.measured];
  if (measured.length === 0) return undefined;
  const sources = [
    ...(watched.length > 0 ? [`deletion → gone of ${plural(watched.length, 'pod')} watched`] : []),
    ...(fromEvents.measured.length > 0 ? [`SuccessfulDelete → SuccessfulCreate events of ${plural(fromEvents.measured.length, 'pod')}`] : []),
  ];
  const left = fromEvents.waited > 0 ? `; ${fromEvents.waited} left out, created only after a lower ordinal was Ready` : '';
  return { samples: measured.flatMap(wholeSecondSamples), source: `${sources.join(' and ')}, ±0.5 s${left}` };
}

/**
 * What the cluster tells about this set's pods (and what a watch saw); `start.samples` is empty when no pod
 * is Ready.
 */
export function learnDurations(set: StatefulSet, pods: readonly Pod[], events: readonly KubeEvent[], watched: readonly WatchedTermination[] = []): LearnedDurations {
  const grace = set.spec.template.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  return {
    start: startSamples(pods),
    termination: terminationSamples(set, events, watched, grace) ?? {
      samples: [grace],
      source: `the grace period (${grace} s), an upper bound: no pod deletion seen to its end yet`,
      upperBound: true,
    },
  };
}
