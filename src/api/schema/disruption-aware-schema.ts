// The CRD schema of rollingUpdate's disruption-aware fields (validation/disruption-aware-update.ts checks
// them the same way on both APIs' strict path).

import { MAX_PRIORITY_VALUES } from '../validation/disruption-aware-update.js';
import { bool, list, obj, rules, str, type CelRule, type Schema } from './schema-dsl.js';

/** A label key (IsQualifiedName): an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
const LABEL_PREFIX = '([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?';
const LABEL_NAME = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';

const labelKey = (description: string, example: string): Schema =>
  rules(str(description, { maxLength: 317 }), {
    rule: `self.matches('^${LABEL_PREFIX}${LABEL_NAME}$')`,
    message: `must be a label key: a name of at most 63 characters with an optional DNS subdomain prefix and '/' (e.g. '${example}')`,
  });

export const disruptionAwareSchema: Record<string, Schema> = {
  respectPodDisruptionBudgets: bool(
    'Ordinal extension: before an update deletion, every PodDisruptionBudget selecting the pod is checked; a deletion that would breach one waits (unset: false, as upstream).',
  ),
  topologyKey: labelKey(
    'Ordinal extension: a Node label (e.g. topology.kubernetes.io/zone); the update moves the pods of one of its values (a zone) at a time, zones in the order of their values, a zone updated and available before the next.',
    'topology.kubernetes.io/zone',
  ),
  updateOrder: str(
    'Ordinal extension: Ordinal (unset: the same) updates pods top-down by ordinal, as upstream; Priority updates them by the pod label priority.label, lowest priority first, ties by ordinal (highest first).',
    { enum: ['Ordinal', 'Priority'] },
  ),
  priority: obj('Ordinal extension: under updateOrder Priority, where a pod\'s priority is read from.', {
    label: labelKey('The pod label (e.g. role).', 'role'),
    values: list(
      'Values of the label from the first updated to the last (e.g. [replica, primary]); a pod without the label, or with a value not listed, goes before them all. A pod of a higher priority waits until every pod of a lower one is updated and every replica is available.',
      str('A label value.', { maxLength: 63 }),
      { maxItems: MAX_PRIORITY_VALUES },
    ),
  }, { required: ['label'] }),
};

/** On the rollingUpdate block: updateOrder Priority and priority come together (as the validator checks). */
export const UPDATE_ORDER_RULES: CelRule[] = [
  {
    rule: "has(self.priority) || !has(self.updateOrder) || self.updateOrder != 'Priority'",
    message: 'updateOrder Priority reads the priority from a pod label',
    fieldPath: '.priority',
    reason: 'FieldValueRequired',
  },
  { rule: "!has(self.priority) || (has(self.updateOrder) && self.updateOrder == 'Priority')", message: "only allowed with updateOrder 'Priority'", fieldPath: '.priority' },
];
