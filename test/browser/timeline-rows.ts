// The per-ordinal revision history twice: as the timeline records say it happened, and as the report page in
// the browser draws it (read through the rows' data-ordinal and the bars' data-revision hooks).

import type { Page } from 'playwright-core';
import type { TimelineRecord } from '../../src/sim/timeline.js';

/** Ordinal → revisions in order of appearance, consecutive repeats collapsed. */
export type RevisionHistory = Map<number, string[]>;

function append(history: RevisionHistory, ordinal: number, revision: string): void {
  const list = history.get(ordinal) ?? [];
  if (list.at(-1) !== revision) list.push(revision);
  history.set(ordinal, list);
}

/** From the pod records of one StatefulSet (`set` is `namespace/name`). */
export function historyFromRecords(records: readonly TimelineRecord[], set: string): RevisionHistory {
  const history: RevisionHistory = new Map();
  for (const r of records) {
    if (r.type !== 'pod' || r.ordinal === null || `${r.namespace}/${r.set}` !== set) continue;
    if (!history.has(r.ordinal)) history.set(r.ordinal, []);
    if (r.revision !== null) append(history, r.ordinal, r.revision);
  }
  return history;
}

/** From the timeline SVG's rows of one set, in the order the rows are drawn. */
export async function historyFromPage(page: Page, set: string): Promise<RevisionHistory> {
  const history: RevisionHistory = new Map();
  const rows = await page.locator(`svg.timeline g.row[data-group="${set}"]`).all();
  for (const row of rows) {
    const ordinal = Number(await row.getAttribute('data-ordinal'));
    if (history.has(ordinal)) throw new Error(`two rows for ordinal ${ordinal}`);
    history.set(ordinal, []);
    for (const bar of await row.locator('g.seg').all()) {
      const revision = await bar.getAttribute('data-revision');
      if (revision) append(history, ordinal, revision);
    }
  }
  return history;
}

/** Ordinal → number of revision changes (a pod replaced by one of another revision counts once). */
export function revisionChanges(history: RevisionHistory): Map<number, number> {
  return new Map([...history].map(([ordinal, revisions]) => [ordinal, Math.max(0, revisions.length - 1)]));
}
