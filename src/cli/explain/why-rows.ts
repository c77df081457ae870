// The per-ordinal table of `why`: every ordinal of the range (missing ones too) and every condemned pod,
// bounded so that `replicas: 2147483647` prints a short table (rows with a note are always kept).

import type { Pod } from '../../api/types.js';
import { podOrdinal, podRevision } from '../../controller/model/pod-state.js';
import { missingIndices, partitionPods } from '../../controller/replica/replicas.js';
import type { ExplainContext } from './blocker-text.js';
import { humanDuration } from './durations.js';
import { podState, revisionMark } from './pod-view.js';

export interface WhyRow {
  ordinal: number;
  pod: string;
  /** Revision name ('' for a missing pod). */
  revision: string;
  mark: 'new' | 'old' | '';
  state: string;
  /** Time in state, kubectl AGE style ('' when unknown). */
  age: string;
  notes: string[];
}

export interface WhyRows {
  rows: WhyRow[];
  /** Ordinals left out of the table. */
  hidden: number;
}

/** Most rows `why` prints. */
export const MAX_ROWS = 60;

function podRow(pod: Pod, ctx: ExplainContext, notes: ReadonlyMap<string, string[]>, condemned: boolean): WhyRow {
  const name = pod.metadata.name ?? '';
  const s = podState(pod, ctx.minReadySeconds, ctx.now);
  const extra = condemned ? ['out of range: removed by scale-down'] : [];
  return {
    ordinal: podOrdinal(pod),
    pod: name,
    revision: podRevision(pod),
    mark: revisionMark(pod, ctx.updateRevision),
    state: s.state,
    age: s.since === undefined ? '' : humanDuration(ctx.now - s.since),
    notes: [...extra, ...(notes.get(name) ?? [])],
  };
}

function missingRow(ordinal: number, ctx: ExplainContext, notes: ReadonlyMap<string, string[]>): WhyRow {
  const pod = `${ctx.set.metadata.name ?? ''}-${ordinal}`;
  return { ordinal, pod, revision: '', mark: '', state: 'Missing', age: '', notes: notes.get(pod) ?? [] };
}

/** Rows sorted by ordinal: existing pods, missing ordinals (lazily, at most MAX_ROWS of them) and condemned pods. */
export function whyRows(pods: readonly Pod[], ctx: ExplainContext, notes: ReadonlyMap<string, string[]>): WhyRows {
  const slots = partitionPods(ctx.set, pods);
  const rows: WhyRow[] = [...slots.indices()].map((i) => podRow(slots.pod(i) as Pod, ctx, notes, false));
  let missing = slots.count - slots.existing;
  for (const i of missingIndices(slots)) {
    if (rows.length >= MAX_ROWS && !notes.has(`${ctx.set.metadata.name ?? ''}-${slots.start + i}`)) break;
    rows.push(missingRow(slots.start + i, ctx, notes));
    missing--;
  }
  rows.push(...slots.condemned.map((pod) => podRow(pod, ctx, notes, true)));
  rows.sort((a, b) => a.ordinal - b.ordinal);
  if (rows.length <= MAX_ROWS) return { rows, hidden: missing };
  const keep = new Set(rows.filter((r) => r.notes.length > 0).slice(0, MAX_ROWS));
  for (const r of rows) if (keep.size < MAX_ROWS) keep.add(r);
  const shown = rows.filter((r) => keep.has(r));
  return { rows: shown, hidden: missing + rows.length - shown.length };
}
