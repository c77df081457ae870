// Which update behaviour runs, given the declared strategy and the feature gates: a set
// that uses a disabled feature falls back to upstream's behaviour and says so (FeatureDisabled).

import type { Features } from '../../api/features.js';
import { maxUnavailableOf, partitionOf } from '../../api/intstr.js';
import { ORDINAL_V1, type OnFailurePolicy, type StatefulSet } from '../../api/types.js';
import { declaredStrategy, isParallel } from '../model/spec.js';

export type StrategyKind = 'RollingUpdate' | 'OnDelete' | 'Recreate' | 'EnforcedRollingUpdate';

export interface DisabledFeature {
  gate: string;
  field: string;
  message: string;
}

export interface EffectiveStrategy {
  /** What runs. */
  kind: StrategyKind;
  /** spec.updateStrategy.type as written. */
  declared: string;
  /** RollingUpdate with MaxUnavailableStatefulSet off: upstream's one-at-a-time loop (§4.3). */
  legacy: boolean;
  /** Index below which pods are never updated. */
  partition: number;
  /** Effective maxUnavailable (1 for the legacy loop and for strategies without one). */
  maxUnavailable: number;
  /** batchStartPolicy: Together under OrderedReady. */
  together: boolean;
  /** What a failed rollout does (RollingUpdate and EnforcedRollingUpdate of apps.ordinal.dev/v1; else Halt). */
  onFailure: OnFailurePolicy;
  disabled: DisabledFeature[];
}

const setRef = (set: StatefulSet): string => `${set.metadata.namespace ?? ''}/${set.metadata.name ?? ''}`;

function recreateDisabled(set: StatefulSet): DisabledFeature {
  return {
    gate: 'StatefulSetRecreateStrategy',
    field: 'spec.updateStrategy.type',
    message: `statefulset ${setRef(set)} uses Recreate strategy but feature gate StatefulSetRecreateStrategy is disabled`,
  };
}

function enforcedDisabled(set: StatefulSet): DisabledFeature {
  return {
    gate: 'EnforcedRollingUpdateInStatefulSet',
    field: 'spec.updateStrategy.type',
    message:
      `statefulset ${setRef(set)} uses EnforcedRollingUpdate strategy but feature gate ` +
      'EnforcedRollingUpdateInStatefulSet is disabled; falling back to RollingUpdate with its partition and maxUnavailable',
  };
}

function maxUnavailableDisabled(set: StatefulSet, field: string): DisabledFeature {
  return {
    gate: 'MaxUnavailableStatefulSet',
    field,
    message: `statefulset ${setRef(set)} sets maxUnavailable but feature gate MaxUnavailableStatefulSet is disabled; pods are updated one at a time`,
  };
}

/** The declared strategy after gate fallbacks: Recreate off → RollingUpdate; EnforcedRollingUpdate off → RollingUpdate. */
function kindOf(set: StatefulSet, features: Features, disabled: DisabledFeature[]): StrategyKind {
  const declared = declaredStrategy(set);
  if (declared === 'OnDelete') return 'OnDelete';
  if (declared === 'Recreate') {
    if (features.StatefulSetRecreateStrategy) return 'Recreate';
    disabled.push(recreateDisabled(set));
  }
  if (declared === 'EnforcedRollingUpdate') {
    if (features.EnforcedRollingUpdateInStatefulSet) return 'EnforcedRollingUpdate';
    disabled.push(enforcedDisabled(set));
  }
  return 'RollingUpdate';
}

/**
 * onFailure of the declared rolling strategy's block (an EnforcedRollingUpdate that falls back to RollingUpdate
 * keeps its own): Rollback only where it is asked for, in apps.ordinal.dev/v1.
 */
export function onFailureOf(set: StatefulSet): OnFailurePolicy {
  if (set.apiVersion !== ORDINAL_V1) return 'Halt';
  const strategy = set.spec.updateStrategy;
  const declared = declaredStrategy(set);
  const block = declared === 'EnforcedRollingUpdate' ? strategy?.enforcedRollingUpdate : declared === 'RollingUpdate' ? strategy?.rollingUpdate : undefined;
  return block?.onFailure === 'Rollback' ? 'Rollback' : 'Halt';
}

export function effectiveStrategy(set: StatefulSet, features: Features): EffectiveStrategy {
  const disabled: DisabledFeature[] = [];
  const kind = kindOf(set, features, disabled);
  const legacy = kind === 'RollingUpdate' && !features.MaxUnavailableStatefulSet;
  const declaredMaxUnavailable = maxUnavailableOf(set);
  if (legacy && declaredMaxUnavailable !== 1) {
    const block = declaredStrategy(set) === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate';
    disabled.push(maxUnavailableDisabled(set, `spec.updateStrategy.${block}.maxUnavailable`));
  }
  const rollingUpdate = set.spec.updateStrategy?.rollingUpdate;
  return {
    kind,
    declared: declaredStrategy(set),
    legacy,
    partition: kind === 'RollingUpdate' || kind === 'EnforcedRollingUpdate' ? partitionOf(set) : 0,
    maxUnavailable: legacy ? 1 : declaredMaxUnavailable,
    together: kind === 'RollingUpdate' && !legacy && !isParallel(set) && rollingUpdate?.batchStartPolicy === 'Together',
    onFailure: onFailureOf(set),
    disabled,
  };
}
