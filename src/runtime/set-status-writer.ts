// Writes a set's status through the status subresource, retrying on conflict with a fresh read (upstream
// updateStatefulSetStatus). Whether to write at all is settleStatus's decision (settle-status.ts).

import type { ClusterClient, Resource } from '../api/client.js';
import type { StatefulSet, StatefulSetStatus } from '../api/types.js';
import { retryOnConflict } from './conflict-retry.js';

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
