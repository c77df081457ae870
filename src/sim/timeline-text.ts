// The human view of a timeline (`ordinal simulate --format text`): one aligned line per record and a
// closing summary block.

import type { StatefulSetStatus } from '../api/types.js';
import type { SummaryRecord, TimelineRecord } from './timeline.js';

const time = (t: number): string => `${t.toFixed(3).padStart(10)}s`;

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
  return list.length ? ` ${list.join(' ')}` : '';
}

/** One line (or, for the summary, a block) per record; no trailing newline. */
export function formatRecordText(r: TimelineRecord): string {
  const head = `${time(r.t)}  ${r.type.padEnd(9)}`;
  switch (r.type) {
    case 'step':
      return `${head} #${r.index} ${JSON.stringify(r.step)}`;
    case 'pod':
      return `${head} ${r.namespace}/${r.name.padEnd(16)} ${r.event.padEnd(11)} ${r.revision ?? '-'}`;
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

export function formatSummaryText(r: SummaryRecord): string {
  const lines = [
    `${time(r.t)}  summary   converged=${r.converged} convergedAt=${r.convergedAt ?? '-'} endedAt=${r.endedAt}`,
    ...Object.entries(r.sets).map(([name, status]) => `    ${name}: ${counters(status)}`),
    `    violations: ${r.violations.length === 0 ? 'none' : ''}`,
    ...r.violations.map((v) => `      t=${v.t} ${v.invariant}: ${v.message}`),
  ];
  const interesting = Object.entries(r.metrics).filter(([k]) => k.startsWith('statefulset_'));
  if (interesting.length) lines.push('    metrics:', ...interesting.map(([k, v]) => `      ${k} ${v}`));
  return lines.join('\n');
}
