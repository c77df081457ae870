// Driving processReplica over the slots: OrderedReady stops at the first blocker (one creation per sync,
// or one batch with batchStartPolicy: Together); Parallel visits every slot but creates at most
// MAX_CREATES_PER_SYNC pods, so that replicas: 2147483647 costs bounded work. Under EnforcedRollingUpdate
// the OrderedReady pass goes past broken pods (passCheck) and says so when that lets it create a pod.

import type { Pod } from '../../api/types.js';
import * as block from '../model/blockers.js';
import type { Item } from '../model/batches.js';
import { downIndices, type SyncContext } from '../rollout/sync-context.js';
import { passCheck, type PassedPod } from './enforced-rolling-update.js';
import { skippedBrokenPodEvent } from '../model/event-texts.js';
import { podName } from '../model/identity.js';
import type { Blocker, PlannedEvent } from '../model/plan-types.js';
import { ordinalOverflow, ordinalOverflowEvent } from '../model/ordinal-range.js';
import { claimTemplates } from '../model/claim-identity.js';
import { mergeAscending } from '../model/merge.js';
import { firstMissingIndex, missingIndices } from '../replica/replicas.js';
import { createReplica, processReplica, type ReplicaOutcome } from './process-replica.js';
import { isTerminating } from '../model/pod-state.js';
import type { Admit } from './proposal.js';

/** Upstream's slow start reaches 1,000 pods in 10 batches; more waits for the next sync. */
export const MAX_CREATES_PER_SYNC = 1000;

export interface PassResult {
  items: Item[];
  blockers: Blocker[];
  events: PlannedEvent[];
  /** OrderedReady stopped before the end (no condemned or update phase this sync). */
  stopped: boolean;
  created: number;
}

const emptyPass = (): PassResult => ({ items: [], blockers: [], events: [], stopped: false, created: 0 });

function record(result: PassResult, position: number, out: ReplicaOutcome): void {
  if (out.steps.some((step) => step.length > 0)) result.items.push({ position, steps: out.steps });
  result.events.push(...out.events);
  if (out.created) result.created++;
}

/**
 * Together: the lowest missing pod and the missing pods right above it in the update range, up to
 * maxUnavailable. The run stops at the first existing pod: a batch never skips over a pod that is not yet
 * available (the OrderedReady guarantee still holds between batches). A pod right above the run that is
 * still terminating belongs to the batch the update deleted: the batch waits for it (`waitFor`), so it is
 * created whole however the deletions' ends are spread.
 */
function togetherIndices(ctx: SyncContext, first: number): { indices: number[]; waitFor?: Pod } {
  const rollout = ctx.currentRevision !== ctx.updateRevision || ctx.rollback !== undefined;
  if (!ctx.strategy.together || first < ctx.strategy.partition || !rollout) return { indices: [first] };
  const out: number[] = [];
  for (const i of missingIndices(ctx.slots, first)) {
    if (out.length >= ctx.strategy.maxUnavailable || i !== first + out.length) break;
    out.push(i);
  }
  const next = ctx.slots.pod(first + out.length);
  if (out.length < ctx.strategy.maxUnavailable && next !== undefined && isTerminating(next)) return { indices: [], waitFor: next };
  return { indices: out };
}

/** Creates the Together batch as one item (all claims, then all pods, then claim refs), skipping blocked pods. */
function createTogether(ctx: SyncContext, first: number, result: PassResult): void {
  const batch = togetherIndices(ctx, first);
  if (batch.waitFor !== undefined) {
    result.blockers.push(block.terminating(batch.waitFor));
    return;
  }
  const outs = batch.indices.map((i) => createReplica(ctx, i));
  const width = outs.reduce((w, o) => Math.max(w, o.steps.length), 0);
  const steps = Array.from({ length: width }, (_, k) => outs.flatMap((o) => o.steps[k] ?? []));
  record(result, first, { steps, events: outs.flatMap((o) => o.events), created: false });
  result.created += outs.filter((o) => o.created).length;
  result.blockers.push(...outs.flatMap((o) => (o.stop ? [o.stop] : [])));
}

/** SkippedBrokenPod: the pass creates the pod at `index` above pods it went past. */
function skippedEvent(ctx: SyncContext, index: number, passed: readonly PassedPod[]): PlannedEvent {
  const skipped = passed.map((p) => ({ name: p.pod.metadata.name ?? '', state: p.state, belowPartition: p.belowPartition }));
  return skippedBrokenPodEvent(ctx.set, podName(ctx.set, ctx.slots.start + index), skipped, ctx.strategy.partition);
}

// upstream: stateful_set_control.go updateStatefulSet (runForAll(replicas, processReplica, monotonic=true))
function monotonicPass(ctx: SyncContext, admit: Admit): PassResult {
  const result = emptyPass();
  const passed: PassedPod[] = [];
  const missing = firstMissingIndex(ctx.slots);
  const create = (i: number): PassResult => {
    const before = result.created;
    createTogether(ctx, i, result);
    if (result.created > before && passed.length > 0) result.events.push(skippedEvent(ctx, i, passed));
    result.stopped = true;
    return result;
  };
  // every pod the pass would only walk past (Running, Ready, available, nothing to repair) is left out
  for (const i of needingPass(ctx)) {
    if (missing !== undefined && missing < i) return create(missing);
    const pod = ctx.slots.pod(i) as Pod;
    const out = processReplica(ctx, i, pod, admit);
    record(result, i, out);
    if (out.stop !== undefined) {
      result.blockers.push(out.stop);
      result.stopped = true;
      return result;
    }
    const check = passCheck(ctx, i, pod);
    if (check.passed !== undefined) passed.push(check.passed);
  }
  return missing === undefined ? result : create(missing);
}

/** Indices whose pod the replica pass has something to do with or stops at, ascending. */
function needingPass(ctx: SyncContext): Generator<number> {
  return mergeAscending(downIndices(ctx), ctx.slots.ascending(ctx.slots.index.needsRepair));
}

// upstream: stateful_set_control.go updateStatefulSet (runForAll(replicas, processReplica, monotonic=false))
function parallelPass(ctx: SyncContext, admit: Admit): PassResult {
  const result = emptyPass();
  // without the OrderedReady gate, a pod needs the pass only to be replaced, to get its missing claims or
  // to be repaired; every other one (Running or not) is left as it is
  const { slots } = ctx;
  const pending = claimTemplates(ctx.set).length > 0 ? slots.ascending(slots.index.pending) : [];
  for (const i of mergeAscending(slots.ascending(slots.index.finished), pending, slots.ascending(slots.index.needsRepair))) {
    const out = processReplica(ctx, i, ctx.slots.pod(i) as Pod, admit);
    record(result, i, out);
    if (out.stop?.kind === 'claimDeleting') result.blockers.push(out.stop);
  }
  const missingTotal = ctx.slots.count - ctx.slots.existing;
  let visited = 0;
  for (const i of missingIndices(ctx.slots)) {
    if (visited >= MAX_CREATES_PER_SYNC) break;
    visited++;
    const out = createReplica(ctx, i);
    record(result, i, out);
    if (out.stop !== undefined && out.stop.kind !== 'podCreating') result.blockers.push(out.stop);
  }
  if (visited < missingTotal) result.blockers.push({ kind: 'workCapped', remaining: missingTotal - visited, perSync: MAX_CREATES_PER_SYNC });
  result.items.sort((a, b) => a.position - b.position);
  return result;
}

export function replicaPass(ctx: SyncContext, admit: Admit): PassResult {
  const result = ctx.monotonic ? monotonicPass(ctx, admit) : parallelPass(ctx, admit);
  const overflow = ordinalOverflow(ctx.set);
  if (overflow !== undefined) {
    result.blockers.push(overflow);
    const event = ordinalOverflowEvent(ctx.set, overflow);
    if (event !== undefined) result.events.push(event);
  }
  return result;
}
