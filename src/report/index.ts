// `renderReport(timeline)`: one self-contained HTML page (inline CSS, SVG and a few lines of script; no
// network) with the per-pod timeline, the status counters over time and the run's checks.

import type { TimelineRecord } from '../sim/timeline.js';
import { escapeHtml } from './escape.js';
import { buildModel, maxUnavailableOf } from './model.js';
import { CSS, SCRIPT, detailTables, eventTable, legends, rolloutTable, stepTable, summaryTable } from './page.js';
import { reportScale } from './chart-layout.js';
import { stepPhaseTable } from './rollout-steps.js';
import { renderCountersSvg } from './svg-counters.js';
import { renderTimelineSvg } from './svg-timeline.js';

export interface ReportOptions {
  title?: string;
}

export function renderReport(timeline: readonly TimelineRecord[], opts: ReportOptions = {}): string {
  const title = opts.title ?? 'Ordinal simulation';
  const model = buildModel(timeline, title);
  const scale = reportScale(model.end);
  const counters = model.counters.map((c) => renderCountersSvg(c, scale, maxUnavailableOf(model, c.group))).join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    '<p class="muted">Virtual time in seconds since the start of the scenario. Hover bars and markers for details.</p>',
    summaryTable(model),
    rolloutTable(model),
    stepPhaseTable(model),
    stepTable(model),
    '<h2>Pods by ordinal</h2>',
    legends(model),
    renderTimelineSvg(model, scale),
    '<h2>Status counters</h2>',
    counters || '<p class="muted">No status was written.</p>',
    eventTable(model),
    detailTables(model),
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
