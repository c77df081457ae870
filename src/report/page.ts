// The static parts of the report page: CSS, the cursor script, legends and the summary tables.

import { STATE_STYLE, revisionColor } from './colors.js';
import { escapeHtml } from './escape.js';
import { rolloutsOf, type PodState, type ReportModel } from './model.js';
import { describeStep } from './step-labels.js';
import { stepLegend } from './rollout-steps.js';
import { formatSeconds } from './chart-layout.js';
import type { RolloutSummary } from '../sim/timeline.js';

export const CSS = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.muted{color:#666}.ok{color:#2e7d32}.bad{color:#c62828;font-weight:600}
table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5}code{font:12px ui-monospace,Menlo,Consolas,monospace}
.legend-item{display:inline-block;margin:0 14px 4px 0}.swatch{display:inline-block;width:22px;height:11px;vertical-align:middle;margin-right:4px;border:1px solid #bbb}
svg{display:block;margin:6px 0;overflow:visible}svg text{font:11px system-ui,sans-serif;fill:#333}
svg .tick{fill:#777}svg .grid{stroke:#eee}svg .group-label{font-weight:600}svg .group-rule{stroke:#ccc}
svg .step line{stroke:#888;stroke-dasharray:3 3}svg .step text{fill:#555;font-size:10px}svg .step-plate{fill:#fff}
svg .mk-event{fill:#546e7a}svg .mk-warning{fill:#ef6c00}svg .mk-violation{fill:#c62828}svg .resize rect{fill:#3949ab;stroke:#3949ab}svg .resize-unfinished rect{fill-opacity:.4}svg .resize-failed rect{fill:#c62828;stroke:#c62828}
svg .st-notready rect:first-child{stroke:#c62828;stroke-width:1}svg .st-restarting rect:first-child{stroke:#1565c0;stroke-width:1.5;stroke-dasharray:4 2}svg .seg:hover rect{stroke:#000;stroke-width:1}
svg .check{stroke:#fff;stroke-width:1}svg .check-ok{fill:#2e7d32}svg .check-failed{fill:#c62828}svg .phase-label{font-size:10px;fill:#212121;pointer-events:none}svg .phase:hover rect{stroke:#000;stroke-width:1}
svg .seg-reason{font-size:10px;fill:#b71c1c;font-weight:600;pointer-events:none}svg .cursor{stroke:#000;stroke-opacity:.35}svg .cursor-label{fill:#000;font-size:10px}
`;

/** Moves a vertical cursor with the mouse and prints the virtual time under it (no network needed). */
export const SCRIPT = `
for (const svg of document.querySelectorAll('svg[data-end]')) {
  const end = +svg.dataset.end, x0 = +svg.dataset.x0, w = +svg.dataset.w;
  const line = svg.querySelector('.cursor'), label = svg.querySelector('.cursor-label');
  svg.addEventListener('mousemove', (e) => {
    const x = e.clientX - svg.getBoundingClientRect().left;
    if (x < x0 || x > x0 + w) { line.setAttribute('y2', 0); label.textContent = ''; return; }
    line.setAttribute('x1', x); line.setAttribute('x2', x); line.setAttribute('y2', svg.getAttribute('height'));
    label.setAttribute('x', x + 3); label.textContent = ((x - x0) / w * end).toFixed(1) + 's';
  });
}
`;

export function legends(model: ReportModel): string {
  const revs = [...model.revisions.entries()]
    .map(([group, list]) => {
      const items = list.map((r) => `<span class="legend-item"><span class="swatch" style="background:${revisionColor(list, r)}"></span><code>${escapeHtml(r)}</code></span>`);
      return `<div>${escapeHtml(group)}: ${items.join('')}</div>`;
    })
    .join('');
  const states = (Object.keys(STATE_STYLE) as PodState[])
    .map((s) => {
      const color = s === 'Failed' ? '#b22222' : '#4e79a7';
      const angle = s === 'Pending' ? 45 : s === 'Terminating' ? -45 : undefined; // as the bars' hatching
      const hatch = angle === undefined ? '' : `;background-image:repeating-linear-gradient(${angle}deg,#333 0 1.5px,transparent 1.5px 5px)`;
      const style = `background-color:${color};opacity:${STATE_STYLE[s].opacity}${hatch}`;
      return `<span class="legend-item"><span class="swatch" style="${style}"></span>${s} <span class="muted">(${escapeHtml(STATE_STYLE[s].help)})</span></span>`;
    })
    .join('');
  const markers =
    '<span class="legend-item">▼ markers: <span style="color:#546e7a">event</span>, <span style="color:#ef6c00">warning</span>, ' +
    '<span style="color:#c62828">violation</span>; dashed lines: scenario steps</span>' +
    (model.rows.some((r) => r.resizes.length > 0)
      ? '<span class="legend-item">thin bar under a pod: its claim expanding (<span style="color:#3949ab">grown</span>, dashed: waiting for a pod restart, <span style="color:#c62828">failed</span>)</span>'
      : '');
  return `<div><strong>Revisions</strong> (in order of appearance, per set) ${revs || '<span class="muted">none</span>'}</div><div><strong>States</strong> ${states}</div>${stepLegend(model)}<div>${markers}</div>`;
}

export function summaryTable(model: ReportModel): string {
  const s = model.summary;
  if (!s) return '<p class="muted">No summary record (the run did not finish).</p>';
  const rows = [
    ['converged', s.converged ? '<span class="ok">yes</span>' : '<span class="bad">no</span>'],
    ['converged at', s.convergedAt === null ? '-' : escapeHtml(formatSeconds(s.convergedAt))],
    ['ended at', escapeHtml(formatSeconds(s.endedAt))],
    ['violations', s.violations.length === 0 ? '<span class="ok">none</span>' : `<span class="bad">${s.violations.length}</span>`],
    ['expects', expectSummary(model)],
  ];
  return `<table>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>`;
}

function expectSummary(model: ReportModel): string {
  const failed = model.expects.filter((e) => !e.ok).length + model.failures.length;
  if (model.expects.length === 0 && model.failures.length === 0) return '<span class="muted">none</span>';
  return failed === 0 ? `<span class="ok">${model.expects.length} held</span>` : `<span class="bad">${failed} failed</span>`;
}

/** Each set's rollouts with how long they took and how low availability went: what a reader of the report asks first. */
export function rolloutTable(model: ReportModel): string {
  const aborts = rolloutsOf(model).some((r) => r.aborted !== undefined);
  const rows = rolloutsOf(model).map((r) => {
    const paused = r.pausedSeconds !== undefined ? ` <span class="muted">(paused by the user for ${escapeHtml(formatSeconds(r.pausedSeconds))})</span>` : '';
    const took =
      r.convergedAt !== null
        ? `${escapeHtml(formatSeconds(r.convergedAt - r.startedAt))}${paused}`
        : r.replacedAt !== null
          ? `<span class="muted">replaced by the next change at ${escapeHtml(formatSeconds(r.replacedAt))}</span>`
          : `<span class="bad">not finished</span>${paused}`;
    const lowest = `${r.lowestAvailable.replicas} of ${r.lowestAvailable.of} at ${formatSeconds(r.lowestAvailable.at)}`;
    return (
      `<tr><td>${escapeHtml(`${r.namespace}/${r.name}`)}</td><td><code>${escapeHtml(r.revision ?? '-')}</code></td><td>${escapeHtml(formatSeconds(r.startedAt))}</td>` +
      `<td>${took}</td><td>${escapeHtml(lowest)}</td>${aborts ? `<td>${abortCell(r)}</td>` : ''}</tr>`
    );
  });
  const head = `<tr><th>set</th><th>to revision</th><th>started</th><th>took</th><th>lowest available</th>${aborts ? '<th>aborted (onFailure: Rollback)</th>' : ''}</tr>`;
  return rows.length ? `<h2>Rollouts</h2><table>${head}${rows.join('')}</table>` : '';
}

/** When a rollout was aborted, and its way back: how long, how low availability went. */
function abortCell(r: RolloutSummary): string {
  if (r.aborted === undefined) return '<span class="muted">no</span>';
  const back = r.convergedAt === null ? '<span class="bad">way back not finished</span>' : escapeHtml(`back in ${formatSeconds(r.convergedAt - r.aborted.at)}`);
  const lowest = r.aborted.lowestAvailable;
  return `<span class="bad">at ${escapeHtml(formatSeconds(r.aborted.at))}</span>; ${back}, lowest available ${escapeHtml(`${lowest.replicas} of ${lowest.of}`)}`;
}

/** The steps in words, with their time. */
export function stepTable(model: ReportModel): string {
  const rows = model.steps.map((s) => `<tr><td>${escapeHtml(formatSeconds(s.t))}</td><td>#${s.index}</td><td>${escapeHtml(describeStep(s.step))}</td></tr>`);
  return rows.length ? `<h2>Steps</h2><table><tr><th>t</th><th>step</th><th></th></tr>${rows.join('')}</table>` : '';
}

/** Every Kubernetes Event of the run, in order. */
export function eventTable(model: ReportModel): string {
  const rows = model.events.map(
    (e) =>
      `<tr><td>${escapeHtml(formatSeconds(e.t))}</td><td class="${e.type === 'Warning' ? 'bad' : ''}">${escapeHtml(e.type)}</td>` +
      `<td>${escapeHtml(e.object)}</td><td>${escapeHtml(e.reason)}</td><td>${escapeHtml(e.message)}</td></tr>`,
  );
  return rows.length ? `<h2>Events</h2><table><tr><th>t</th><th>type</th><th>object</th><th>reason</th><th>message</th></tr>${rows.join('')}</table>` : '';
}

export function detailTables(model: ReportModel): string {
  const checks = [
    ...model.expects.map((e) => ({ t: e.t, index: e.index, ok: e.ok, message: e.message })),
    ...model.failures.map((f) => ({ t: f.t, index: f.index, ok: false, message: f.message })),
  ].sort((a, b) => a.t - b.t || a.index - b.index);
  const checkRows = checks.map(
    (c) => `<tr><td>${escapeHtml(formatSeconds(c.t))}</td><td>#${c.index}</td><td class="${c.ok ? 'ok' : 'bad'}">${c.ok ? 'ok' : 'failed'}</td><td>${escapeHtml(c.message)}</td></tr>`,
  );
  const violations = (model.summary?.violations ?? []).map(
    (v) => `<tr><td>${escapeHtml(formatSeconds(v.t))}</td><td>${escapeHtml(v.invariant)}</td><td>${escapeHtml(v.message)}</td></tr>`,
  );
  // Durations summed on virtual time are 0 whatever happened (the controller's own work takes no virtual time).
  const meaningful = ([k, v]: [string, number]) => !(v === 0 && /_seconds_sum(\{|$)/.test(k) && !k.startsWith('statefulset_'));
  const metrics = Object.entries(model.summary?.metrics ?? {})
    .filter(meaningful)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${v}</td></tr>`);
  return (
    (checkRows.length ? `<h2>Expectations</h2><table><tr><th>t</th><th>step</th><th></th><th>message</th></tr>${checkRows.join('')}</table>` : '') +
    (violations.length ? `<h2>Violations</h2><table><tr><th>t</th><th>invariant</th><th>message</th></tr>${violations.join('')}</table>` : '') +
    (metrics.length ? `<h2>Metrics at the end</h2><table>${metrics.join('')}</table>` : '')
  );
}
