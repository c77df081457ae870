// The demo's closing summary, computed from the timeline; its rollout lines are the text timeline's.

import { rolloutLines } from '../../sim/timeline-text.js';
import type { SummaryRecord, TimelineRecord } from '../../sim/timeline.js';

export function demoSummary(records: readonly TimelineRecord[], summary: SummaryRecord): string[] {
  const expects = records.filter((r) => r.type === 'expect');
  const held = expects.filter((r) => r.type === 'expect' && r.ok).length;
  const observed = Object.entries(summary.metrics).filter(([k]) => k.startsWith('statefulset_max_unavailable'));
  const lines = ['Summary'];
  lines.push(`  converged: ${summary.converged ? `yes, at t=${summary.convergedAt}s` : 'no'}   ended at t=${summary.endedAt}s (virtual)`);
  lines.push(...rolloutLines(summary).map((l) => `  ${l}`));
  for (const [name, status] of Object.entries(summary.sets)) {
    lines.push(`  ${name}: replicas ${status?.replicas ?? 0}, available ${status?.availableReplicas ?? 0}, updated ${status?.updatedReplicas ?? 0}, revision ${status?.updateRevision ?? '-'}`);
  }
  for (const [k, v] of observed) lines.push(`  ${k} = ${v}`);
  lines.push(`  expectations held: ${held}/${expects.length}   invariant violations: ${summary.violations.length}`);
  for (const r of records) if (r.type === 'failure') lines.push(`  FAILED step #${r.index} at t=${r.t}s: ${r.message}`);
  return lines;
}
