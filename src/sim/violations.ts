// Invariants the simulator checks while a scenario runs, using the planner's own named
// checkers (src/controller/checks/invariants.ts): every plan the controller computes is checked against the
// state it saw, and every pod the controller deletes is judged against the world as the simulator sees
// it. Checks of our own: under OnDelete the controller never deletes a healthy in-range pod; it never writes
// a StatefulSet but through its status subresource (spec belongs to the user, or their GitOps tool: not even
// a rollback writes it); and with rollingUpdate.respectPodDisruptionBudgets no update deletion takes a
// PodDisruptionBudget below its desiredHealthy.

import type { Features } from '../api/features.js';
import type { Instant, Pod, PodDisruptionBudget, StatefulSet } from '../api/types.js';
import { budgetSelects } from '../controller/model/budget-pods.js';
import { respectsBudgets } from '../controller/model/spec.js';
import {
  checkDeletion,
  enforcedHaltRespected,
  maxUnavailableBudget,
  noDuplicateOrdinal,
  orderedReadyInvariant,
  partitionRespected,
  recreateNoMixedRevisions,
  stepBoundaryRespected,
} from '../controller/checks/invariants.js';
import type { Plan } from '../controller/model/plan-types.js';
import type { ObservedState } from '../controller/replica/observed-state.js';
import { isPodReady, isTerminating, podOrdinal, podRevision } from '../controller/model/pod-state.js';
import { podFacts } from '../controller/replica/pod-facts.js';
import { countsUnavailable, replicaRules, toReplica } from '../controller/replica/replica.js';
import type { Planner } from '../runtime/planner-port.js';
import { rangeOf } from './converged.js';

export interface Found {
  invariant: string;
  message: string;
}

const named = (invariant: string, messages: readonly string[]): Found[] => messages.map((message) => ({ invariant, message }));

/** The planner's plan-level checkers, each by name. */
export function checkPlanInvariants(observed: ObservedState, plan: Plan, now: Instant, features: Features): Found[] {
  const set = observed.set.metadata.name ?? '';
  const at = (f: Found): Found => ({ invariant: f.invariant, message: `${set}: ${f.message}` });
  return [
    ...named('orderedReadyInvariant', orderedReadyInvariant(observed, plan, now, features)),
    ...named('partitionRespected', partitionRespected(observed, plan, features)),
    ...named('maxUnavailableBudget', maxUnavailableBudget(observed, plan, now, features)),
    ...named('recreateNoMixedRevisions', recreateNoMixedRevisions(observed, plan, features)),
    ...named('enforcedHaltRespected', enforcedHaltRespected(observed, plan, now, features)),
    ...named('stepBoundaryRespected', stepBoundaryRespected(observed, plan, now, features)),
  ].map(at);
}

/** Wraps a planner so every plan it returns is checked; `report` gets the violations of each sync. */
export function checkedPlanner(base: Planner, report: (found: Found[], now: Instant) => void): Planner {
  return {
    ...base,
    plan(observed, now, features) {
      const plan = base.plan(observed, now, features);
      const found = checkPlanInvariants(observed, plan, now, features);
      if (found.length) report(found, now);
      return plan;
    },
  };
}

/**
 * The controller asked to delete `victim`; `before` is the set's pods just before the deletion, and
 * `unavailable` (optional) their unavailableOrdinals, when no two of them share an ordinal; `held` the
 * ordinals whose claims keep the replica unavailable (InPlace).
 */
export function checkControllerDelete(
  set: StatefulSet,
  before: readonly Pod[],
  victim: Pod,
  now: Instant,
  features: Features,
  unavailable?: () => number,
  held?: ReadonlySet<number>,
): Found[] {
  const out = named('checkDeletion', checkDeletion(set, before, victim, now, features, unavailable, held)).map((f) => ({ ...f, message: `${set.metadata.name}: ${f.message}` }));
  const { start, replicas } = rangeOf(set);
  const ordinal = podOrdinal(victim);
  const healthy = victim.status?.phase !== 'Failed' && victim.status?.phase !== 'Succeeded';
  if ((set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'OnDelete' && ordinal >= start && ordinal < start + replicas && healthy) {
    out.push({ invariant: 'onDeleteDeletion', message: `${set.metadata.name}: controller deleted ${victim.metadata.name} although its updateStrategy is OnDelete` });
  }
  return out;
}

/** A write the controller sent: to a StatefulSet, only its status. */
export function checkControllerWrite(w: { kind: string; status: boolean; verb: string; name: string }): Found[] {
  if (w.kind !== 'StatefulSet' || w.status) return [];
  return [{ invariant: 'noSpecWrite', message: `${w.name}: the controller sent a ${w.verb} of the StatefulSet itself, not of its status` }];
}

/** Two pods with one ordinal of one set. */
export function checkPods(pods: readonly Pod[]): Found[] {
  return named('noDuplicateOrdinal', noDuplicateOrdinal(pods));
}

/**
 * The controller deleted `victim` of `set`, which respects PodDisruptionBudgets, to update it: a breach when a
 * budget selecting it (of `budgets`, its namespace's) has, without it, fewer healthy pods (Ready, not
 * terminating, of `pods`: every pod of the namespace just before, whichever set it belongs to, the deletions
 * made earlier in the same instant included) than its status' desiredHealthy. A scale-down deletion (outside
 * the replica range) or one of a pod already on the update revision is not an update deletion; which revision
 * that is, only a status as new as the spec tells: a sync deletes before it writes the status naming a new
 * update revision, so the first deletion of a rollout meets a status that still names the old one.
 */
export function checkBudgetBreach(set: StatefulSet, budgets: readonly PodDisruptionBudget[], pods: readonly Pod[], victim: Pod): Found[] {
  if (!respectsBudgets(set)) return [];
  const { start, replicas } = rangeOf(set);
  const ordinal = podOrdinal(victim);
  const status = set.status;
  const current = status?.observedGeneration !== undefined && status.observedGeneration === set.metadata.generation;
  const updated = current && status.updateRevision !== undefined && podRevision(victim) === status.updateRevision;
  if (ordinal < start || ordinal >= start + replicas || updated || !isPodReady(victim) || isTerminating(victim)) return [];
  const out: Found[] = [];
  for (const budget of budgets) {
    const selects = budgetSelects(budget);
    const desired = budget.status?.desiredHealthy;
    if (desired === undefined || !selects(victim.metadata.labels)) continue;
    const healthy = pods.filter((p) => selects(p.metadata.labels) && isPodReady(p) && !isTerminating(p)).length;
    if (healthy - 1 < desired) {
      out.push({
        invariant: 'podDisruptionBudget',
        message: `${set.metadata.name}: controller deleted ${victim.metadata.name} although PodDisruptionBudget ${budget.metadata.name} then has ${healthy - 1} healthy pods, below its desiredHealthy ${desired}`,
      });
    }
  }
  return out;
}

/**
 * The controller deleted `victim` of `set`, which moves by zone (rollingUpdate.topologyKey), to update it: a
 * breach of the zone order when the victim was available and a pod of the set in another zone (`zoneOf` its
 * node, known zones only) was unavailable then (`pods`: the set's, just before): two zones disrupted at once.
 * Available is the replica record's (replica.ts), as the planner's zone order reads it: a pod moving in place or
 * draining is disrupted already, so recreating it instead (an in-place fallback) disrupts no new zone.
 */
export function checkZoneOrder(set: StatefulSet, pods: readonly Pod[], victim: Pod, zoneOf: (pod: Pod) => string | undefined, now: Instant): Found[] {
  if (!set.spec.updateStrategy?.rollingUpdate?.topologyKey) return [];
  const { start, replicas } = rangeOf(set);
  const ordinal = podOrdinal(victim);
  const rules = replicaRules(set);
  const unavailable = (p: Pod): boolean => countsUnavailable(toReplica(podFacts(p), rules, []), now);
  const updated = set.status?.updateRevision !== undefined && podRevision(victim) === set.status.updateRevision;
  if (ordinal < start || ordinal >= start + replicas || updated || unavailable(victim)) return [];
  const zone = zoneOf(victim);
  const elsewhere = pods.filter((p) => {
    const z = zoneOf(p);
    return z !== undefined && z !== zone && unavailable(p);
  });
  if (elsewhere.length === 0) return [];
  const names = elsewhere.map((p) => `${p.metadata.name ?? ''} (${zoneOf(p) ?? ''})`).join(', ');
  return [{ invariant: 'zoneOrder', message: `${set.metadata.name}: controller deleted ${victim.metadata.name} (${zone ?? 'no zone'}) while ${names} ${elsewhere.length === 1 ? 'was' : 'were'} unavailable in another zone` }];
}
