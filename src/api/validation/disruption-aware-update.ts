// The disruption-aware fields of rollingUpdate (apps.ordinal.dev/v1 only): respectPodDisruptionBudgets,
// topologyKey, updateOrder and priority. In an apps/v1 object each is Forbidden, as every extension field.

import { EXTENSION_ONLY } from './context.js';
import { child, forbidden, index, invalid, notSupported, required, tooMany, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { STRATEGY_PATH } from './rolling-update.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { arrayAt, objectAt, stringAt, typeIssue } from './values.js';
import { UPDATE_ORDERS } from '../types.js';

const RU_PATH = child(STRATEGY_PATH, 'rollingUpdate');
/** The fields this module owns, under rollingUpdate. */
/** The CRD's bound on priority.values (disruption-aware-schema.ts). */
export const MAX_PRIORITY_VALUES = 16;
const FIELDS = ['respectPodDisruptionBudgets', 'topologyKey', 'updateOrder', 'priority'] as const;

/** apps/v1: each field set is Forbidden. */
export function forbidDisruptionAware(rollingUpdate: JsonObject, out: IssueList): void {
  for (const f of FIELDS) if (!isAbsent(rollingUpdate[f])) out.add(forbidden(child(RU_PATH, f), EXTENSION_ONLY));
}

/** apps.ordinal.dev/v1: the fields' types and values. */
export function validateDisruptionAware(rollingUpdate: JsonObject, out: IssueList): void {
  const respect = rollingUpdate.respectPodDisruptionBudgets;
  if (!isAbsent(respect) && typeof respect !== 'boolean') out.add(typeIssue(child(RU_PATH, 'respectPodDisruptionBudgets'), respect, 'boolean'));
  // a node label key, as a topology spread constraint's topologyKey
  const keyPath = child(RU_PATH, 'topologyKey');
  const key = stringAt(rollingUpdate.topologyKey, keyPath, out);
  if (key !== undefined) for (const msg of isQualifiedName(key)) out.add(invalid(keyPath, key, msg));
  validateUpdateOrder(rollingUpdate, out);
}

/** updateOrder, and priority: the label key and its values in update order; Priority needs the label. */
function validateUpdateOrder(rollingUpdate: JsonObject, out: IssueList): void {
  const orderPath = child(RU_PATH, 'updateOrder');
  const order = stringAt(rollingUpdate.updateOrder, orderPath, out);
  if (order !== undefined && !(UPDATE_ORDERS as readonly string[]).includes(order)) out.add(notSupported(orderPath, order, UPDATE_ORDERS));
  const priorityPath = child(RU_PATH, 'priority');
  if (isAbsent(rollingUpdate.priority)) {
    if (order === 'Priority') out.add(required(priorityPath, 'updateOrder Priority reads the priority from a pod label'));
    return;
  }
  if (order !== 'Priority') out.add(invalid(priorityPath, rollingUpdate.priority, "only allowed with updateOrder 'Priority'"));
  const priority = objectAt(rollingUpdate.priority, priorityPath, out);
  if (priority === undefined) return;
  const labelPath = child(priorityPath, 'label');
  const label = stringAt(priority.label, labelPath, out);
  if (label === undefined) out.add(required(labelPath));
  else for (const msg of isQualifiedName(label)) out.add(invalid(labelPath, label, msg));
  const valuesPath = child(priorityPath, 'values');
  const values = isAbsent(priority.values) ? [] : (arrayAt(priority.values, valuesPath, out) ?? []);
  if (values.length > MAX_PRIORITY_VALUES) out.add(tooMany(valuesPath, values.length, MAX_PRIORITY_VALUES));
  values.forEach((v, i) => {
    const value = stringAt(v, index(valuesPath, i), out);
    if (value !== undefined) for (const msg of isValidLabelValue(value)) out.add(invalid(index(valuesPath, i), value, msg));
  });
}
