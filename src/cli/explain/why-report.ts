// `why NAME`: one short paragraph (what the set is doing, what the controller waits for, what it does next)
// and a per-ordinal table, computed from the same Plan the controller executes. Pure.

import type { Features } from '../../api/features.js';
import type { Instant, Pod, StatefulSet } from '../../api/types.js';
import type { Action, Plan } from '../../controller/model/plan-types.js';
import { minReadySecondsOf, replicasOf, startOrdinal } from '../../controller/model/spec.js';
import { effectiveStrategy } from '../../controller/rollout/effective-strategy.js';
import { isRollingBack, movingTo } from '../../controller/rollout/rollback.js';
import { describeAction } from './action-text.js';
import { blockerSentence, type ExplainContext } from './blocker-text.js';
import { formatWait } from './durations.js';
import type { FailedWrite } from './failed-write.js';
import { ANSI, painter, type Paint } from './io.js';
import { podNotes } from './pod-notes.js';
import { renderTable } from './table.js';
import { whyRows, type WhyRow } from './why-rows.js';

export interface WhyInput {
  set: StatefulSet;
  pods: readonly Pod[];
  plan: Plan;
  now: Instant;
  features: Features;
  /** The set's most recent failed write (its Warning events), which the planner cannot see. */
  lastFailure?: FailedWrite | undefined;
}

export interface WhyReport {
  /** `StatefulSet default/web (apps/v1): RollingUpdate, OrderedReady, maxUnavailable 1, …` */
  title: string;
  paragraph: string;
  rows: WhyRow[];
  hiddenRows: number;
}

/** Actions listed by name in the paragraph before "and N more". */
const LISTED_ACTIONS = 3;

/** The API server refused this very write last time (its failure event is the set's last failed write). */
function failedLastTime(action: Action, failure: FailedWrite | undefined): boolean {
  const expected = action.outcome?.failed;
  return failure !== undefined && expected !== undefined && failure.reason === expected.reason && failure.message.startsWith(expected.message);
}

export function explainContext(input: WhyInput): ExplainContext {
  const { set, plan } = input;
  return {
    set,
    pods: new Map(input.pods.map((p) => [p.metadata.name ?? '', p])),
    now: input.now,
    strategy: effectiveStrategy(set, input.features),
    // the revision the pods move to: during an aborted rollout, the one they go back to
    updateRevision: movingTo(plan.status) ?? set.status?.updateRevision ?? '',
    minReadySeconds: minReadySecondsOf(set),
    start: startOrdinal(set),
    replicas: replicasOf(set),
    updateDeletions: plan.actions.flatMap((a) => (a.kind === 'deletePod' && (a.cause === 'update' || a.cause === 'forced' || a.cause === 'rollback') ? [a.name] : [])),
    inPlaceUpdates: plan.actions.flatMap((a) => (a.kind === 'patchPod' ? [a.name] : [])),
    claimUpdates: [...new Set(plan.actions.flatMap((a) => (a.kind === 'patchClaim' && a.growsTo !== undefined && !failedLastTime(a, input.lastFailure) ? [a.podName] : [])))],
  };
}

function title(set: StatefulSet, ctx: ExplainContext): string {
  const s = ctx.strategy;
  const parts: string[] = [s.declared === s.kind ? s.kind : `${s.declared} (runs as ${s.kind})`, set.spec.podManagementPolicy === 'Parallel' ? 'Parallel' : 'OrderedReady'];
  if (s.kind === 'RollingUpdate' || s.kind === 'EnforcedRollingUpdate') parts.push(`maxUnavailable ${s.maxUnavailable}`, `partition ${s.partition}`);
  if (s.together) parts.push('batchStartPolicy Together');
  if (ctx.minReadySeconds > 0) parts.push(`minReadySeconds ${ctx.minReadySeconds}`);
  const ns = set.metadata.namespace ?? 'default';
  return `StatefulSet ${ns}/${set.metadata.name ?? ''} (${set.apiVersion ?? 'apps/v1'}): ${parts.join(', ')}`;
}

/** What the set is doing, from the plan's projected status. */
function headline(input: WhyInput, ctx: ExplainContext): string {
  const s = input.plan.status;
  const replicas = ctx.replicas;
  if (input.set.metadata.deletionTimestamp) return 'The StatefulSet is being deleted.';
  if (input.plan.blockers.some((b) => b.kind === 'invalidSpec' || b.kind === 'internalError')) return 'The controller does not act on this StatefulSet.';
  if (isRollingBack(s)) {
    const back = (s.currentReplicas ?? 0) === replicas && (s.availableReplicas ?? 0) === replicas;
    return back
      ? `Rolled back from revision ${s.updateRevision ?? ''}: ${replicas} of ${replicas} pods are on revision ${s.currentRevision ?? ''} and available.`
      : `Rolling back from revision ${s.updateRevision ?? ''} to ${s.currentRevision ?? ''}: ${s.currentReplicas ?? 0} of ${replicas} pods back, ${s.availableReplicas ?? 0} available.`;
  }
  if (s.updateRevision && s.currentRevision !== s.updateRevision) {
    return `Rolling out revision ${s.updateRevision}: ${s.updatedReplicas ?? 0} of ${replicas} pods updated, ${s.availableReplicas ?? 0} available.`;
  }
  if ((s.replicas ?? 0) !== replicas || (s.availableReplicas ?? 0) < replicas) {
    return `Scaling to ${replicas} pods: ${s.replicas ?? 0} exist, ${s.readyReplicas ?? 0} ready, ${s.availableReplicas ?? 0} available.`;
  }
  return `${replicas} of ${replicas} pods are on revision ${s.updateRevision ?? '?'} and available.`;
}

/** A blocker sentence as prose: capitalised, unless it starts with a pod name (those keep their case). */
const sentence = (text: string, set: StatefulSet): string =>
  text.startsWith(`${set.metadata.name ?? ''}-`) ? `${text}.` : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

function paragraph(input: WhyInput, ctx: ExplainContext): string {
  const { plan } = input;
  const parts = [headline(input, ctx)];
  const waits = [...new Set(plan.blockers.map((b) => blockerSentence(b, ctx)))];
  parts.push(...waits.map((w) => sentence(w, input.set)));
  const acts = plan.actions.filter((a) => a.kind !== 'deleteRevision');
  if (acts.length > 0) {
    const named = acts.slice(0, LISTED_ACTIONS).map(describeAction).join(', ');
    const more = acts.length > LISTED_ACTIONS ? `, and ${acts.length - LISTED_ACTIONS} more (see \`plan\`)` : '';
    parts.push(`Next the controller will ${named}${more}.`);
  } else if (waits.length === 0) {
    parts.push('Nothing is blocked and the controller has nothing to do.');
  }
  const failed = input.lastFailure;
  if (failed !== undefined && acts.length > 0) {
    const times = failed.count > 1 ? `, ${failed.count} times` : '';
    parts.push(`Its last attempt failed ${formatWait(Math.max(0, input.now - failed.at))} ago (${failed.reason}${times}): ${failed.message}; it retries with backoff.`);
  }
  if (plan.wakeAt !== undefined && plan.wakeAt > input.now) parts.push(`Without other changes it looks again in ${formatWait(plan.wakeAt - input.now)}.`);
  return parts.join(' ');
}

export function explainWhy(input: WhyInput): WhyReport {
  const ctx = explainContext(input);
  const { rows, hidden } = whyRows(input.pods, ctx, podNotes(input.plan, ctx));
  return { title: title(input.set, ctx), paragraph: paragraph(input, ctx), rows, hiddenRows: hidden };
}

function stateColor(state: string): string {
  if (state === 'Ready') return ANSI.green;
  if (state === 'Terminating' || state === 'Failed' || state === 'Missing' || state.endsWith('BackOff') || state.startsWith('Err')) return ANSI.red;
  return ANSI.yellow;
}

function tableLines(rows: readonly WhyRow[], paint: Paint): string[] {
  const cells = rows.map((r) => [
    String(r.ordinal),
    r.pod,
    r.revision ? `${r.revision} (${r.mark})` : '-',
    paint(stateColor(r.state), r.state),
    r.age || '-',
    r.notes.join('; '),
  ]);
  return renderTable(['ORDINAL', 'POD', 'REVISION', 'STATE', 'FOR', 'WAITING FOR / NEXT'], cells);
}

/** Title, paragraph (one line; terminals wrap it), blank line, table. */
export function renderWhy(report: WhyReport, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const lines = [paint(ANSI.bold, report.title), report.paragraph, '', ...tableLines(report.rows, paint)];
  if (report.hiddenRows > 0) lines.push(paint(ANSI.dim, `… ${report.hiddenRows} more ordinals not shown`));
  return `${lines.join('\n')}\n`;
}
