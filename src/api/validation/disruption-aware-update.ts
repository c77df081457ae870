// The disruption-aware fields of rollingUpdate (apps.ordinal.dev/v1 only): respectPodDisruptionBudgets and
// topologyKey. In an apps/v1 object each is Forbidden, as every extension field.

import { EXTENSION_ONLY } from './context.js';
import { child, forbidden, invalid, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { STRATEGY_PATH } from './rolling-update.js';
import { isQualifiedName } from './names.js';
import { stringAt, typeIssue } from './values.js';

const RU_PATH = child(STRATEGY_PATH, 'rollingUpdate');
/** The fields this module owns, under rollingUpdate. */
const FIELDS = ['respectPodDisruptionBudgets', 'topologyKey'] as const;

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
}
