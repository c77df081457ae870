// IntOrString arithmetic (k8s.io/apimachinery/pkg/util/intstr) and the two numbers every rolling update
// needs: maxUnavailable and the partition.

import type { IntOrString, StatefulSet } from './types.js';

/** Go's strconv.Atoi: optional sign and decimal digits only; undefined when it would fail. */
export function atoi(s: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : undefined;
}

/**
 * An int as is, or "N%" of `total`, rounded up or down. Throws Error for a string that is not a percentage
 * ("5", "abc", "1.5%"), as upstream returns an error.
 */
// upstream: util/intstr/intstr.go GetScaledValueFromIntOrPercent
export function getScaledValueFromIntOrPercent(v: IntOrString, total: number, roundUp: boolean): number {
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new Error(`invalid value for IntOrString: ${v} is not an integer`);
    return v;
  }
  if (typeof v !== 'string') throw new Error('invalid value for IntOrString: invalid type: neither int nor percentage');
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const percent = atoi(v.slice(0, -1));
  if (percent === undefined) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}`);
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

const strategyParams = (set: StatefulSet): { partition?: unknown; maxUnavailable?: unknown } | undefined => {
  const strategy = set?.spec?.updateStrategy;
  if (strategy?.type === 'RollingUpdate') return strategy.rollingUpdate;
  if (strategy?.type === 'EnforcedRollingUpdate') return strategy.enforcedRollingUpdate;
  return undefined;
};

/**
 * How many pods a rolling update may have unavailable: `rollingUpdate.maxUnavailable` (or, for Ordinal's
 * EnforcedRollingUpdate, `enforcedRollingUpdate.maxUnavailable`), nil ⇒ 1, percentages of `spec.replicas`
 * rounded down, then at least 1. Other strategies and invalid values give 1. Never throws.
 */
// upstream: stateful_set_utils.go getStatefulSetMaxUnavailable
export function maxUnavailableOf(set: StatefulSet): number {
  const value = strategyParams(set)?.maxUnavailable ?? 1;
  const replicas = set?.spec?.replicas ?? 1;
  try {
    const n = getScaledValueFromIntOrPercent(value as IntOrString, Number.isFinite(replicas) ? replicas : 1, false);
    return Number.isFinite(n) && n >= 1 ? n : 1;
  } catch {
    return 1;
  }
}

/**
 * The partition index of a RollingUpdate (or EnforcedRollingUpdate) set, else 0. Indices below it are never
 * updated. A missing or malformed value is 0.
 */
export function partitionOf(set: StatefulSet): number {
  const p = strategyParams(set)?.partition;
  return typeof p === 'number' && Number.isInteger(p) && p > 0 ? p : 0;
}
