// The CRD schema of rollingUpdate's disruption-aware fields (validation/disruption-aware-update.ts checks
// them the same way on both APIs' strict path).

import { bool, rules, str, type Schema } from './schema-dsl.js';

/** A label key (IsQualifiedName): an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
const LABEL_PREFIX = '([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?';
const LABEL_NAME = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';

export const disruptionAwareSchema: Record<string, Schema> = {
  respectPodDisruptionBudgets: bool(
    'Ordinal extension: before an update deletion, every PodDisruptionBudget selecting the pod is checked; a deletion that would breach one waits (unset: false, as upstream).',
  ),
  topologyKey: rules(
    str(
      'Ordinal extension: a Node label (e.g. topology.kubernetes.io/zone); the update moves the pods of one of its values (a zone) at a time, zones in the order of their values, a zone updated and available before the next.',
      { maxLength: 317 },
    ),
    { rule: `self.matches('^${LABEL_PREFIX}${LABEL_NAME}$')`, message: "must be a label key: a name of at most 63 characters with an optional DNS subdomain prefix and '/' (e.g. 'topology.kubernetes.io/zone')" },
  ),
};
