// The set's most recent failed write, from its Warning events (FailedCreate, FailedUpdate, FailedDelete):
// the planner cannot know that the API server refused its last attempt (a claim whose class cannot grow,
// a quota, an admission webhook), but `why` should say so next to what the controller will try again.

import { Resources, type ClusterClient } from '../../api/client.js';
import { isForbidden } from '../../api/errors.js';
import { fromTimestamp, type Instant, type KubeEvent, type StatefulSet } from '../../api/types.js';

export interface FailedWrite {
  reason: string;
  message: string;
  /** When it last happened. */
  at: Instant;
  count: number;
}

const FAILED_WRITES = new Set(['FailedCreate', 'FailedUpdate', 'FailedDelete']);
/** Older failures are history, not the reason the set waits now. */
const RECENT_MS = 10 * 60_000;

/** The newest failed write among `events` about `set` within the last ten minutes before `now`. */
export function lastFailedWrite(events: readonly KubeEvent[], set: StatefulSet, now: Instant): FailedWrite | undefined {
  let newest: FailedWrite | undefined;
  for (const e of events) {
    const o = e.involvedObject;
    if (e.type !== 'Warning' || !FAILED_WRITES.has(e.reason ?? '') || o.kind !== 'StatefulSet' || o.name !== set.metadata.name) continue;
    if (o.uid !== undefined && set.metadata.uid !== undefined && o.uid !== set.metadata.uid) continue;
    const stamp = e.lastTimestamp ?? e.firstTimestamp ?? e.metadata.creationTimestamp;
    const at = stamp === undefined ? undefined : fromTimestamp(stamp);
    if (at === undefined || Number.isNaN(at) || now - at > RECENT_MS || (newest !== undefined && newest.at >= at)) continue;
    newest = { reason: e.reason ?? '', message: e.message ?? '', at, count: e.count ?? 1 };
  }
  return newest;
}

/** The set's recent failed write, read from the Events of its namespace (none when reading Events is forbidden). */
export async function readFailedWrite(client: ClusterClient, set: StatefulSet, now: Instant): Promise<FailedWrite | undefined> {
  try {
    const events = (await client.list<KubeEvent>(Resources.events, set.metadata.namespace ?? 'default')).items;
    return lastFailedWrite(events, set, now);
  } catch (e) {
    if (isForbidden(e)) return undefined; // `why` still explains what the planner sees
    throw e;
  }
}
