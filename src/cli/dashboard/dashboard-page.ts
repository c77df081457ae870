// The dashboard's page: one self-contained HTML document (the report's CSS and the dashboard's own, the
// script of dashboard-script.ts), served by the command itself; the panels are filled from the view stream.
// It names the context and namespaces it shows, and carries the token its writes must send (request-guard.ts).

import { CSS as REPORT_CSS } from '../../report/page.js';
import { escapeHtml } from '../../report/escape.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.js';

export interface PageOptions {
  token: string;
  /** The kubeconfig context whose credentials the dashboard uses. */
  context: string;
  /** Watched namespaces; empty: all. */
  namespaces: readonly string[];
}

const CSS = `
header{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}header h1{margin:0}
.badge{display:inline-block;padding:1px 8px;border-radius:9px;font-size:12px;font-weight:600;background:#eceff1;color:#37474f}
.badge-done{background:#e8f5e9;color:#2e7d32}.badge-progressing{background:#e3f2fd;color:#1565c0}
.badge-paused{background:#fff8e1;color:#8d6e00}.badge-failed{background:#ffebee;color:#c62828}
table.sets tr[data-key]:hover{background:#fafafa}table.sets tr.selected{background:#e3f2fd}table.sets td.message{color:#555}
table.why tr.holds td{background:#fff8e1}
#actions{margin:8px 0;display:flex;gap:6px;flex-wrap:wrap}#actions button,#forecast button,dialog button{font:inherit;padding:3px 12px;cursor:pointer}
.answer{border-left:4px solid #2e7d32;padding:2px 8px;margin:4px 0;background:#f9fbf9}.answer-bad{border-color:#c62828;background:#fdf6f6}
.answer pre,#confirm pre,#forecast-answer,pre.plan{white-space:pre-wrap;margin:4px 0;font:12px ui-monospace,Menlo,Consolas,monospace}
pre.ok{color:#2e7d32}pre.bad{color:#c62828}
#detail-eta{font-weight:600}#detail-step:empty,#detail-eta:empty{display:none}
.columns{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px}
#forecast input{font:inherit;width:16em}#forecast select{font:inherit}
dialog{max-width:720px;border:1px solid #bbb;border-radius:6px}dialog::backdrop{background:rgba(0,0,0,.25)}
`;

function scope(o: PageOptions): string {
  const ns = o.namespaces.length === 0 ? 'all namespaces' : `namespace ${o.namespaces.map((n) => `<code>${escapeHtml(n)}</code>`).join(', ')}`;
  return `context <code>${escapeHtml(o.context)}</code>, ${ns}`;
}

const VERB_BUTTONS = [
  ['pause', 'Pause'],
  ['resume', 'Resume'],
  ['promote', 'Promote'],
  ['promote', 'Promote all steps', 'true'],
  ['abort', 'Abort'],
  ['retry', 'Retry'],
  ['undo', 'Undo'],
  ['restart', 'Restart'],
] as const;

const actions = (): string =>
  `<div id="actions">${VERB_BUTTONS.map(([verb, label, full]) => `<button type="button" data-verb="${verb}"${full ? ` data-full="${full}"` : ''}>${label}</button>`).join('')}</div>`;

const detail = (): string =>
  [
    '<section id="detail" hidden><h2 id="detail-title"></h2>',
    '<p id="gone" class="bad" hidden>This StatefulSet is not (or no longer) in what the dashboard watches.</p>',
    '<div id="detail-body"><p><span id="detail-state"></span> <span id="detail-message"></span></p>',
    '<p id="detail-counts" class="muted"></p><p id="detail-step"></p><p id="detail-eta"></p>',
    actions(),
    '<div id="answers"></div>',
    '<h3>Pods</h3><p class="muted">Seconds since <span id="detail-origin"></span> (what the dashboard has seen of this set, the last 30 minutes at most); hover bars and markers for details.</p><div id="detail-legend"></div><div id="detail-timeline"></div><div id="detail-counters"></div>',
    '<div class="columns"><div><h3>Why</h3><div id="detail-why"></div></div><div><h3>Plan</h3><div id="detail-plan"></div></div></div>',
    '<h3>Events</h3><div id="detail-events"></div>',
    '<h3>Forecast a change</h3><div id="forecast">',
    '<label>container <select id="forecast-container"></select></label> <label>image <input id="forecast-image" placeholder="app:2"></label> ',
    '<label>or setting <input id="forecast-setting" placeholder="spec.updateStrategy.rollingUpdate.maxUnavailable=2"></label> ',
    '<button type="button" id="forecast-run">Forecast</button><pre id="forecast-answer"></pre></div>',
    '</div></section>',
  ].join('\n');

const dialog = (): string =>
  [
    '<dialog id="confirm"><h3 id="confirm-title"></h3>',
    '<p>This sends exactly what <code id="confirm-command"></code> sends, with your credentials.</p>',
    '<p class="muted">The server\'s answer to a dry run of it:</p><pre id="confirm-dry-run"></pre>',
    '<p><button type="button" id="confirm-cancel">Cancel</button> <button type="button" id="confirm-ok">Confirm</button></p></dialog>',
  ].join('\n');

export function dashboardPage(o: PageOptions): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="ordinal-dashboard-token" content="${escapeHtml(o.token)}">`,
    // no icon to fetch: the browser would ask for /favicon.ico
    '<link rel="icon" href="data:,">',
    '<title>Ordinal dashboard</title>',
    `<style>${REPORT_CSS}${CSS}</style></head><body>`,
    `<header><h1>Ordinal dashboard</h1><span class="muted">${scope(o)}</span><span id="connection" class="badge">connecting…</span><span id="updated" class="muted"></span></header>`,
    '<div id="problems"></div>',
    '<section><h2>StatefulSets</h2><div id="sets"></div></section>',
    detail(),
    dialog(),
    `<script>${DASHBOARD_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
