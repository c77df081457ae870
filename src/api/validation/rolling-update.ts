// rollingUpdate (and Ordinal's enforcedRollingUpdate) parameters: partition and maxUnavailable, with
// upstream's messages and quirks.

import { atoi } from '../intstr.js';
import { child, invalid, NEGATIVE, type IssueList } from './field.js';
import { isAbsent, isObject, type JsonObject } from './json.js';
import { isValidPercent } from './names.js';
import { INT32_MAX, INT32_MIN, int32At, objectAt } from './values.js';

export const STRATEGY_PATH = 'spec.updateStrategy';
export const ONLY_ROLLING_UPDATE = "only allowed for updateStrategy 'RollingUpdate'";

/** Upstream prints the internal Go structs, whose JSON field names are the Go names. */
export const goRollingUpdate = (ru: unknown): unknown =>
  isObject(ru) ? { Partition: ru.partition ?? 0, MaxUnavailable: ru.maxUnavailable ?? null } : (ru ?? null);

function percentValue(v: unknown): number | undefined {
  return typeof v === 'string' && isValidPercent(v).length === 0 ? atoi(v.slice(0, -1)) : undefined;
}

// upstream: apps/validation getIntOrPercentValue (a non-percent string counts as its Atoi value, else 0)
function intOrPercentValue(v: unknown): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'string') return atoi(v) ?? 0;
  return typeof v === 'number' ? v : 0;
}

/** `maxUnavailable`: int ≥ 0 or "N%"; never 0; at most 100%. Not checked against replicas. */
// upstream: apps/validation validateRollingUpdateStatefulSet, ValidatePositiveIntOrPercent, IsNotMoreThan100Percent
export function validateMaxUnavailable(v: unknown, path: string, out: IssueList): void {
  if (typeof v === 'string') {
    for (const msg of isValidPercent(v)) out.add(invalid(path, v, msg));
  } else if (typeof v === 'number' && Number.isInteger(v)) {
    if (v < INT32_MIN || v > INT32_MAX) return out.add(invalid(path, v, 'must fit in a 32-bit signed integer'));
    if (v < 0) out.add(invalid(path, v, NEGATIVE));
  } else {
    // upstream's literal message, doubled '%' included
    return out.add(invalid(path, v, "must be an integer or percentage (e.g '5%%')"));
  }
  if (intOrPercentValue(v) === 0) out.add(invalid(path, v, 'cannot be 0'));
  const percent = percentValue(v);
  if (percent !== undefined && percent > 100) out.add(invalid(path, v, 'must not be greater than 100%'));
}

/** `{partition, maxUnavailable}` of rollingUpdate (and of Ordinal's enforcedRollingUpdate). */
// upstream: apps/validation validateRollingUpdateStatefulSet
export function validateRollingParams(value: unknown, path: string, out: IssueList): JsonObject | undefined {
  const params = objectAt(value, path, out);
  if (!params) return undefined;
  const partition = int32At(params.partition, child(path, 'partition'), out);
  if (partition !== undefined && partition < 0) out.add(invalid(child(path, 'partition'), partition, NEGATIVE));
  if (!isAbsent(params.maxUnavailable)) validateMaxUnavailable(params.maxUnavailable, child(path, 'maxUnavailable'), out);
  return params;
}

/** A rollingUpdate block under any type other than RollingUpdate. */
export function rejectRollingUpdate(strategy: JsonObject, out: IssueList): void {
  if (isAbsent(strategy.rollingUpdate)) return;
  out.add(invalid(child(STRATEGY_PATH, 'rollingUpdate'), goRollingUpdate(strategy.rollingUpdate), ONLY_ROLLING_UPDATE));
}
