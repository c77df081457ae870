// The panels of one set on the dashboard, as HTML: the ETA with its p5..p95 (rollout-eta.ts, the forecast
// `rollout status` shows), `why` (the paragraph and the per-ordinal table of why-report.ts, the rows that hold
// the rollout marked), `plan` (the CLI's text) and the set's Events. Pure.

import type { Instant, KubeEvent } from '../../api/types.js';
import { fromTimestamp } from '../../api/types.js';
import type { Pod } from '../../api/types.js';
import { escapeHtml } from '../../report/escape.js';
import { humanDuration } from '../explain/durations.js';
import { renderPlan, type PlanView } from '../explain/plan-report.js';
import type { WhyReport } from '../explain/why-report.js';
import { etaText, failingPod, type EtaForecast } from '../rollout/rollout-eta.js';

const h = (seconds: number): string => humanDuration(Math.round(seconds * 1000));

/**
 * `about 1m5s left (p5 50s – p95 1m40s), forecast from this set's pod timings`, or what `rollout status` says
 * instead (a failing pod, no forecast); undefined when no rollout is under way.
 */
export function etaLine(forecast: EtaForecast, pods: readonly Pod[], updated: number): string | undefined {
  if (forecast === 'pending' && failingPod(pods) === undefined) return 'ETA: forecasting…';
  if (typeof forecast !== 'object' || 'error' in forecast || failingPod(pods) !== undefined) return etaText(forecast, pods, updated);
  const r = forecast.remaining(updated);
  if (r === undefined) return undefined;
  const band = `(p5 ${h(r.p5)} – p95 ${h(r.p95)})`;
  if (forecast.terminationUnknown) return `ETA: at most about ${h(r.p50)} left ${band}: no pod seen going yet, so each takes its grace period to stop`;
  return `ETA: about ${h(r.p50)} left ${band}, forecast from this set's pod timings`;
}

/** The `why` paragraph and its table; rows with something to say (the pods that hold the rollout) marked. */
export function whyHtml(report: WhyReport): string {
  const rows = report.rows.map((r) => {
    const holds = r.notes.length > 0 ? ' class="holds"' : '';
    const revision = r.revision ? `${r.revision} (${r.mark})` : '-';
    return `<tr${holds} data-pod="${escapeHtml(r.pod)}"><td>${r.ordinal}</td><td>${escapeHtml(r.pod)}</td><td><code>${escapeHtml(revision)}</code></td><td>${escapeHtml(r.state)}</td><td>${escapeHtml(r.age || '-')}</td><td>${escapeHtml(r.notes.join('; '))}</td></tr>`;
  });
  const hidden = report.hiddenRows > 0 ? `<p class="muted">… ${report.hiddenRows} more ordinals not shown</p>` : '';
  return (
    `<p class="why-title"><strong>${escapeHtml(report.title)}</strong></p><p class="why-paragraph">${escapeHtml(report.paragraph)}</p>` +
    `<table class="why"><tr><th>ordinal</th><th>pod</th><th>revision</th><th>state</th><th>for</th><th>waiting for / next</th></tr>${rows.join('')}</table>${hidden}`
  );
}

/** `plan`'s text, as the command prints it. */
export const planHtml = (view: PlanView): string => `<pre class="plan">${escapeHtml(renderPlan(view, { color: false }))}</pre>`;

/** Most Events listed, newest first. */
export const MAX_EVENTS = 30;

const lastSeen = (e: KubeEvent): Instant => fromTimestamp(e.lastTimestamp ?? e.firstTimestamp ?? e.metadata.creationTimestamp) ?? 0;

/** The set's and its pods' Events, newest first, with how long ago and how often. */
export function eventsHtml(events: readonly KubeEvent[], now: Instant): string {
  if (events.length === 0) return '<p class="muted">No Events.</p>';
  const rows = [...events]
    .sort((a, b) => lastSeen(b) - lastSeen(a))
    .slice(0, MAX_EVENTS)
    .map((e) => {
      const count = (e.count ?? 1) > 1 ? ` (×${e.count ?? 1})` : '';
      const object = `${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}`;
      return `<tr><td>${escapeHtml(humanDuration(now - lastSeen(e)))}${count}</td><td class="${e.type === 'Warning' ? 'bad' : ''}">${escapeHtml(e.type ?? '')}</td><td>${escapeHtml(object)}</td><td>${escapeHtml(e.reason ?? '')}</td><td>${escapeHtml(e.message ?? '')}</td></tr>`;
    });
  return `<table class="events"><tr><th>ago</th><th>type</th><th>object</th><th>reason</th><th>message</th></tr>${rows.join('')}</table>`;
}
