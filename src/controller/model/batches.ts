// Upstream's runForAll/slowStartBatch as data: each item (a pod) contributes sequential steps
// (each step a list of actions that may run together); the writer assigns batch numbers so that the
// executor's "batch k only after batch k−1 fully succeeded" reproduces upstream's stop-at-first-error.

import type { Action } from './plan-types.js';

/** upstream: stateful_set_control.go MaxBatchSize */
export const MAX_BATCH_SIZE = 500;

/** The actions of one pod, in upstream's order; each inner list may run concurrently. */
export type Steps = Action[][];

export interface Item {
  /** Position of the pod in upstream's slice (index for replicas, position in the descending condemned list). */
  position: number;
  steps: Steps;
}

/** Which slow-start batch (1, 2, 4, …, 256, then 500 each) holds the item at `position`. */
// upstream: stateful_set_control.go slowStartBatch
export function slowStartGroup(position: number): number {
  const doubling = 511; // 1 + 2 + … + 256
  if (position < doubling) return Math.floor(Math.log2(position + 1));
  return 9 + Math.floor((position - doubling) / MAX_BATCH_SIZE);
}

export class BatchWriter {
  private next: number;
  readonly actions: Action[] = [];

  constructor(firstBatch = 1) {
    this.next = firstBatch;
  }

  private put(step: Action[], batch: number): void {
    for (const a of step) this.actions.push({ ...a, batch });
  }

  /** OrderedReady (monotonic) order: every non-empty step of every item is its own batch, in order. */
  sequential(items: readonly Item[]): void {
    for (const item of items) {
      for (const step of item.steps) {
        if (step.length === 0) continue;
        this.put(step, this.next++);
      }
    }
  }

  /** Parallel order: items grouped by slow-start batch; a pod's k-th step goes to its group's k-th batch. */
  slowStart(items: readonly Item[]): void {
    const width = items.reduce((w, i) => Math.max(w, i.steps.length), 1);
    let last = this.next - 1;
    for (const item of items) {
      const base = this.next + slowStartGroup(item.position) * width;
      item.steps.forEach((step, k) => {
        if (step.length === 0) return;
        this.put(step, base + k);
        last = Math.max(last, base + k);
      });
    }
    this.next = last + 1;
  }

  /** Items in either order, by pod management policy. */
  runForAll(items: readonly Item[], monotonic: boolean): void {
    if (monotonic) this.sequential(items);
    else this.slowStart(items);
  }
}

/**
 * Final ordering: actions sorted by batch (stable), batch numbers made dense from 0, `deleteRevision`
 * actions moved to a last batch of their own.
 */
export function finalizeBatches(actions: readonly Action[]): Action[] {
  const history = actions.filter((a) => a.kind === 'deleteRevision');
  const rest = actions.filter((a) => a.kind !== 'deleteRevision');
  const order = rest.map((a, i) => [a, i] as const).sort(([a, i], [b, j]) => a.batch - b.batch || i - j);
  const dense = new Map<number, number>();
  for (const [a] of order) if (!dense.has(a.batch)) dense.set(a.batch, dense.size);
  const out = order.map(([a]) => ({ ...a, batch: dense.get(a.batch) as number }));
  const lastBatch = dense.size;
  return [...out, ...history.map((a) => ({ ...a, batch: lastBatch }))];
}
