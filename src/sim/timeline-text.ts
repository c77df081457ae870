// The human view of a timeline (`ordinal simulate --format text`): one aligned line per record and a closing
// summary block. It leaves out what only a program wants (the controller's Event writes: each Event is its own
// `event` line already) and says what a step changes instead of repeating the object it writes; the jsonl
// timeline keeps every record as it is.

import { objectChanges, summarizeChanges } from '../api/object-changes.js';
import type { KubeObject, StatefulSetStatus } from '../api/types.js';
import { applyMergePatch } from '../cluster/memory/merge-patch.js';
import { formatSeconds } from './format-seconds.js';
import { resourceFor } from './scenario-objects.js';
import type { Scenario, Step } from './scenario-types.js';
import { analysisCheckText, analysisOutcome, type RolloutSummary, type SummaryRecord, type TimelineRecord } from './timeline.js';

const time = (t: number): string => `${t.toFixed(3).padStart(10)}s`;

/** Seconds as the summary writes them: `33s`, `1.5s`. */
const seconds = formatSeconds;

function counters(s: StatefulSetStatus | null | undefined): string {
  if (!s) return '(no status)';
  const n = (v: number | undefined) => String(v ?? 0);
  return (
    `replicas=${n(s.replicas)} ready=${n(s.readyReplicas)} available=${n(s.availableReplicas)} ` +
    `current=${n(s.currentReplicas)} updated=${n(s.updatedReplicas)}`
  );
}

function conditions(s: StatefulSetStatus): string {
  const list = (s.conditions ?? []).map((c) => `${c.type}=${c.status}${c.reason ? `(${c.reason})` : ''}`);
  // onFailure: Rollback's record, when the set has one
  if (s.abortedRevision !== undefined) list.push(`aborted=${s.abortedRevision}`);
  return list.length ? ` ${list.join(' ')}` : '';
}

/** One line (or, for the summary, a block) per record, as given; no trailing newline. */
export function formatRecordText(r: TimelineRecord): string {
  const head = `${time(r.t)}  ${r.type.padEnd(9)}`;
  switch (r.type) {
    case 'step':
      return `${head} #${r.index} ${JSON.stringify(r.step)}`;
    case 'pod':
      return `${head} ${r.namespace}/${r.name.padEnd(16)} ${r.event.padEnd(11)} ${r.revision ?? '-'}${r.node === undefined ? '' : ` on ${r.node}${r.zone === undefined ? '' : ` (${r.zone})`}`}`;
    case 'waiting':
      return `${head} ${r.namespace}/${r.name.padEnd(16)} ${r.reason}: ${r.message}`;
    case 'claim':
      return `${head} ${r.namespace}/${r.name.padEnd(16)} ${r.event.padEnd(11)} request=${r.request ?? '-'} capacity=${r.capacity ?? '-'}`;
    case 'status':
      return `${head} ${r.namespace}/${r.name} gen=${r.generation ?? '-'} ${counters(r.status)}${conditions(r.status)}`;
    case 'event':
      return `${head} ${r.eventType} ${r.reason} ${r.involvedObject.kind}/${r.involvedObject.name}: ${r.message}`;
    case 'action':
      return `${head} ${r.verb} ${r.resource} ${r.namespace}/${r.name}${r.set ? ` (set ${r.set})` : ''}`;
    case 'analysis':
      if (r.pod !== undefined) return `${head} ${r.namespace}/${r.set} preUpdate hook of ${r.pod}: GET ${r.url ?? ''} -> ${r.message} (${r.ok ? 'passed' : 'failed'})`;
      return `${head} ${r.namespace}/${r.set} ${analysisCheckText(r)} -> ${r.message} (${analysisOutcome(r)})`;
    case 'expect':
      return `${head} #${r.index} ${r.ok ? 'ok' : 'FAILED'}: ${r.message}`;
    case 'failure':
      return `${head} #${r.index} FAILED: ${r.message}`;
    case 'violation':
      return `${head} ${r.invariant}: ${r.message}`;
    case 'summary':
      return formatSummaryText(r);
  }
}

/** `8 pods replaced`, `3 pods created`, `no pod replaced`. */
function podsPhrase(r: RolloutSummary): string {
  const replaced = Math.min(r.podsDeleted, r.podsCreated);
  const parts = [
    replaced > 0 ? `${replaced} pod${replaced === 1 ? '' : 's'} replaced` : '',
    r.podsCreated > replaced ? `${r.podsCreated - replaced} created` : '',
    r.podsDeleted > replaced ? `${r.podsDeleted - replaced} deleted` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no pod replaced';
}

/**
 * Each rollout of the run in one line (the demo's summary prints the same lines): when it started, what it
 * replaced, how long it took and how low availability went.
 */
export function rolloutLines(summary: SummaryRecord): string[] {
  return summary.rollouts.map((r) => {
    const name = r.namespace === 'default' ? r.name : `${r.namespace}/${r.name}`;
    const paused = r.pausedSeconds !== undefined ? ` (paused by the user for ${seconds(r.pausedSeconds)})` : '';
    const end =
      r.convergedAt !== null
        ? `took ${seconds(r.convergedAt - r.startedAt)}${paused}`
        : r.replacedAt !== null
          ? `replaced by the next change at t=${seconds(r.replacedAt)}`
          : `not converged by the end (t=${seconds(summary.endedAt)})${paused}`;
    const low = r.lowestAvailable;
    const back = r.aborted === undefined ? '' : `; aborted at t=${seconds(r.aborted.at)}, the way back ${r.convergedAt === null ? 'unfinished' : `took ${seconds(r.convergedAt - r.aborted.at)}`} with lowest availability ${r.aborted.lowestAvailable.replicas} of ${r.aborted.lowestAvailable.of}`;
    return `rollout of ${name} (generation ${r.generation}${r.revision ? `, revision ${r.revision}` : ''}): started at t=${seconds(r.startedAt)}, ${podsPhrase(r)}, ${end}, lowest availability ${low.replicas} of ${low.of} at t=${seconds(low.at)}${back}`;
  });
}

export function formatSummaryText(r: SummaryRecord, failures: readonly string[] = []): string {
  const verdict = failures.length ? 'FAILED ' : '';
  const lines = [
    `${time(r.t)}  summary   ${verdict}converged=${r.converged} convergedAt=${r.convergedAt ?? '-'} endedAt=${r.endedAt}`,
    ...failures.map((f) => `    failed: ${f}`),
    ...Object.entries(r.sets).map(([name, status]) => `    ${name}: ${counters(status)}`),
    ...rolloutLines(r).map((l) => `    ${l}`),
    `    violations: ${r.violations.length === 0 ? 'none' : ''}`,
    ...r.violations.map((v) => `      t=${v.t} ${v.invariant}: ${v.message}`),
  ];
  // statefulset_status_condition repeats the sets' conditions, not a measurement: left out of the text
  const interesting = Object.entries(r.metrics).filter(([k]) => k.startsWith('statefulset_') && !k.startsWith('statefulset_status_condition{'));
  if (interesting.length) lines.push('    metrics:', ...interesting.map(([k, v]) => `      ${k} ${v}`));
  return lines.join('\n');
}

type Doc = KubeObject & { spec?: unknown };

const keyOf = (resource: { plural: string; namespaced: boolean } | undefined, namespace: string | undefined, name: string): string =>
  `${resource?.plural ?? ''}/${resource?.namespaced === false ? '' : (namespace ?? 'default')}/${name}`;

/** What a document change does to spec, labels and annotations, in words. */
function changeText(prev: Doc, next: Doc): string {
  const meta = (d: Doc) => ({ labels: d.metadata.labels ?? {}, annotations: d.metadata.annotations ?? {} });
  const changes = [...objectChanges(prev.spec, next.spec), ...objectChanges({ metadata: meta(prev) }, { metadata: meta(next) })];
  return summarizeChanges(changes, 4, 'no change');
}

/**
 * The text view of one run, record by record. It follows the objects as the scenario writes them (its objects,
 * then its apply, patch and setImage steps), so that a step line says what the step changes.
 */
export class TextTimeline {
  private readonly docs = new Map<string, Doc>();
  private readonly failures: string[] = [];

  constructor(private readonly scenario: Pick<Scenario, 'objects' | 'steps'>) {
    for (const { resource, object } of scenario.objects) this.docs.set(keyOf(resource, object.metadata.namespace, object.metadata.name ?? ''), object);
  }

  /** The record's text, or undefined for a record the text view leaves out. */
  format(r: TimelineRecord): string | undefined {
    switch (r.type) {
      case 'action':
        return r.resource === 'events' ? undefined : formatRecordText(r);
      case 'step': {
        const step = this.scenario.steps[r.index];
        const said = step === undefined ? undefined : this.stepText(step);
        return said === undefined ? formatRecordText(r) : `${time(r.t)}  ${'step'.padEnd(9)} #${r.index} ${said}`;
      }
      case 'failure':
        this.failures.push(`step #${r.index} at t=${seconds(r.t)}: ${r.message}`);
        return formatRecordText(r);
      case 'expect':
        if (!r.ok) this.failures.push(`expect #${r.index} at t=${seconds(r.t)}: ${r.message}`);
        return formatRecordText(r);
      case 'summary':
        return formatSummaryText(r, this.failures);
      case 'pod':
      case 'status':
      case 'event':
      case 'claim':
      case 'waiting':
      case 'violation':
      case 'analysis':
        return formatRecordText(r);
    }
  }

  /** apply and patch in words (what they change); undefined: the step as given says it best. */
  private stepText(step: Step): string | undefined {
    switch (step.kind) {
      case 'apply': {
        const { resource, object } = step.object;
        const key = keyOf(resource, object.metadata.namespace, object.metadata.name ?? '');
        const prev = this.docs.get(key);
        // kubectl apply of a whole object: the spec is replaced, labels and annotations only when given
        const next: Doc = prev === undefined ? object : { ...object, metadata: { ...object.metadata, labels: object.metadata.labels ?? prev.metadata.labels, annotations: object.metadata.annotations ?? prev.metadata.annotations } };
        this.docs.set(key, next);
        const what = `apply ${object.kind ?? ''} ${object.metadata.name ?? ''}`;
        return prev === undefined ? `${what} (created)` : `${what}: ${changeText(prev, next)}`;
      }
      case 'patch': {
        const key = keyOf(resourceFor(step.target.apiVersion, step.target.kind), step.target.namespace, step.target.name);
        const prev = this.docs.get(key);
        if (prev === undefined) return undefined;
        const next = applyMergePatch(prev, step.merge) as Doc;
        this.docs.set(key, next);
        return `patch ${step.target.kind} ${step.target.name}: ${changeText(prev, next)}`;
      }
      case 'setImage': {
        const key = keyOf(resourceFor(step.apiVersion, 'StatefulSet'), step.set.namespace, step.set.name);
        const prev = this.docs.get(key);
        if (prev !== undefined) this.docs.set(key, withImage(prev, step.container, step.image));
        return undefined;
      }
      case 'delete':
        this.docs.delete(keyOf(resourceFor(step.target.apiVersion, step.target.kind), step.target.namespace, step.target.name));
        return undefined;
      case 'deletePod':
      case 'advance':
      case 'waitFor':
      case 'expect':
      case 'restartController':
      case 'endpoint':
      case 'pause':
      case 'resume':
      case 'promote':
      case 'abort':
      case 'retry':
        return undefined;
    }
  }
}

/** The document with that container's image (a setImage step), for the next step's comparison. */
function withImage(doc: Doc, container: string, image: string): Doc {
  const next = structuredClone(doc) as Doc & { spec?: { template?: { spec?: { containers?: { name: string; image?: string }[]; initContainers?: { name: string; image?: string }[] } } } };
  const pod = next.spec?.template?.spec;
  for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) if (c.name === container) c.image = image;
  return next;
}
