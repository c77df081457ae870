// The facts of one pod every sync reads (its ordinal, revision, phase, readiness and since when, whether it is
// terminating), worked out once per pod object: the informer replaces an object when it changes, so an object
// seen before has the same facts.

import { fromTimestamp, Labels, PodAnnotations, type Instant, type Pod } from '../../api/types.js';
import { parentNameAndOrdinal, readyCondition } from '../model/pod-state.js';
import { parseHookRecord, type HookRecord } from './hook-state.js';
import { gateState, type GateState } from '../model/readiness-gate.js';

export interface PodFacts {
  readonly pod: Pod;
  readonly name: string;
  /** The set name and ordinal the pod's name carries ('' and -1 when it carries none). */
  readonly parent: string;
  readonly ordinal: number;
  /** Its `controller-revision-hash` label ('' when absent). */
  readonly revision: string;
  readonly phase: string;
  /** The Ready condition is True. */
  readonly ready: boolean;
  /** Running and Ready (upstream isRunningAndReady). */
  readonly runningReady: boolean;
  /** Ready's lastTransitionTime when Ready is True (undefined when the time is missing). */
  readonly readySince: Instant | undefined;
  readonly terminating: boolean;
  readonly created: Instant | undefined;
  /** The revision its in-place annotation names (podUpdatePolicy: the pod is moving there), if any. */
  readonly movingTo: string | undefined;
  /** spec.lifecycle.preUpdate: what its annotation says of its hook (hook-state.ts), if anything. */
  readonly preUpdateHook: HookRecord | undefined;
  /** inPlaceUpdateStrategy: its readiness gate's condition (model/readiness-gate.ts); undefined without the gate. */
  readonly gate: GateState | undefined;
}

/** Facts by pod object, for one owner (a controller instance, a planner call): never module state. */
export class PodFactsCache {
  private readonly known = new WeakMap<Pod, PodFacts>();

  of(pod: Pod): PodFacts {
    let facts = this.known.get(pod);
    if (facts === undefined) {
      facts = podFacts(pod);
      this.known.set(pod, facts);
    }
    return facts;
  }
}

export function podFacts(pod: Pod): PodFacts {
  const name = pod.metadata.name ?? '';
  const { parent, ordinal } = parentNameAndOrdinal(name);
  const ready = readyCondition(pod);
  const isReady = ready?.status === 'True';
  const phase = pod.status?.phase ?? '';
  const deletion = pod.metadata.deletionTimestamp;
  return {
    pod,
    name,
    parent,
    ordinal,
    revision: pod.metadata.labels?.[Labels.revisionHash] ?? '',
    phase,
    ready: isReady,
    runningReady: phase === 'Running' && isReady,
    readySince: isReady ? fromTimestamp(ready.lastTransitionTime) : undefined,
    terminating: typeof deletion === 'string' && deletion !== '',
    created: fromTimestamp(pod.metadata.creationTimestamp),
    movingTo: pod.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision],
    preUpdateHook: parseHookRecord(pod.metadata.annotations?.[PodAnnotations.preUpdateHook]),
    gate: gateState(pod),
  };
}

/**
 * When a Ready pod is (or was) first available: Ready's lastTransitionTime + minReadySeconds; −∞ with
 * minReadySeconds 0 and no time; undefined when it is not Ready, or minReadySeconds > 0 and the time is
 * missing (never available). As pod-state.ts podAvailableAt.
 */
export function availableAt(f: PodFacts, minReadySeconds: number): Instant | undefined {
  if (!f.ready) return undefined;
  if (minReadySeconds <= 0) return f.readySince ?? Number.NEGATIVE_INFINITY;
  return f.readySince === undefined ? undefined : f.readySince + minReadySeconds * 1000;
}
