// One set's Converged (converged.ts) kept from the writes that touch it, so the check after a pod write reads
// that pod, not all of them: the pods that keep the set from converging are remembered (re-read only when
// the set's revisions, partition, range or minReadySeconds change), with the revision and ordinal counts the
// status is compared with. A Ready pod still inside minReadySeconds becomes available with time alone: those
// few are read again at every check. Why a set is not converged is worked out only when asked, by the full
// check on the same set, pods and instant (the same reason, the first pod in order).

import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { isRunningAndReady, podOrdinal, podRevision } from '../controller/model/pod-state.js';
import { isRollingBack, movingTo } from '../controller/rollout/rollback.js';
import type { WorkCounters } from '../runtime/work-counters.js';
import { convergence, countersAgree, effectivePartition, podProblem, rangeOf } from './converged.js';

interface Facts {
  ordinal: number;
  onUpdate: boolean;
  onCurrent: boolean;
}

/** What podProblem reads of the set (besides the pod and the instant). */
function paramsOf(set: StatefulSet): string {
  const s = set.status;
  const { start, replicas } = rangeOf(set);
  return JSON.stringify([s?.updateRevision, s?.currentRevision, s && movingTo(s), isRollingBack(s), effectivePartition(set), start, replicas, set.spec.minReadySeconds ?? 0]);
}

export class ConvergenceMemo {
  private params: string | undefined;
  private readonly problems = new Set<string>();
  /** Ready pods not yet available for minReadySeconds: converging with time, read at every check. */
  private readonly timed = new Map<string, Pod>();
  private readonly facts = new Map<string, Facts>();
  private readonly ordinals = new Map<number, number>();
  private counts = { update: 0, current: 0 };

  constructor(private readonly counters?: WorkCounters) {}

  /**
   * Whether `set` is converged with `pods` at `now`, given that of its pods only those in `changed` were
   * written since the last check (undefined: any may have been).
   */
  converged(set: StatefulSet, pods: ReadonlyMap<string, Pod>, now: Instant, changed: Iterable<string> | undefined): boolean {
    const status = set.status;
    const params = paramsOf(set);
    if (params !== this.params || changed === undefined) {
      this.params = params;
      this.clear();
      for (const [key, pod] of pods) this.read(set, key, pod, now);
    } else {
      for (const key of changed) this.read(set, key, pods.get(key), now);
      for (const [key, pod] of [...this.timed]) this.read(set, key, pod, now);
    }
    if (!status || status.observedGeneration !== set.metadata.generation || !status.updateRevision) return false;
    const { replicas } = rangeOf(set);
    if (pods.size < replicas || this.problems.size > 0 || this.ordinals.size !== replicas) return false;
    return countersAgree(set, replicas, this.counts).converged;
  }

  /** Why not (converged.ts's reason for the same state). */
  reason(set: StatefulSet, pods: ReadonlyMap<string, Pod>, now: Instant): string | undefined {
    return convergence(set, pods, now).reason;
  }

  private clear(): void {
    this.problems.clear();
    this.timed.clear();
    this.facts.clear();
    this.ordinals.clear();
    this.counts = { update: 0, current: 0 };
  }

  /** The pod under `key` is now `pod` (undefined: it left the set). */
  private read(set: StatefulSet, key: string, pod: Pod | undefined, now: Instant): void {
    this.forget(key);
    if (pod === undefined) return;
    this.counters?.count('sim.podsChecked');
    const status = set.status;
    const revision = podRevision(pod);
    const f: Facts = { ordinal: podOrdinal(pod), onUpdate: status !== undefined && revision === status.updateRevision, onCurrent: status !== undefined && revision === status.currentRevision };
    this.facts.set(key, f);
    this.ordinals.set(f.ordinal, (this.ordinals.get(f.ordinal) ?? 0) + 1);
    this.counts.update += Number(f.onUpdate);
    this.counts.current += Number(f.onCurrent);
    if (status === undefined) return void this.problems.add(key);
    const { start, replicas } = rangeOf(set);
    const problem = podProblem(set, pod, now, start, replicas, { update: 0, current: 0 });
    if (problem === undefined) return;
    this.problems.add(key);
    if (isRunningAndReady(pod) && problem.endsWith(' is not available')) this.timed.set(key, pod);
  }

  private forget(key: string): void {
    const f = this.facts.get(key);
    if (f === undefined) return;
    this.facts.delete(key);
    const n = (this.ordinals.get(f.ordinal) ?? 0) - 1;
    if (n > 0) this.ordinals.set(f.ordinal, n);
    else this.ordinals.delete(f.ordinal);
    this.counts.update -= Number(f.onUpdate);
    this.counts.current -= Number(f.onCurrent);
    this.problems.delete(key);
    this.timed.delete(key);
  }
}
