// The dashboard's list of every watched set with its rollout state: `rollout status`'s own judgement
// (status-message.ts rolloutState: done, progressing, paused or failed, and kubectl's message), the pods'
// counts from the status and the current step of a staged rollout. Pure: HTML from the sets and their pods.

import { apiVersionOf } from '../../api/client.js';
import type { Instant, Pod } from '../../api/types.js';
import { replicasOf } from '../../controller/spec.js';
import { currentStepLine } from '../../report/current-step.js';
import { escapeHtml } from '../../report/escape.js';
import { rolloutState, type RolloutState } from '../rollout/status-message.js';
import type { ViewedSet } from './cluster-view.js';

/** The state's badge: its kind, and for a pause who holds it. */
export function stateBadge(state: RolloutState): string {
  const label = state.kind === 'paused' ? (state.by === 'user' ? 'paused' : 'paused at step') : state.kind;
  return `<span class="badge badge-${state.kind}" data-state="${state.kind}">${escapeHtml(label)}</span>`;
}

/** `3/5 updated · 4 ready · 4 available` */
export function countsText(set: ViewedSet['set']): string {
  const s = set.status;
  return `${s?.updatedReplicas ?? 0}/${replicasOf(set)} updated · ${s?.readyReplicas ?? 0} ready · ${s?.availableReplicas ?? 0} available`;
}

function row(v: ViewedSet, pods: readonly Pod[], now: Instant, selected: string | undefined): string {
  const state = rolloutState(v.set, pods, now);
  const step = currentStepLine(v.set, now) ?? '';
  const cls = v.key === selected ? ' class="selected"' : '';
  return (
    `<tr data-key="${escapeHtml(v.key)}"${cls}>` +
    `<td><a href="#${escapeHtml(encodeURIComponent(v.key))}">${escapeHtml(`${v.set.metadata.namespace ?? 'default'}/${v.set.metadata.name ?? ''}`)}</a></td>` +
    `<td><code>${escapeHtml(apiVersionOf(v.resource))}</code></td>` +
    `<td>${stateBadge(state)}</td><td>${escapeHtml(countsText(v.set))}</td>` +
    `<td>${escapeHtml(step)}</td><td class="message">${escapeHtml(state.message)}</td></tr>`
  );
}

/** The table of sets (`podsOf` gives each set's pods), the selected one marked. */
export function setListHtml(sets: readonly ViewedSet[], podsOf: (v: ViewedSet) => readonly Pod[], now: Instant, selected: string | undefined): string {
  if (sets.length === 0) return '<p class="muted" id="no-sets">No StatefulSets here yet.</p>';
  const head = '<tr><th>set</th><th>API</th><th>state</th><th>pods</th><th>step</th><th>rollout status</th></tr>';
  return `<table class="sets">${head}${sets.map((v) => row(v, podsOf(v), now, selected)).join('')}</table>`;
}
