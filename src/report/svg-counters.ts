// The status counters of each StatefulSet over time (from its `status` records), drawn as step lines, and the
// replicas not available (replicas − availableReplicas) against the set's maxUnavailable budget.

import type { StatefulSetStatus } from '../api/types.js';
import { COUNTER_COLORS, UNAVAILABLE_COLOR } from './colors.js';
import { escapeHtml, num } from './escape.js';
import type { CounterSeries } from './model.js';
import { LABEL_W, PLOT_W, type TimeScale, formatSeconds, formatTick } from './chart-layout.js';

const HEIGHT = 150;
const TOP = 14;
const BOTTOM = 22;
type Counter = keyof typeof COUNTER_COLORS;

function value(status: StatefulSetStatus, counter: Counter): number {
  const v = (status as unknown as Record<string, unknown>)[counter];
  return typeof v === 'number' ? v : 0;
}

/** Replicas without an available pod, by the status: what maxUnavailable bounds. */
const unavailable = (status: StatefulSetStatus): number => Math.max(0, value(status, 'replicas') - value(status, 'availableReplicas'));

export function renderCountersSvg(series: CounterSeries, scale: TimeScale, maxUnavailable?: number): string {
  const counters = Object.keys(COUNTER_COLORS) as Counter[];
  const max = Math.max(1, ...series.points.flatMap((p) => counters.map((c) => value(p.status, c))));
  const y = (v: number) => TOP + (1 - v / max) * (HEIGHT - TOP - BOTTOM);
  const lines = counters.map((c, i) => stepLine(series, c, i, scale, y)).join('') + unavailableLine(series, scale, y) + budgetLine(maxUnavailable, y);
  return (
    `<svg class="counters" xmlns="http://www.w3.org/2000/svg" width="${LABEL_W + PLOT_W + 20}" height="${HEIGHT}" ` +
    `data-end="${num(scale.end)}" data-x0="${LABEL_W}" data-w="${PLOT_W}">` +
    `<text class="group-label" x="4" y="${TOP + 4}">${escapeHtml(series.group)}</text>` +
    yAxis(max, y) +
    xAxis(scale) +
    lines +
    legend(counters) +
    '<line class="cursor" x1="0" x2="0" y1="0" y2="0"/><text class="cursor-label" x="0" y="12"></text>' +
    '</svg>'
  );
}

/** The points of a step line through `of(status)` over time, held to the end of the axis. */
function stepPoints(series: CounterSeries, of: (s: StatefulSetStatus) => number, scale: TimeScale, y: (v: number) => number, offset = 0): string {
  const pts: string[] = [];
  let last: number | undefined;
  for (const p of series.points) {
    const v = of(p.status);
    if (last !== undefined) pts.push(`${num(scale.x(p.t))},${num(y(last) + offset)}`);
    pts.push(`${num(scale.x(p.t))},${num(y(v) + offset)}`);
    last = v;
  }
  pts.push(`${num(scale.x(scale.end))},${num(y(last ?? 0) + offset)}`);
  return pts.join(' ');
}

function stepLine(series: CounterSeries, c: Counter, i: number, scale: TimeScale, y: (v: number) => number): string {
  if (series.points.length === 0) return '';
  const offset = (i - 2) * 0.8; // lines with equal values stay distinguishable
  const points = stepPoints(series, (s) => value(s, c), scale, y, offset);
  const tip = series.points.map((p) => `${formatSeconds(p.t)}=${value(p.status, c)}`).join(' ');
  return `<polyline class="counter" fill="none" stroke="${COUNTER_COLORS[c]}" stroke-width="2" points="${points}"><title>${escapeHtml(`${c}: ${tip}`)}</title></polyline>`;
}

function unavailableLine(series: CounterSeries, scale: TimeScale, y: (v: number) => number): string {
  if (series.points.length === 0) return '';
  const points = stepPoints(series, unavailable, scale, y);
  const tip = series.points.map((p) => `${formatSeconds(p.t)}=${unavailable(p.status)}`).join(' ');
  return `<polyline class="unavailable" fill="none" stroke="${UNAVAILABLE_COLOR}" stroke-width="2" stroke-dasharray="5 3" points="${points}"><title>${escapeHtml(`unavailable (replicas − availableReplicas): ${tip}`)}</title></polyline>`;
}

/** The budget the unavailable line must stay under during a rolling update. */
function budgetLine(maxUnavailable: number | undefined, y: (v: number) => number): string {
  if (maxUnavailable === undefined) return '';
  const at = num(y(maxUnavailable));
  return (
    `<g class="budget"><line x1="${LABEL_W}" x2="${LABEL_W + PLOT_W}" y1="${at}" y2="${at}" stroke="${UNAVAILABLE_COLOR}" stroke-dasharray="1 3"/>` +
    `<text x="${LABEL_W + PLOT_W + 4}" y="${num(y(maxUnavailable) + 4)}">maxUnavailable ${maxUnavailable}</text></g>`
  );
}

function yAxis(max: number, y: (v: number) => number): string {
  const step = Math.max(1, Math.ceil(max / 5));
  const out: string[] = [];
  for (let v = 0; v <= max; v += step) {
    out.push(`<line class="grid" x1="${LABEL_W}" x2="${LABEL_W + PLOT_W}" y1="${num(y(v))}" y2="${num(y(v))}"/>`);
    out.push(`<text class="tick" x="${LABEL_W - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  return out.join('');
}

function xAxis(scale: TimeScale): string {
  return scale.ticks
    .map((t) => `<text class="tick" x="${num(scale.x(t))}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(formatTick(t, scale.step))}</text>`)
    .join('');
}

function legend(counters: readonly Counter[]): string {
  const items = counters.map((c) => ({ label: c, color: COUNTER_COLORS[c] ?? '#000', dash: '' }));
  items.push({ label: 'unavailable', color: UNAVAILABLE_COLOR, dash: ' stroke-dasharray="5 3"' });
  return items
    .map(({ label, color, dash }, i) => {
      const y = TOP + 16 + i * 14;
      return `<line x1="6" x2="20" y1="${y - 4}" y2="${y - 4}" stroke="${color}" stroke-width="3"${dash}/><text class="legend" x="24" y="${y}">${label}</text>`;
    })
    .join('');
}
