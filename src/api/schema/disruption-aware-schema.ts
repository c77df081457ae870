// The CRD schema of rollingUpdate's disruption-aware fields (validation/disruption-aware-update.ts checks
// them the same way on both APIs' strict path).

import { bool, type Schema } from './schema-dsl.js';

export const disruptionAwareSchema: Record<string, Schema> = {
  respectPodDisruptionBudgets: bool(
    'Ordinal extension: before an update deletion, every PodDisruptionBudget selecting the pod is checked; a deletion that would breach one waits (unset: false, as upstream).',
  ),
};
