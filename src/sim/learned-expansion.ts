// How long this cluster takes to grow a claim, learned from the Events its storage records on the claims, for a
// forecast of a claim-template change: from the resizer's `Resizing` to the first `VolumeResizeSuccessful`
// (the external resizer, or the volume expand controller) or `FileSystemResizeSuccessful` (the kubelet, for
// an expansion it finishes) after it, the latest resize of each claim. Whole-second timestamps: each measure is
// three samples, ±0.5 s (learned-durations.ts).

import { fromTimestamp, type KubeEvent, type PersistentVolumeClaim } from '../api/types.js';
import { wholeSecondSamples, type LearnedSeconds } from './learned-durations.js';

/** The simulated storage's own expansion time (`cluster.storage.expansionSeconds`'s default). */
export const DEFAULT_EXPANSION_SECONDS = 10;

const RESIZED = new Set(['VolumeResizeSuccessful', 'FileSystemResizeSuccessful']);

/** `claims`' expansion times from `events` (the namespace's); the simulator's default when none is recorded. */
export function learnExpansion(claims: readonly PersistentVolumeClaim[], events: readonly KubeEvent[]): LearnedSeconds {
  const names = new Set(claims.map((c) => c.metadata.name ?? ''));
  const byClaim = new Map<string, { started?: number; done: number[] }>();
  for (const e of events) {
    const o = e.involvedObject;
    if (o.kind !== 'PersistentVolumeClaim' || !names.has(o.name ?? '')) continue;
    const entry = byClaim.get(o.name ?? '') ?? { done: [] };
    byClaim.set(o.name ?? '', entry);
    const last = fromTimestamp(e.lastTimestamp ?? e.firstTimestamp);
    if (last === undefined) continue;
    if (e.reason === 'Resizing') entry.started = Math.max(entry.started ?? last, last);
    else if (RESIZED.has(e.reason ?? '')) entry.done.push(fromTimestamp(e.firstTimestamp) ?? last, last);
  }
  const measured = [...byClaim.values()].flatMap(({ started, done }) => {
    const end = started === undefined ? undefined : Math.min(...done.filter((t) => t >= started));
    return started === undefined || end === undefined || !Number.isFinite(end) ? [] : [(end - started) / 1000];
  });
  if (measured.length === 0) return { samples: [DEFAULT_EXPANSION_SECONDS], source: `the simulator's default (${DEFAULT_EXPANSION_SECONDS} s): no Resizing → VolumeResizeSuccessful events to learn from` };
  return { samples: measured.flatMap(wholeSecondSamples), source: `Resizing → VolumeResizeSuccessful events of ${measured.length} claim${measured.length === 1 ? '' : 's'}, ±0.5 s` };
}
