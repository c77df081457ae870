// Ready → next action: how long a controller takes to act once what it waited for has happened. For each
// batch of its pod operations (differential-trace.ts's timing rule), the time since the latest pod that
// became available (Ready + minReadySeconds) or disappeared after the previous batch — unless a step (a
// spec change) came in between, in which case the batch answers the step, not the pod.
import { BATCH_GAP_MS } from '../../test/e2e/differential-trace.js';
import type { PodEvent } from '../../test/e2e/observer.js';

export function readyToAction(events: readonly PodEvent[], stepTimes: readonly number[], minReadySeconds = 0): number[] {
  const ops = events.filter((e) => e.type === 'Created' || e.type === 'Terminating');
  const triggers = events
    .filter((e) => e.type === 'Ready' || e.type === 'Deleted')
    .map((e) => ({ at: e.type === 'Ready' ? e.at + minReadySeconds * 1000 : e.at }))
    .sort((a, b) => a.at - b.at);
  const out: number[] = [];
  let lastOp = -Infinity;
  for (const op of ops) {
    const newBatch = op.at - lastOp >= BATCH_GAP_MS;
    const previous = lastOp;
    lastOp = op.at;
    if (!newBatch) continue;
    const trigger = triggers.filter((t) => t.at > previous && t.at <= op.at).at(-1);
    if (!trigger || stepTimes.some((s) => s > trigger.at && s <= op.at)) continue;
    out.push(op.at - trigger.at);
  }
  return out;
}

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
