// The per-pod timeline: one row per ordinal, grouped by StatefulSet, bars coloured by revision and shaded
// by state (Pending and Terminating hatched in opposite directions), event markers and claim expansions on
// the rows, a set's rollout steps (and the user's pauses) in a row under its header, and a dashed line at each
// scenario step.

import { STATE_STYLE, revisionColor } from './colors.js';
import { escapeHtml, num } from './escape.js';
import type { ClaimResize, Marker, ReportModel, Row, Segment } from './model.js';
import { AXIS_H, LABEL_W, PLOT_W, ROW_H, type TimeScale, formatSeconds, formatTick } from './chart-layout.js';
import { renderStepLines } from './step-labels.js';
import { renderStepRow } from './rollout-steps.js';

const GROUP_H = 22;

export function renderTimelineSvg(model: ReportModel, scale: TimeScale): string {
  const body: string[] = [];
  let y = AXIS_H;
  for (const group of groupsOf(model.rows)) {
    body.push(groupHeader(group.name, model.groupMarkers.get(group.name) ?? [], y, scale));
    y += GROUP_H;
    const phases = model.stepPhases.get(group.name);
    const pauses = model.userPauses.get(group.name);
    if (phases !== undefined || pauses !== undefined) {
      body.push(renderStepRow(group.name, phases ?? [], y, scale, model.analysisChecks.get(group.name), pauses));
      y += ROW_H;
    }
    for (const row of group.rows) {
      body.push(renderRow(row, y, model.revisions.get(group.name) ?? [], scale));
      y += ROW_H;
    }
  }
  const violations = model.groupMarkers.get('') ?? [];
  if (violations.length) {
    body.push(groupHeader('violations', violations, y, scale));
    y += GROUP_H;
  }
  const steps = renderStepLines(model.steps, y + 4, scale);
  const height = y + 8 + steps.height;
  return (
    `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="${LABEL_W + PLOT_W + 20}" height="${height}" ` +
    `data-end="${num(scale.end)}" data-x0="${LABEL_W}" data-w="${PLOT_W}">` +
    patterns() +
    axis(scale, height) +
    steps.svg +
    body.join('') +
    '<line class="cursor" x1="0" x2="0" y1="0" y2="0"/><text class="cursor-label" x="0" y="12"></text>' +
    '</svg>'
  );
}

function groupsOf(rows: readonly Row[]): { name: string; rows: Row[] }[] {
  const out: { name: string; rows: Row[] }[] = [];
  for (const row of rows) {
    const last = out[out.length - 1];
    if (last && last.name === row.group) last.rows.push(row);
    else out.push({ name: row.group, rows: [row] });
  }
  return out;
}

function patterns(): string {
  return (
    '<defs>' +
    ['hatch', 'hatch-back']
      .map(
        (id) =>
          `<pattern id="${id}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(${id === 'hatch' ? 45 : -45})">` +
          '<line x1="0" y1="0" x2="0" y2="6" stroke="#333" stroke-width="1.5" stroke-opacity="0.5"/></pattern>',
      )
      .join('') +
    '</defs>'
  );
}

function axis(scale: TimeScale, height: number): string {
  return scale.ticks
    .map((t) => {
      const x = num(scale.x(t));
      return (
        `<line class="grid" x1="${x}" x2="${x}" y1="${AXIS_H - 6}" y2="${height}"/>` +
        `<text class="tick" x="${x}" y="${AXIS_H - 10}" text-anchor="middle">${escapeHtml(formatTick(t, scale.step))}</text>`
      );
    })
    .join('');
}

function groupHeader(name: string, markers: readonly Marker[], y: number, scale: TimeScale): string {
  return (
    `<g class="group"><text class="group-label" x="4" y="${y + 15}">${escapeHtml(name)}</text>` +
    `<line class="group-rule" x1="0" x2="${LABEL_W + PLOT_W}" y1="${y + GROUP_H - 2}" y2="${y + GROUP_H - 2}"/>` +
    markers.map((m) => marker(m, y + 4, scale)).join('') +
    '</g>'
  );
}

function renderRow(row: Row, y: number, revisions: readonly string[], scale: TimeScale): string {
  const bars = row.segments.map((s) => segment(s, y, revisions, scale)).join('');
  // data-* hooks let the browser test read rows and revisions without parsing geometry.
  const ordinal = row.ordinal === null ? '' : ` data-ordinal="${row.ordinal}"`;
  return (
    `<g class="row" data-group="${escapeHtml(row.group)}"${ordinal} data-pod="${escapeHtml(row.label)}">` +
    `<text class="row-label" x="14" y="${y + ROW_H - 5}">${escapeHtml(row.label)}</text>` +
    bars +
    row.resizes.map((r) => resize(r, y, scale)).join('') +
    row.markers.map((m) => marker(m, y, scale)).join('') +
    '</g>'
  );
}

/** Upper bound of a 10px character's width, so that a reason written on a bar never overflows it. */
const REASON_CHAR_W = 6.2;

function segment(s: Segment, y: number, revisions: readonly string[], scale: TimeScale): string {
  const style = STATE_STYLE[s.state];
  const x = scale.x(s.start);
  const w = Math.max(scale.x(s.end) - x, 0.5);
  const fill = s.state === 'Failed' ? '#b22222' : revisionColor(revisions, s.revision);
  const tip = `${s.pod} ${s.state}${s.reason ? ` (${s.reason})` : ''} ${formatSeconds(s.start)}–${formatSeconds(s.end)} revision ${s.revision ?? '-'}`;
  const geometry = `x="${num(x)}" y="${y + 2}" width="${num(w)}" height="${ROW_H - 4}"`;
  const pattern = s.state === 'Pending' ? 'hatch' : s.state === 'Terminating' ? 'hatch-back' : undefined;
  const hatch = pattern ? `<rect ${geometry} fill="url(#${pattern})"/>` : '';
  // The reason a pod waits, written on its bar when it fits (always in the tooltip).
  const fits = s.reason !== undefined && w > s.reason.length * REASON_CHAR_W + 4;
  const reason = fits ? `<text class="seg-reason" x="${num(x + 3)}" y="${y + ROW_H - 5}">${escapeHtml(s.reason ?? '')}</text>` : '';
  return (
    `<g class="seg ${style.className}" data-state="${s.state}" data-revision="${escapeHtml(s.revision ?? '')}"${s.reason ? ` data-reason="${escapeHtml(s.reason)}"` : ''}><title>${escapeHtml(tip)}</title>` +
    `<rect ${geometry} fill="${fill}" fill-opacity="${style.opacity}"/>${hatch}${reason}</g>`
  );
}

const RESIZE_H = 4;

/** A claim expansion: a thin bar along the bottom of its replica's row (dashed while it waits for a pod restart). */
function resize(r: ClaimResize, y: number, scale: TimeScale): string {
  const x = scale.x(r.start);
  const w = Math.max(scale.x(r.end) - x, 1);
  const outcome = r.outcome === 'Resized' ? 'resized' : r.outcome === 'ResizeFailed' ? 'failed' : 'unfinished';
  const offline = r.pendingRestartAt === undefined ? '' : `, waiting for a pod restart from ${formatSeconds(r.pendingRestartAt)}`;
  const tip = `${r.claim} ${r.from ?? '?'} → ${r.to ?? '?'} ${formatSeconds(r.start)}–${formatSeconds(r.end)} (${outcome}${offline})`;
  return (
    `<g class="resize resize-${outcome}" data-claim="${escapeHtml(r.claim)}" data-outcome="${r.outcome}"><title>${escapeHtml(tip)}</title>` +
    `<rect x="${num(x)}" y="${y + ROW_H - RESIZE_H}" width="${num(w)}" height="${RESIZE_H}"${r.pendingRestartAt === undefined ? '' : ' stroke-dasharray="3 2"'}/></g>`
  );
}

function marker(m: Marker, y: number, scale: TimeScale): string {
  const x = scale.x(m.t);
  const points = `${num(x - 4)},${y} ${num(x + 4)},${y} ${num(x)},${y + 7}`;
  return `<polygon class="mk mk-${m.kind}" points="${points}"><title>${escapeHtml(`${formatSeconds(m.t)} ${m.label}`)}</title></polygon>`;
}
