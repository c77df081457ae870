// The settings a forecast compares with the set's own: other maxUnavailable values, batchStartPolicy
// Together, podManagementPolicy Parallel, podUpdatePolicy InPlaceIfPossible (or Recreate for a set that
// updates in place), and no topologyKey for a set that moves by zone. Kept apart from ./forecast.ts, which
// runs simulations, so that the
// CLI can parse `--candidate` without loading the simulator.

import { maxUnavailableOf } from '../api/intstr.js';
import type { StatefulSet } from '../api/types.js';

/** A setting to try instead of the set's own: fields set on top of the change. */
export interface Candidate {
  label: string;
  set: Array<{ path: string; value: unknown }>;
  /** Why it cannot simply be applied to the live set (an immutable field): the set is then created with it. */
  note?: string;
}

export type Setting = 'maxUnavailable' | 'batchStartPolicy' | 'podManagementPolicy' | 'podUpdatePolicy';
export const SETTINGS: readonly Setting[] = ['maxUnavailable', 'batchStartPolicy', 'podManagementPolicy', 'podUpdatePolicy'];

/** A candidate that sets one setting of this set (maxUnavailable in its strategy's own block). */
export function settingCandidate(setting: Setting, value: unknown, set: StatefulSet): Candidate {
  const label = `${setting} ${String(value)}`;
  const block = set.spec.updateStrategy?.type === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate';
  if (setting === 'maxUnavailable') return { label, set: [{ path: `spec.updateStrategy.${block}.maxUnavailable`, value }] };
  if (setting === 'batchStartPolicy' || setting === 'podUpdatePolicy') return { label, set: [{ path: `spec.updateStrategy.rollingUpdate.${setting}`, value }] };
  return { label, set: [{ path: 'spec.podManagementPolicy', value }], note: 'immutable: needs the set recreated (kubectl delete --cascade=orphan, then apply)' };
}

/** The candidates worth comparing for this set: other maxUnavailable values, Together, Parallel, the other podUpdatePolicy, no topologyKey. */
export function defaultCandidates(set: StatefulSet): Candidate[] {
  const type = set.spec.updateStrategy?.type ?? 'RollingUpdate';
  if (type !== 'RollingUpdate' && type !== 'EnforcedRollingUpdate') return [];
  const current = maxUnavailableOf(set);
  const replicas = set.spec.replicas ?? 1;
  const values = [...new Set([1, 2, Math.max(1, Math.floor(replicas / 4)), Math.max(1, Math.floor(replicas / 2))])].filter((v) => v !== current && v <= replicas);
  const out = values.map((v) => settingCandidate('maxUnavailable', v, set));
  const ordered = (set.spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
  if (ordered && type === 'RollingUpdate' && set.apiVersion === 'apps.ordinal.dev/v1' && set.spec.updateStrategy?.rollingUpdate?.batchStartPolicy !== 'Together') {
    out.push(settingCandidate('batchStartPolicy', 'Together', set));
  }
  if (ordered) out.push(settingCandidate('podManagementPolicy', 'Parallel', set));
  if (type === 'RollingUpdate' && set.apiVersion === 'apps.ordinal.dev/v1') {
    const policy = set.spec.updateStrategy?.rollingUpdate?.podUpdatePolicy ?? 'Recreate';
    out.push(settingCandidate('podUpdatePolicy', policy === 'Recreate' ? 'InPlaceIfPossible' : 'Recreate', set));
  }
  // what moving one zone at a time costs: the same rollout by ordinal only
  if (type === 'RollingUpdate' && set.spec.updateStrategy?.rollingUpdate?.topologyKey) {
    out.push({ label: 'without topologyKey', set: [{ path: 'spec.updateStrategy.rollingUpdate.topologyKey', value: null }] });
  }
  return out;
}

