// The demo's closing summary, computed from the timeline; its rollout lines are the text timeline's.

import { formatSeconds } from '../../report/chart-layout.js';
import { rolloutLines } from '../../sim/timeline-text.js';
import type { SummaryRecord, TimelineRecord } from '../../sim/timeline.js';

export function demoSummary(records: readonly TimelineRecord[], summary: SummaryRecord): string[] {
  const expects = records.filter((r) => r.type === 'expect');
  const held = expects.filter((r) => r.type === 'expect' && r.ok).length;
  const observed = Object.entries(summary.metrics).filter(([k]) => k.startsWith('statefulset_controller_statefulset_max_unavailable'));
  const lines = ['Summary'];
  lines.push(`  converged: ${summary.converged && summary.convergedAt !== null ? `yes, at t=${formatSeconds(summary.convergedAt)}` : 'no'}   ended at t=${formatSeconds(summary.endedAt)} (virtual)`);
  lines.push(...rolloutLines(summary).map((l) => `  ${l}`));
  for (const [name, status] of Object.entries(summary.sets)) {
    lines.push(`  ${name}: replicas ${status?.replicas ?? 0}, available ${status?.availableReplicas ?? 0}, updated ${status?.updatedReplicas ?? 0}, revision ${status?.updateRevision ?? '-'}`);
  }
  for (const [k, v] of observed) lines.push(`  ${k} = ${v}`);
  lines.push(`  expectations held: ${held}/${expects.length}   invariant violations: ${summary.violations.length}`);
  for (const r of records) if (r.type === 'failure') lines.push(`  FAILED step #${r.index} at t=${formatSeconds(r.t)}: ${r.message}`);
  return lines;
}
