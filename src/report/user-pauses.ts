// The user's pauses of a rollout (spec paused: true, `kubectl ordinal rollout pause`) on the report's steps row:
// from each set's recorded status, every stretch whose status.pauseConditions held UserPause, drawn as a bar
// over the top half of the row, apart from the step's own state (a bake may go on under it).

import type { StatefulSetStatus } from '../api/types.js';
import { escapeHtml, num } from './escape.js';
import { formatSeconds, ROW_H, type TimeScale } from './chart-layout.js';
import type { CounterSeries } from './model.js';

export interface UserPause {
  start: number;
  end: number;
  /** Still paused at the end of the run. */
  open: boolean;
}

export const USER_PAUSE_STYLE = { color: '#e65100', help: 'paused by you: spec paused: true (kubectl ordinal rollout pause), until resumed' };

const isUserPaused = (s: StatefulSetStatus): boolean => (s.pauseConditions ?? []).some((c) => c.reason === 'UserPause');

/** The set's user pauses from its status over time, up to `end`. */
export function userPauses(series: CounterSeries, end: number): UserPause[] {
  const out: UserPause[] = [];
  let since: number | undefined;
  for (const { t, status } of series.points) {
    const paused = isUserPaused(status);
    if (paused && since === undefined) since = t;
    if (!paused && since !== undefined) {
      out.push({ start: since, end: t, open: false });
      since = undefined;
    }
  }
  if (since !== undefined) out.push({ start: since, end, open: true });
  return out;
}

/** The pauses as bars over the top half of the steps row at `y`. */
export function renderUserPauses(pauses: readonly UserPause[], y: number, scale: TimeScale): string {
  return pauses
    .map((p) => {
      const x = scale.x(p.start);
      const w = Math.max(scale.x(p.end) - x, 0.5);
      const tip = `paused by the user ${formatSeconds(p.start)}–${p.open ? 'end of run' : formatSeconds(p.end)} (${formatSeconds(p.end - p.start)}): spec paused: true`;
      const label = w > 90 ? `<text class="phase-label" x="${num(x + 3)}" y="${y + ROW_H / 2 - 2}">paused by the user</text>` : '';
      return `<g class="user-pause"><title>${escapeHtml(tip)}</title><rect x="${num(x)}" y="${y + 1}" width="${num(w)}" height="${ROW_H / 2 - 1}" fill="${USER_PAUSE_STYLE.color}" fill-opacity="0.85"/>${label}</g>`;
    })
    .join('');
}
