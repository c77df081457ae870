// `plan NAME`: the actions the controller's next sync would send, batch by batch (a dry run of the same
// planner), what stops it from doing more, and the status it would write. Pure.

import type { Instant } from '../../api/types.js';
import type { Plan } from '../../controller/model/plan-types.js';
import { describeAction } from './action-text.js';
import { blockerSentence, type ExplainContext } from './blocker-text.js';
import { formatWait } from './durations.js';
import { ANSI, painter } from './io.js';
import { renderTable } from './table.js';

export interface PlanView {
  title: string;
  now: Instant;
  plan: Plan;
  ctx: ExplainContext;
}

function statusLine(plan: Plan): string {
  const s = plan.status;
  const counters = `replicas ${s.replicas ?? 0}, ready ${s.readyReplicas ?? 0}, available ${s.availableReplicas ?? 0}, current ${s.currentReplicas ?? 0}, updated ${s.updatedReplicas ?? 0}`;
  const revisions = `currentRevision ${s.currentRevision ?? '-'}, updateRevision ${s.updateRevision ?? '-'}`;
  return `Status ${plan.statusChanged ? 'to write' : '(unchanged)'}: ${counters}; ${revisions}`;
}

/** The dry run as text: the batch table, the blockers, the status, the next wake-up and planned events. */
export function renderPlan(view: PlanView, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const { plan } = view;
  const lines = [paint(ANSI.bold, `${view.title}: next sync (dry run, nothing was changed)`)];
  if (plan.actions.length === 0) lines.push('No actions.');
  else lines.push(...renderTable(['BATCH', 'ACTION'], plan.actions.map((a) => [String(a.batch), describeAction(a)])));
  const waits = [...new Set(plan.blockers.map((b) => blockerSentence(b, view.ctx)))];
  if (waits.length > 0) lines.push('', 'Then waits:', ...waits.map((w) => `  - ${w}`));
  if (plan.events.length > 0) lines.push('', 'Events:', ...plan.events.map((e) => `  - ${e.type} ${e.reason}: ${e.message}`));
  lines.push('', statusLine(plan));
  if (plan.wakeAt !== undefined && plan.wakeAt > view.now) lines.push(`Next look without other changes: in ${formatWait(plan.wakeAt - view.now)}`);
  return `${lines.join('\n')}\n`;
}

/** `-o json|yaml`: the plan itself (actions with their batch, blockers, status, events, wakeAt). */
export function planData(view: PlanView): object {
  const { plan } = view;
  const out = {
    now: new Date(view.now).toISOString(),
    actions: plan.actions.map((a) => ({ ...a, description: describeAction(a) })),
    blockers: plan.blockers.map((b) => ({ ...b, message: blockerSentence(b, view.ctx) })),
    status: plan.status,
    statusChanged: plan.statusChanged,
    events: plan.events,
    ...(plan.wakeAt !== undefined ? { wakeAt: new Date(plan.wakeAt).toISOString() } : {}),
  };
  return out;
}
