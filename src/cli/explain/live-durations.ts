// How long a live set's pods take, from its pods and the Events in its namespace (see
// sim/learned-durations.ts), and what a watch saw: what `forecast` and the ETA of `rollout status` both start
// from.

import { Resources, type ClusterClient } from '../../api/client.js';
import type { KubeEvent, Pod, StatefulSet } from '../../api/types.js';
import type { LearnedDurations, WatchedTermination } from '../../sim/learned-durations.js';

export async function learnLiveDurations(client: ClusterClient, set: StatefulSet, pods: readonly Pod[], watched: readonly WatchedTermination[] = []): Promise<LearnedDurations> {
  const events = (await client.list<KubeEvent>(Resources.events, set.metadata.namespace ?? 'default')).items;
  // Loaded only now: commands that never forecast do not need it.
  const { learnDurations } = await import('../../sim/learned-durations.js');
  return learnDurations(set, pods, events, watched);
}
