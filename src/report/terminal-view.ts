// The demo's live terminal view: pods per ordinal (state, revision, readiness), the status counters of
// each StatefulSet and a staged rollout's current step. `frameOf` reads the simulator's view; `renderFrame` is pure text (ANSI colour optional).

import type { Instant, Pod, StatefulSet } from '../api/types.js';
import { findCondition } from '../controller/model/conditions.js';
import { isRunningAndReady, isTerminating, isUnavailable, podOrdinal, podRevision, stateSince, waitingStates } from '../controller/model/pod-state.js';
import { isRollingBack, movingTo, revisionMark } from '../controller/rollout/rollback.js';
import type { SimState } from '../sim/state.js';
import { currentStepLine } from './current-step.js';

export interface PodRow {
  ordinal: number;
  pod: string;
  state: string;
  revision: string;
  ready: boolean;
  available: boolean;
  /** Seconds in this state (since Ready, deletion or creation). */
  forSeconds: number;
}

export interface SetFrame {
  name: string;
  status: StatefulSet['status'];
  /** The revision the pods move to: the update revision, or during an aborted rollout the one they go back to. */
  updateRevision: string;
  rows: PodRow[];
  /** A staged rollout's current step in words (current-step.ts). */
  step?: string;
}

export interface Frame {
  t: number;
  sets: SetFrame[];
  notes: string[];
}

const MAX_ROWS = 40;

function podState(pod: Pod): string {
  if (isTerminating(pod)) return 'Terminating';
  const waiting = waitingStates(pod)[0]?.reason;
  if (isRunningAndReady(pod)) return 'Ready';
  if (waiting && waiting !== 'ContainerCreating') return waiting;
  const phase = pod.status?.phase ?? 'Pending';
  return phase === 'Running' ? 'Running' : phase;
}

export function frameOf(state: SimState, now: Instant, t: number, notes: string[] = []): Frame {
  const sets = state.allSets().map(({ key, set }) => {
    const mrs = set.spec.minReadySeconds ?? 0;
    const rows = state
      .podsOf(key)
      .map((pod) => ({
        ordinal: podOrdinal(pod),
        pod: pod.metadata.name ?? '',
        state: podState(pod),
        revision: podRevision(pod),
        ready: isRunningAndReady(pod),
        available: !isUnavailable(pod, mrs, now),
        forSeconds: Math.max(0, Math.floor((now - (stateSince(pod) ?? now)) / 1000)),
      }))
      .sort((a, b) => a.ordinal - b.ordinal);
    const step = currentStepLine(set, now);
    return { name: set.metadata.name ?? '', status: set.status, updateRevision: movingTo(set.status) ?? '', rows, ...(step !== undefined ? { step } : {}) };
  });
  return { t, sets, notes };
}

const ANSI = { reset: '\x1b[0m', dim: '\x1b[2m', bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', blue: '\x1b[34m', magenta: '\x1b[35m', cyan: '\x1b[36m' };
const REVISION_COLORS = [ANSI.blue, ANSI.magenta, ANSI.cyan, ANSI.yellow];

function stateColor(state: string): string {
  if (state === 'Ready') return ANSI.green;
  if (state === 'Terminating' || state === 'Failed' || state.endsWith('BackOff')) return ANSI.red;
  return ANSI.yellow;
}

/** The frame as lines; with `color`, states and revisions are coloured with ANSI escapes. */
export function renderFrame(frame: Frame, opts: { color: boolean }): string[] {
  const paint = (code: string, text: string) => (opts.color ? `${code}${text}${ANSI.reset}` : text);
  const lines = [paint(ANSI.bold, `t = ${frame.t.toFixed(1)}s (virtual)`)];
  const revisions: string[] = [];
  for (const set of frame.sets) {
    const s = set.status;
    lines.push(
      paint(ANSI.bold, `StatefulSet ${set.name}`) +
        `  replicas ${s?.replicas ?? 0}  ready ${s?.readyReplicas ?? 0}  available ${s?.availableReplicas ?? 0}` +
        `  updated ${s?.updatedReplicas ?? 0}  current ${s?.currentReplicas ?? 0}`,
    );
    // onFailure: Rollback: the failure, and that the pods go back
    if (set.step !== undefined) lines.push(paint(s?.currentStepState === 'Failed' ? ANSI.red : ANSI.cyan, `  ${set.step}`));
    if (isRollingBack(s)) lines.push(paint(ANSI.red, `  aborted: ${findCondition(s?.conditions ?? [], 'Progressing')?.message ?? `rollout to ${s?.abortedRevision ?? ''} aborted`}`));
    for (const row of set.rows.slice(0, MAX_ROWS)) {
      if (!revisions.includes(row.revision)) revisions.push(row.revision);
      const revColor = REVISION_COLORS[revisions.indexOf(row.revision) % REVISION_COLORS.length] ?? ANSI.blue;
      const marker = revisionMark(s, row.revision);
      lines.push(
        `  ${String(row.ordinal).padStart(3)}  ${row.pod.padEnd(14)} ${paint(stateColor(row.state), row.state.padEnd(17))} ${`${row.forSeconds}s`.padStart(5)}` +
          ` ${paint(revColor, `${row.revision} (${marker})`.padEnd(28))} ${row.ready ? 'ready' : '-----'} ${row.available ? 'available' : row.ready ? 'not yet available' : ''}`,
      );
    }
    if (set.rows.length > MAX_ROWS) lines.push(paint(ANSI.dim, `  … ${set.rows.length - MAX_ROWS} more pods`));
  }
  for (const note of frame.notes) lines.push(paint(ANSI.dim, note));
  return lines;
}
