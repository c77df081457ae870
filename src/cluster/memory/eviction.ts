// POST pods/NAME/eviction (policy/v1 Eviction) as kube-apiserver's eviction handler answers it: a pod that is
// finished, Pending or already terminating is deleted without looking at budgets; otherwise the one
// PodDisruptionBudget selecting it must allow the disruption, which is counted (disruptionsAllowed − 1, the
// pod in status.disruptedPods) in one status write before the pod is marked DisruptionTarget and deleted.
// Upstream retries conflicts because its budget Get and UpdateStatus are two requests that another evictor
// can come between; here the read and the write are one synchronous step of the server, so nothing comes
// between them and there is no conflict to retry (nor a pod that changes under its resourceVersion).

import { Resources, type EvictionOptions } from '../../api/client.js';
import { ApiError, ConflictError, DISRUPTION_BUDGET_CAUSE, DisruptionBudgetRefusal, MultipleBudgetsError } from '../../api/errors.js';
import { toTimestamp, type Instant, type Pod, type PodCondition, type PodDisruptionBudget } from '../../api/types.js';
import { budgetSelects } from '../../controller/budget-pods.js';
import { isPodReady } from '../../controller/pod-state.js';
import { allowedCondition, type BudgetStatus } from '../disruption/disruption-status.js';
import { uidConflict } from './messages.js';
import type { ApiServer } from './server.js';

/** Who writes a budget's status for an eviction: kube-apiserver's own loopback client. */
export const APISERVER_ACTOR = 'apiserver';

// upstream: pkg/registry/core/pod/storage/eviction.go MaxDisruptedPodSize
const MAX_DISRUPTED_POD_SIZE = 2000;
const STALE_RETRY_AFTER_SECONDS = 10;
const REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

interface Request {
  server: ApiServer;
  actor: string;
  now: Instant;
  opts: EvictionOptions;
}

/** Evicts the pod or throws the API server's answer (see ClusterClient.evictPod). */
// upstream: pkg/registry/core/pod/storage/eviction.go EvictionREST.Create
export function evictPod(server: ApiServer, actor: string, namespace: string, name: string, opts: EvictionOptions, now: Instant): void {
  const req: Request = { server, actor, now, opts };
  const pod = server.mustGet(Resources.pods, namespace, name) as Pod;
  if (canIgnoreBudgets(pod)) return deletePod(req, pod, shouldEnforceResourceVersion(pod) ? pod.metadata.resourceVersion : undefined);
  const budgets = budgetsSelecting(server, pod);
  if (budgets.length > 1) throw new MultipleBudgetsError();
  const budget = budgets[0];
  if (budget === undefined) return deletePod(req, pod);
  if (!isPodReady(pod) && unhealthyMayGo(budget)) {
    // an unhealthy pod goes without a decrement, on the resourceVersion the decision was made on; a conflict
    // of a precondition the server set itself (the client gave no resourceVersion) asks the client to come back
    try {
      return deletePod(req, pod, pod.metadata.resourceVersion);
    } catch (e) {
      if (e instanceof ConflictError && opts.resourceVersion === undefined) throw stillProcessing(budget);
      throw e;
    }
  }
  checkAndDecrement(req, budget, name);
  deletePod(req, pod);
}

/** Finished, Pending or terminating: the pod's disruption has happened already, or never began. */
// upstream: eviction.go canIgnorePDB
export const canIgnoreBudgets = (pod: Pod): boolean => ['Succeeded', 'Failed', 'Pending'].includes(pod.status?.phase ?? '') || pod.metadata.deletionTimestamp !== undefined;

// upstream: eviction.go shouldEnforceResourceVersion
const shouldEnforceResourceVersion = (pod: Pod): boolean => !['Succeeded', 'Failed'].includes(pod.status?.phase ?? '') && pod.metadata.deletionTimestamp === undefined;

/** The budgets of the pod's namespace whose selector selects it, in name order (nil or invalid selectors select nothing). */
// upstream: eviction.go getPodDisruptionBudgets
function budgetsSelecting(server: ApiServer, pod: Pod): PodDisruptionBudget[] {
  const all = server.list(Resources.podDisruptionBudgets, pod.metadata.namespace).items as PodDisruptionBudget[];
  return all.filter((b) => budgetSelects(b)(pod.metadata.labels));
}

/** A pod that is not Ready may go without a decrement: always (AlwaysAllow), or while the budget is met (IfHealthyBudget, the default). */
function unhealthyMayGo(budget: PodDisruptionBudget): boolean {
  if (budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const status = budget.status;
  return status !== undefined && status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0;
}

/** Refuses unless the budget allows a disruption; otherwise spends it and records the pod, in one status write (none under dry run). */
// upstream: eviction.go checkAndDecrement
function checkAndDecrement(req: Request, budget: PodDisruptionBudget, podName: string): void {
  const name = budget.metadata.name ?? '';
  const status: BudgetStatus = budget.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  if ((status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) throw stillProcessing(budget);
  if (status.disruptionsAllowed < 0) throw budgetForbidden(name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) throw budgetForbidden(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (status.disruptionsAllowed === 0) throw new DisruptionBudgetRefusal(REFUSED, [{ reason: DISRUPTION_BUDGET_CAUSE, message: refusalMessage(name, status) }], 0);
  const next: BudgetStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) next.conditions = allowedCondition(next, req.now);
  if (req.opts.dryRun === true) return;
  next.disruptedPods = { ...status.disruptedPods, [podName]: toTimestamp(req.now) };
  req.server.replace(APISERVER_ACTOR, 'updateStatus', Resources.podDisruptionBudgets, { ...budget, status: next }, 'status');
}

/** Why a budget allowing no disruption refuses, in kube-apiserver's words (a failed sync first: its counts are not to be trusted). */
function refusalMessage(name: string, status: BudgetStatus): string {
  const condition = status.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const falseWithMessage = condition !== undefined && condition.status === 'False' && (condition.message ?? '') !== '';
  if (falseWithMessage && condition.reason === 'SyncFailed') return `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${condition.message}`;
  if (status.currentHealthy <= status.desiredHealthy) return `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`;
  if (falseWithMessage) return `The disruption budget ${name} does not allow evicting pods currently (${condition.reason ?? ''}): ${condition.message}`;
  return `The disruption budget ${name} does not allow evicting pods currently`;
}

// upstream: eviction.go createTooManyRequestsError
function stillProcessing(budget: PodDisruptionBudget): DisruptionBudgetRefusal {
  const message = `The disruption budget ${budget.metadata.name ?? ''} is still being processed by the server.`;
  return new DisruptionBudgetRefusal(REFUSED, [{ reason: DISRUPTION_BUDGET_CAUSE, message }], STALE_RETRY_AFTER_SECONDS);
}

/** errors.NewForbidden(policy.Resource("poddisruptionbudget"), name, err): the budget cannot be spent at all now (its DisruptionBudget cause is not carried). */
const budgetForbidden = (name: string, err: string): ApiError => new ApiError(`poddisruptionbudget.policy "${name}" is forbidden: ${err}`, 403, 'Forbidden');

/**
 * Checks the preconditions (the client's, or `resourceVersion` the server set), marks the pod DisruptionTarget
 * and deletes it with the Eviction's grace period; under dry run only the checks.
 */
// upstream: eviction.go addConditionAndDeletePod
function deletePod(req: Request, pod: Pod, serverVersion?: string): void {
  const { server, actor, opts } = req;
  const name = pod.metadata.name ?? '';
  const uid = opts.uid;
  const resourceVersion = opts.resourceVersion ?? serverVersion;
  if (opts.dryRun === true) {
    // the store's own precondition check of a dry-run delete
    if (uid !== undefined && uid !== pod.metadata.uid) throw uidConflict(Resources.pods, name, uid, pod.metadata.uid);
    if (resourceVersion !== undefined && resourceVersion !== pod.metadata.resourceVersion) throw versionConflict(name, resourceVersion, pod.metadata.resourceVersion);
    return;
  }
  if (uid !== undefined && uid !== pod.metadata.uid) throw latestConflict(name, `the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
  if (resourceVersion !== undefined && resourceVersion !== pod.metadata.resourceVersion) {
    throw latestConflict(name, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion ?? ''}). The object might have been modified`);
  }
  server.replace(actor, 'updateStatus', Resources.pods, withDisruptionTarget(pod, req.now), 'status');
  server.delete(actor, Resources.pods, pod.metadata.namespace, name, { uid: pod.metadata.uid, ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}) });
}

/** errors.NewConflict(schema.GroupResource{Resource: "Pod"}, name, err), as the handler's read of the latest pod words it. */
const latestConflict = (name: string, err: string): ConflictError => new ConflictError(`Operation cannot be fulfilled on Pod "${name}": ${err}`);

/** The storage's precondition check (storage.Preconditions.Check) of a resourceVersion. */
const versionConflict = (name: string, want: string, have: string | undefined): ConflictError =>
  new ConflictError(`Operation cannot be fulfilled on pods "${name}": Precondition failed: ResourceVersion in precondition: ${want}, ResourceVersion in object meta: ${have ?? ''}`);

/** The pod with condition DisruptionTarget True (EvictionByEvictionAPI); its transition time moves only when its status does. */
// upstream: pkg/api/pod UpdatePodCondition
function withDisruptionTarget(pod: Pod, now: Instant): Pod {
  const conditions = [...(pod.status?.conditions ?? [])];
  const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  const prev = at >= 0 ? conditions[at] : undefined;
  const lastTransitionTime = prev?.status === 'True' && prev.lastTransitionTime !== undefined ? prev.lastTransitionTime : toTimestamp(now);
  const condition: PodCondition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  if (at >= 0) conditions[at] = condition;
  else conditions.push(condition);
  return { ...pod, status: { ...pod.status, conditions } };
}
