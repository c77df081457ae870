// A live set's timeline drawn by the HTML report's own chart code (src/report): its records (instants, from
// live-timeline.ts) become seconds since the start of the window drawn — the last WINDOW_MS at most, what
// happened before it clamped to its start, so each pod enters the window in the state it had — and the run
// "ends" now: a summary record at `now` makes the chart's time axis reach the present.

import type { Instant } from '../../api/types.js';
import { timeScale } from '../../report/chart-layout.js';
import { buildModel } from '../../report/model.js';
import { legends } from '../../report/page.js';
import { renderCountersSvg } from '../../report/svg-counters.js';
import { renderTimelineSvg } from '../../report/svg-timeline.js';
import { summaryRecord, type TimelineRecord } from '../../sim/timeline.js';

/** The longest stretch of time drawn. */
export const WINDOW_MS = 30 * 60_000;

export interface LiveChart {
  /** The legend of revisions and states, as the report's. */
  legend: string;
  /** The per-pod timeline (svg.timeline). */
  timeline: string;
  /** The status counters (svg.counters); '' before any status. */
  counters: string;
  /** The instant the chart's 0 stands for. */
  origin: Instant;
}

/** The record with its times as seconds since `origin` (never negative). */
function shifted(r: TimelineRecord, origin: Instant): TimelineRecord {
  const s = (at: number) => Math.max(0, at - origin) / 1000;
  if (r.type === 'pod' && r.availableAt !== undefined) return { ...r, t: s(r.t), availableAt: s(r.availableAt) };
  return { ...r, t: s(r.t) };
}

/** The chart of `records` (one set's, instants in `t`) at `now`; `maxUnavailable` draws the budget on the counters. */
export function liveChart(records: readonly TimelineRecord[], now: Instant, maxUnavailable?: number): LiveChart {
  const first = records.reduce((m, r) => Math.min(m, r.t), now);
  const origin = Math.max(first, now - WINDOW_MS);
  // stable: records seen at the same instant keep the order they were seen in
  const ordered = records.map((r) => shifted(r, origin)).sort((a, b) => a.t - b.t);
  const end = Math.max(0, now - origin) / 1000;
  ordered.push(summaryRecord({ converged: false, convergedAt: null, endedAt: end, sets: {}, metrics: {}, violations: [], rollouts: [] }));
  const model = buildModel(ordered, '');
  const scale = timeScale(Math.max(end, 1));
  return {
    legend: legends(model),
    timeline: renderTimelineSvg(model, scale),
    counters: model.counters.map((c) => renderCountersSvg(c, scale, maxUnavailable)).join(''),
    origin,
  };
}
