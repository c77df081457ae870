// What `rollout status --watch` shows: on a terminal, the demo's live view (a staged rollout's current step,
// pods per ordinal with state, time in state, revision) redrawn in place; otherwise plain lines — the status message when it changes and
// one line per pod that changed state or revision. Pure: frames are text.

import type { Instant, Pod, StatefulSet } from '../../api/types.js';
import { podOrdinal, podRevision } from '../../controller/model/pod-state.js';
import { revisionMark } from '../../controller/rollout/rollback.js';
import { currentStepLine } from '../../report/current-step.js';
import { minReadySecondsOf } from '../../controller/model/spec.js';
import { humanDuration } from '../explain/durations.js';
import { ANSI, painter } from '../explain/io.js';
import { podState } from '../explain/pod-view.js';
import { renderTable } from '../explain/table.js';

export interface WatchPodRow {
  ordinal: number;
  pod: string;
  state: string;
  age: string;
  revision: string;
  mark: ReturnType<typeof revisionMark>;
  available: boolean;
}

/** Most pods drawn in the live view. */
export const MAX_LIVE_ROWS = 40;

export function watchRows(set: StatefulSet, pods: readonly Pod[], now: Instant): WatchPodRow[] {
  const mrs = minReadySecondsOf(set);
  return pods
    .map((pod) => {
      const s = podState(pod, mrs, now);
      const revision = podRevision(pod);
      return {
        ordinal: podOrdinal(pod),
        pod: pod.metadata.name ?? '',
        state: s.state === 'Ready' && !s.available ? 'Ready (not yet available)' : s.state,
        age: s.since === undefined ? '-' : humanDuration(now - s.since),
        revision,
        mark: revisionMark(set.status, revision),
        available: s.available,
      };
    })
    .sort((a, b) => a.ordinal - b.ordinal);
}

function stateColor(row: WatchPodRow): string {
  if (row.available) return ANSI.green;
  if (row.state === 'Terminating' || row.state === 'Failed' || row.state.endsWith('BackOff') || row.state.startsWith('Err')) return ANSI.red;
  return ANSI.yellow;
}

export interface LiveFrame {
  title: string;
  message: string;
  set: StatefulSet;
  rows: WatchPodRow[];
  /** The rollout's ETA line, when there is one. */
  eta?: string;
  /** When the frame is drawn: a staged rollout's bake or readiness window then says what is left. */
  now?: Instant;
}

/** The live view's lines. */
export function renderLiveFrame(frame: LiveFrame, opts: { color: boolean }): string[] {
  const paint = painter(opts.color);
  const s = frame.set.status;
  const counters =
    `replicas ${s?.replicas ?? 0}/${frame.set.spec.replicas ?? 1}  ready ${s?.readyReplicas ?? 0}  available ${s?.availableReplicas ?? 0}` +
    `  updated ${s?.updatedReplicas ?? 0}  current ${s?.currentReplicas ?? 0}`;
  const cells = frame.rows.slice(0, MAX_LIVE_ROWS).map((r) => [
    String(r.ordinal),
    r.pod,
    paint(stateColor(r), r.state),
    r.age,
    paint(r.mark === 'new' || r.mark === 'back' ? ANSI.cyan : ANSI.magenta, `${r.revision || '-'} (${r.mark})`),
  ]);
  const step = currentStepLine(frame.set, frame.now);
  const lines = [paint(ANSI.bold, frame.title), counters, ...(step === undefined ? [] : [paint(s?.currentStepState === 'Failed' ? ANSI.red : ANSI.cyan, step)]), ...renderTable(['ORDINAL', 'POD', 'STATE', 'FOR', 'REVISION'], cells).map((l) => `  ${l}`)];
  if (frame.rows.length > MAX_LIVE_ROWS) lines.push(paint(ANSI.dim, `  … ${frame.rows.length - MAX_LIVE_ROWS} more pods`));
  if (frame.eta !== undefined) lines.push(paint(ANSI.dim, frame.eta));
  lines.push(frame.message);
  return lines;
}

/** Plain lines for the pods not available at the first look (those that hold the rollout), with their time in state. */
export function holdingPods(rows: readonly WatchPodRow[]): string[] {
  return rows.filter((r) => !r.available).map((r) => `  ${r.pod}: ${r.state}${r.age === '-' ? '' : ` for ${r.age}`} (revision ${r.revision || '-'})`);
}

const key = (r: WatchPodRow): string => `${r.state}|${r.revision}`;

/**
 * Plain lines for pods that appeared, changed state or revision, or disappeared since `previous`. The line
 * names the revision, not new/old: the status naming the update revision may arrive after the pod event.
 */
export function podChanges(previous: ReadonlyMap<string, WatchPodRow>, rows: readonly WatchPodRow[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    seen.add(r.pod);
    const before = previous.get(r.pod);
    if (before !== undefined && key(before) === key(r)) continue;
    const from = before === undefined ? '' : `${before.state} -> `;
    out.push(`  ${r.pod}: ${from}${r.state} (revision ${r.revision || '-'})`);
  }
  for (const name of previous.keys()) if (!seen.has(name)) out.push(`  ${name}: deleted`);
  return out;
}
