// Ordinal's extension fields: the EnforcedRollingUpdate strategy, rollingUpdate
// .batchStartPolicy, .podUpdatePolicy and .inPlaceUpdateStrategy, onFailure (of either block) and spec.progressDeadlineSeconds, and the bounds (claim templates, selector, pod template lists) the CRD's CEL rules need. They exist only in apps.ordinal.dev/v1; in an apps/v1
// object each is Forbidden with a message pointing at the right apiVersion.

import { EXTENSION_ONLY, type SpecContext } from './context.js';
import { MAX_CLAIM_TEMPLATES } from './claim-template-update.js';
import { child, forbidden, invalid, NEGATIVE, notSupported, tooMany, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { forbidDisruptionAware, validateDisruptionAware } from './disruption-aware-update.js';
import { forbidLifecycle, validateLifecycle } from './lifecycle.js';
import { forbidSteps, validateSteps } from './rollout-steps.js';
import { rejectRollingUpdate, STRATEGY_PATH, validateRollingParams } from './rolling-update.js';
import { validateSelectorBounds } from './selector.js';
import { validateTemplateBounds } from './template-rules.js';
import { asObject, int32At, objectAt, stringAt } from './values.js';
import { PROGRESS_DEADLINE_AUTO } from '../types.js';
import { PROGRESS_DEADLINE_MESSAGE } from '../schema/crd-rules.js';

const TYPE_PATH = child(STRATEGY_PATH, 'type');
const ENFORCED_PATH = child(STRATEGY_PATH, 'enforcedRollingUpdate');
const BATCH_PATH = child(STRATEGY_PATH, 'rollingUpdate', 'batchStartPolicy');
const POD_UPDATE_PATH = child(STRATEGY_PATH, 'rollingUpdate', 'podUpdatePolicy');
const IN_PLACE_STRATEGY_PATH = child(STRATEGY_PATH, 'rollingUpdate', 'inPlaceUpdateStrategy');
const ON_FAILURE = 'onFailure';
const DEADLINE_PATH = 'spec.progressDeadlineSeconds';
const CLAIM_POLICY_PATH = 'spec.volumeClaimUpdatePolicy';
export const VOLUME_CLAIM_UPDATE_POLICIES = ['OnDelete', 'InPlace'] as const;
export const ENFORCED_GATED =
  'EnforcedRollingUpdate update strategy requires the EnforcedRollingUpdateInStatefulSet feature gate';
export const BATCH_START_POLICIES = ['Ordered', 'Together'] as const;
export const POD_UPDATE_POLICIES = ['Recreate', 'InPlaceIfPossible', 'InPlaceOnly'] as const;
export const ON_FAILURE_POLICIES = ['Halt', 'Rollback'] as const;

/** `onFailure` of a rollingUpdate or enforcedRollingUpdate block (`block` is the block's path). */
function validateOnFailure(params: JsonObject | undefined, block: string, out: IssueList): void {
  if (params) validateEnum(params.onFailure, child(block, ON_FAILURE), ON_FAILURE_POLICIES, out);
}

/**
 * The EnforcedRollingUpdate case of the type switch: apps.ordinal.dev/v1 only, gated like Recreate (an
 * object already using it may keep it), no rollingUpdate block, enforcedRollingUpdate as rollingUpdate.
 */
export function validateEnforcedStrategy(strategy: JsonObject, ctx: SpecContext, out: IssueList): void {
  if (!ctx.ordinal) return out.add(forbidden(TYPE_PATH, `EnforcedRollingUpdate ${EXTENSION_ONLY}`));
  if (!ctx.features.EnforcedRollingUpdateInStatefulSet && ctx.prevType !== 'EnforcedRollingUpdate') {
    return out.add(forbidden(TYPE_PATH, ENFORCED_GATED));
  }
  rejectRollingUpdate(strategy, out);
  const params = validateRollingParams(strategy.enforcedRollingUpdate, ENFORCED_PATH, out);
  validateOnFailure(params, ENFORCED_PATH, out);
  if (params) validateSteps(params, ENFORCED_PATH, out);
}

function forbidExtensions(spec: JsonObject, strategy: JsonObject | undefined, rollingUpdate: JsonObject | undefined, out: IssueList): void {
  if (!isAbsent(spec.progressDeadlineSeconds)) out.add(forbidden(DEADLINE_PATH, EXTENSION_ONLY));
  if (!isAbsent(spec.volumeClaimUpdatePolicy)) out.add(forbidden(CLAIM_POLICY_PATH, EXTENSION_ONLY));
  forbidLifecycle(spec, out);
  if (strategy && !isAbsent(strategy.enforcedRollingUpdate)) out.add(forbidden(ENFORCED_PATH, EXTENSION_ONLY));
  if (rollingUpdate && !isAbsent(rollingUpdate.batchStartPolicy)) out.add(forbidden(BATCH_PATH, EXTENSION_ONLY));
  if (rollingUpdate) forbidDisruptionAware(rollingUpdate, out);
  if (rollingUpdate) forbidSteps(rollingUpdate, child(STRATEGY_PATH, 'rollingUpdate'), out);
  if (rollingUpdate && !isAbsent(rollingUpdate.podUpdatePolicy)) out.add(forbidden(POD_UPDATE_PATH, EXTENSION_ONLY));
  if (rollingUpdate && !isAbsent(rollingUpdate.inPlaceUpdateStrategy)) out.add(forbidden(IN_PLACE_STRATEGY_PATH, EXTENSION_ONLY));
  if (rollingUpdate && !isAbsent(rollingUpdate.onFailure)) out.add(forbidden(child(STRATEGY_PATH, 'rollingUpdate', ON_FAILURE), EXTENSION_ONLY));
}

/**
 * rollingUpdate.inPlaceUpdateStrategy: gracePeriodSeconds, an int32 ≥ 0. Under podUpdatePolicy Recreate it is
 * accepted and does nothing, as OpenKruise accepts it beside ReCreate (a policy switched back keeps it).
 */
function validateInPlaceUpdateStrategy(rollingUpdate: JsonObject, out: IssueList): void {
  if (isAbsent(rollingUpdate.inPlaceUpdateStrategy)) return;
  const block = objectAt(rollingUpdate.inPlaceUpdateStrategy, IN_PLACE_STRATEGY_PATH, out);
  if (block === undefined) return;
  const path = child(IN_PLACE_STRATEGY_PATH, 'gracePeriodSeconds');
  const grace = int32At(block.gracePeriodSeconds, path, out);
  if (grace !== undefined && grace < 0) out.add(invalid(path, grace, NEGATIVE));
}

/** A string field that must be one of `supported`. */
function validateEnum(value: unknown, path: string, supported: readonly string[], out: IssueList): void {
  const text = stringAt(value, path, out);
  if (text !== undefined && !supported.includes(text)) out.add(notSupported(path, text, supported));
}

/** Like Deployments: non-negative and greater than minReadySeconds (so at least 1); or `auto` (slow-rollout.ts derives it). */
// upstream: apps/validation ValidateDeploymentSpec (progressDeadlineSeconds)
function validateProgressDeadline(spec: JsonObject, out: IssueList): void {
  if (spec.progressDeadlineSeconds === PROGRESS_DEADLINE_AUTO) return;
  if (typeof spec.progressDeadlineSeconds === 'string') return out.add(invalid(DEADLINE_PATH, spec.progressDeadlineSeconds, PROGRESS_DEADLINE_MESSAGE));
  const deadline = int32At(spec.progressDeadlineSeconds, DEADLINE_PATH, out);
  if (deadline === undefined) return;
  if (deadline < 0) out.add(invalid(DEADLINE_PATH, deadline, NEGATIVE));
  const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
  if (deadline <= minReady) out.add(invalid(DEADLINE_PATH, deadline, 'must be greater than minReadySeconds'));
}

/** The extension fields outside the type switch. */
export function validateExtensions(spec: JsonObject, ctx: SpecContext, out: IssueList): void {
  const strategy = asObject(spec.updateStrategy);
  const rollingUpdate = strategy && asObject(strategy.rollingUpdate);
  if (!ctx.ordinal) return forbidExtensions(spec, strategy, rollingUpdate, out);
  if (strategy && !isAbsent(strategy.enforcedRollingUpdate) && strategy.type !== 'EnforcedRollingUpdate') {
    out.add(invalid(ENFORCED_PATH, strategy.enforcedRollingUpdate, "only allowed for updateStrategy 'EnforcedRollingUpdate'"));
  }
  if (rollingUpdate) {
    validateEnum(rollingUpdate.batchStartPolicy, BATCH_PATH, BATCH_START_POLICIES, out);
    validateEnum(rollingUpdate.podUpdatePolicy, POD_UPDATE_PATH, POD_UPDATE_POLICIES, out);
    validateInPlaceUpdateStrategy(rollingUpdate, out);
    validateDisruptionAware(rollingUpdate, out);
    validateSteps(rollingUpdate, child(STRATEGY_PATH, 'rollingUpdate'), out);
  }
  validateOnFailure(rollingUpdate, child(STRATEGY_PATH, 'rollingUpdate'), out);
  validateProgressDeadline(spec, out);
  validateEnum(spec.volumeClaimUpdatePolicy, CLAIM_POLICY_PATH, VOLUME_CLAIM_UPDATE_POLICIES, out);
  validateLifecycle(spec, out);
  // the CRD's bound (crd-rules.ts MAX_CLAIM_TEMPLATES), which its claim template update rules need
  const claims = spec.volumeClaimTemplates;
  if (Array.isArray(claims) && claims.length > MAX_CLAIM_TEMPLATES) out.add(tooMany('spec.volumeClaimTemplates', claims.length, MAX_CLAIM_TEMPLATES));
  // the CRD's bounds of the selector and the pod template, which its CEL rules need
  validateSelectorBounds(spec.selector, out);
  const podSpec = asObject(asObject(spec.template)?.spec);
  if (podSpec) validateTemplateBounds(podSpec, out);
}
