// Ordinals past int32: validation accepts any ordinals.start ≥ 0 and replicas ≥ 0, so start + replicas can
// run past 2147483647. A pod for such an ordinal would carry a name whose ordinal does not parse as int32, so
// it could never be matched to its slot again (upstream would create it and then ignore it forever);
// slotCountOf stops the range at INT32_MAX instead, and this module says so, as a blocker and a Warning event.

import type { StatefulSet } from '../../api/types.js';
import { EventReason } from './event-texts.js';
import type { Blocker, PlannedEvent } from './plan-types.js';
import { INT32_MAX, replicasOf, slotCountOf, startOrdinal } from './spec.js';

/** The ordinalOverflow blocker, when some replicas of `set` fall beyond the largest ordinal. */
export function ordinalOverflow(set: StatefulSet): Extract<Blocker, { kind: 'ordinalOverflow' }> | undefined {
  const replicas = replicasOf(set);
  const uncreatable = replicas - slotCountOf(set);
  if (uncreatable <= 0) return undefined;
  return { kind: 'ordinalOverflow', start: startOrdinal(set), replicas, uncreatable };
}

/**
 * The Warning for an overflow, once per spec generation: the first sync of a generation is the one whose
 * stored status has not yet observed it (later syncs of the same spec would only repeat it).
 */
export function ordinalOverflowEvent(set: StatefulSet, b: Extract<Blocker, { kind: 'ordinalOverflow' }>): PlannedEvent | undefined {
  if (set.status?.observedGeneration !== undefined && set.status.observedGeneration === set.metadata.generation) return undefined;
  const first = INT32_MAX + 1;
  const ordinals = b.uncreatable === 1 ? `ordinal ${first}` : `ordinals ${first}-${b.start + b.replicas - 1}`;
  return {
    type: 'Warning',
    reason: EventReason.ordinalOverflow,
    message:
      `spec.ordinals.start ${b.start} + spec.replicas ${b.replicas} runs past ${INT32_MAX}, the largest pod ordinal: ` +
      `${b.uncreatable} of ${b.replicas} replicas (${ordinals}) cannot be created; lower spec.ordinals.start or spec.replicas`,
  };
}
