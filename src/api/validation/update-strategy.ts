// spec.updateStrategy: the type switch and the gate rules of Recreate.
// The rollingUpdate parameters are in rolling-update.ts, EnforcedRollingUpdate in extensions.ts.

import type { SpecContext } from './context.js';
import { validateEnforcedStrategy } from './extensions.js';
import { child, forbidden, invalid, required, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { goRollingUpdate, rejectRollingUpdate, STRATEGY_PATH, validateRollingParams } from './rolling-update.js';
import { objectAt, stringAt } from './values.js';

const CLASSIC_TYPES = "must be 'RollingUpdate' or 'OnDelete'";
const ORDINAL_TYPES = "must be 'RollingUpdate', 'OnDelete', 'Recreate' or 'EnforcedRollingUpdate'";
/**
 * Gate-off Recreate on apps.ordinal.dev/v1 (our wording). For apps/v1 we give what a real v1.37.1
 * kube-apiserver answers with the gate off: the classic "must be 'RollingUpdate' or 'OnDelete'" Invalid
 * at spec.updateStrategy (checked in test/e2e/control-plane.test.ts), not the Forbidden the spec predicted.
 */
export const RECREATE_GATED = 'Recreate update strategy requires the StatefulSetRecreateStrategy feature gate';

const goStrategy = (us: JsonObject): unknown => ({ Type: us.type ?? '', RollingUpdate: goRollingUpdate(us.rollingUpdate) });

/** Recreate needs its gate, except that an object already on Recreate may stay on it. */
function validateRecreate(strategy: JsonObject, ctx: SpecContext, out: IssueList): void {
  if (!ctx.features.StatefulSetRecreateStrategy && ctx.prevType !== 'Recreate') {
    if (!ctx.ordinal) return out.add(invalid(STRATEGY_PATH, goStrategy(strategy), CLASSIC_TYPES));
    return out.add(forbidden(child(STRATEGY_PATH, 'type'), RECREATE_GATED));
  }
  rejectRollingUpdate(strategy, out);
}

// upstream: apps/validation ValidateStatefulSetSpec (the updateStrategy switch)
export function validateUpdateStrategy(spec: JsonObject, ctx: SpecContext, out: IssueList): void {
  const strategy = objectAt(spec.updateStrategy, STRATEGY_PATH, out) ?? (isAbsent(spec.updateStrategy) ? {} : undefined);
  if (!strategy) return;
  const type = stringAt(strategy.type, child(STRATEGY_PATH, 'type'), out);
  if (type === undefined && !isAbsent(strategy.type)) return;
  switch (type ?? '') {
    case '':
      return out.add(required(STRATEGY_PATH));
    case 'RollingUpdate':
      validateRollingParams(strategy.rollingUpdate, child(STRATEGY_PATH, 'rollingUpdate'), out);
      return;
    case 'OnDelete':
      return rejectRollingUpdate(strategy, out);
    case 'Recreate':
      return validateRecreate(strategy, ctx, out);
    case 'EnforcedRollingUpdate':
      return validateEnforcedStrategy(strategy, ctx, out);
    default:
      return out.add(invalid(STRATEGY_PATH, goStrategy(strategy), ctx.ordinal ? ORDINAL_TYPES : CLASSIC_TYPES));
  }
}
