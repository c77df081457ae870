// Writes a set's status through the status subresource, retrying on conflict with a fresh read (upstream
// updateStatefulSetStatus), and decides whether a write is needed at all (a steady-state
// sync writes nothing).

import type { ClusterClient, Resource } from '../api/client.js';
import type { StatefulSet, StatefulSetStatus } from '../api/types.js';
import { retryOnConflict } from './conflict-retry.js';

/** JSON equality that ignores key order and undefined members. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Whether to write: the planner says the status changed, or actions failed and the settled status
 * differs from the stored one (upstream writes the status even when the sync fails, §9.H).
 */
export function shouldWriteStatus(
  statusChanged: boolean,
  failed: boolean,
  status: StatefulSetStatus,
  stored: StatefulSetStatus | undefined,
): boolean {
  if (statusChanged) return true;
  return failed && !sameJson(status, stored);
}

/** Replaces `set`'s status; on Conflict re-reads the set and writes the same status onto it. */
// upstream: stateful_set_status_updater.go UpdateStatefulSetStatus
export async function writeStatus(
  client: ClusterClient,
  resource: Resource,
  set: StatefulSet,
  status: StatefulSetStatus,
): Promise<StatefulSet> {
  const { namespace, name } = set.metadata;
  return retryOnConflict(async (i) => {
    const base = i === 0 ? set : await client.get<StatefulSet>(resource, namespace, name ?? '');
    return client.updateStatus<StatefulSet>(resource, { ...base, status });
  });
}
