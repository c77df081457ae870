// The timing rule that groups pod operations into batches (differential-trace.ts), and the one relaxation
// the simulator comparison allows: a batch made at one instant, seen split on a loaded machine.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BATCH_GAP_MS, mergeSplitBatches, timedBatches, type TimedBatch } from './differential-trace.js';
import type { PodEvent } from './observer.js';

const created = (name: string, at: number): PodEvent => ({ seq: at, at, type: 'Created', name, ordinal: 0, uid: `${name}@${at}`, revision: 'r', pod: undefined as never });
const batch = (start: number, end: number, ...ops: string[]): TimedBatch => ({ start, end, ops });

describe('batches', () => {
  it('groups operations less than BATCH_GAP_MS apart, chained from the last one', () => {
    const got = timedBatches([created('a-0', 0), created('a-1', 400), created('a-2', 400 + BATCH_GAP_MS)], new Set());
    assert.deepEqual(got, [batch(0, 400, '+a-0 r', '+a-1 r'), batch(1000, 1000, '+a-2 r')]);
  });

  it('merges consecutive pieces of one guide batch when no pod became Ready between them, and nothing else', () => {
    const guide = [batch(0, 0, '+t-3 r', '+t-4 r', '+t-5 r'), batch(5000, 5000, '-t-0 r')];
    const split = [batch(100, 100, '+t-3 r'), batch(800, 820, '+t-4 r', '+t-5 r'), batch(5100, 5100, '-t-0 r')];
    const merged = [batch(100, 820, '+t-3 r', '+t-4 r', '+t-5 r'), batch(5100, 5100, '-t-0 r')];
    assert.deepEqual(mergeSplitBatches(split, guide, [4000]), merged);
    // throttled pieces far apart are still one batch when nothing they could wait for happened between them
    const slow = [batch(100, 100, '+t-3 r'), batch(1700, 1700, '+t-4 r', '+t-5 r')];
    assert.deepEqual(mergeSplitBatches(slow, guide, []), [batch(100, 1700, '+t-3 r', '+t-4 r', '+t-5 r')]);
    // a pod became Ready between the pieces: the later one may have waited for it, so the difference shows
    assert.deepEqual(mergeSplitBatches(slow, guide, [1200]), slow);
    // a union that is not one of the guide's batches stays as it was
    const other = [batch(100, 100, '+t-3 r'), batch(300, 300, '+t-9 r')];
    assert.deepEqual(mergeSplitBatches(other, guide, []), other);
  });
});
