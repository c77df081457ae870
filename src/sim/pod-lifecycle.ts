// Derives the timeline's pod lifecycle events (Created, Scheduled, Running, Restarted, Ready, NotReady, Failed,
// Terminating, Deleted) from successive stored versions of a pod, so the timeline reads the same whoever
// wrote the status (the simulated kubelet here, a real one elsewhere).

import type { Pod } from '../api/types.js';
import type { PodEvent } from './timeline.js';
import { isTerminating, waitingStates } from '../controller/model/pod-state.js';

export interface PodView {
  scheduled: boolean;
  running: boolean;
  ready: boolean;
  failed: boolean;
  terminating: boolean;
  /** The images its containers report, in order ('' for none). */
  images: string;
}

export function podView(pod: Pod): PodView {
  const conditions = pod.status?.conditions ?? [];
  const scheduled = !!pod.spec?.nodeName || conditions.some((c) => c.type === 'PodScheduled' && c.status === 'True');
  return {
    scheduled,
    running: pod.status?.phase === 'Running',
    ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    failed: pod.status?.phase === 'Failed',
    terminating: !!pod.metadata.deletionTimestamp,
    images: (pod.status?.containerStatuses ?? []).map((c) => c.image ?? '').join(' '),
  };
}

/** Reasons that only say the container is being created: not why a pod is stuck. */
const CREATING = new Set(['ContainerCreating', 'PodInitializing']);

/** The first waiting reason and message that explain a stuck pod, if any. */
export function waitingOf(pod: Pod | undefined): { reason: string; message: string } | undefined {
  if (pod === undefined || isTerminating(pod)) return undefined;
  return waitingStates(pod).find((w) => !CREATING.has(w.reason));
}

const NONE: PodView = { scheduled: false, running: false, ready: false, failed: false, terminating: false, images: '' };

/**
 * Events between two versions of one pod. `prev` undefined: the pod was just created; `next` undefined:
 * it was removed from the API (a removal without a prior deletion request still reports Terminating).
 */
export function lifecycleEvents(prev: PodView | undefined, next: PodView | undefined): PodEvent[] {
  const out: PodEvent[] = [];
  if (prev === undefined) out.push('Created');
  const a = prev ?? NONE;
  if (next === undefined) {
    if (!a.terminating) out.push('Terminating');
    out.push('Deleted');
    return out;
  }
  if (!a.scheduled && next.scheduled) out.push('Scheduled');
  if (!a.running && next.running) out.push('Running');
  // a container reports another image on the same pod: restarted in place
  if (a.images !== '' && next.images !== '' && a.images !== next.images) out.push('Restarted');
  if (!a.ready && next.ready) out.push('Ready');
  if (a.ready && !next.ready) out.push('NotReady');
  if (!a.failed && next.failed) out.push('Failed');
  if (!a.terminating && next.terminating) out.push('Terminating');
  return out;
}
