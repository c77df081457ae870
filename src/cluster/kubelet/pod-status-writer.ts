// Pod status writes through /status with the current resourceVersion, re-reading and re-rendering on
// 409 Conflict like client-go's RetryOnConflict, so a concurrent writer never loses an update.

import { Resources, type ClusterClient } from '../../api/client.js';
import { isConflict, isNotFound } from '../../api/errors.js';
import type { Pod, PodStatus } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';

const ATTEMPTS = 5;

export interface StatusWrite {
  /** The pod as stored just before the write (what the write replaced). */
  before: Pod;
  after: Pod;
}

/**
 * Writes `render(current)` unless it equals the stored status. Resolves undefined when nothing was
 * written (no change, or the pod is gone); throws other API errors and a Conflict that outlasts the retries.
 * `rendered`: `render(pod)` already worked out, and known to differ from its status (the first attempt sends it).
 */
export async function writePodStatus(
  client: ClusterClient,
  pod: Pod,
  render: (current: Pod) => PodStatus,
  rendered?: PodStatus,
): Promise<StatusWrite | undefined> {
  let current = pod;
  for (let attempt = 1; ; attempt++) {
    const known = attempt === 1 ? rendered : undefined;
    const status = known ?? render(current);
    if (known === undefined && deepEqual(current.status, status)) return undefined;
    try {
      const after = await client.updateStatus<Pod>(Resources.pods, { ...current, status });
      return { before: current, after };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      if (!isConflict(e) || attempt >= ATTEMPTS) throw e;
    }
    try {
      current = await client.get<Pod>(Resources.pods, current.metadata.namespace, current.metadata.name ?? '');
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }
}
