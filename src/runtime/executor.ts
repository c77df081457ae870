// Applies a Plan: batch 0, 1, 2, … in order, every action of a batch concurrently, and no later batch once
// one has failed (upstream slowStartBatch / the monotonic "stop") — except revision
// deletions, which always run because upstream truncates history even when the sync failed, and actions that
// say their failure does not stop the sync (continuesOnFailure). A sync that must stop (its set was deleted,
// the leader is no longer sure of its Lease) starts no further batch, not even the revision deletions.

import type { ClusterClient, Resource } from '../api/client.js';
import type { KubeObject, StatefulSet } from '../api/types.js';
import type { Action, Plan } from '../controller/model/plan-types.js';
import { applyAction, type ActionContext, type Applied } from './apply-action.js';
import { isFenced } from './lease-fence.js';

export interface ExecutionResult {
  /** Actions the API accepted (including tolerated outcomes such as deleting a pod already gone). */
  executed: Set<Action>;
  /** Actions that were attempted and failed, in plan order. Actions never attempted appear in neither. */
  failures: { action: Action; error: Error }[];
  /** Why the plan was stopped before its end (`halt`, or a write the fence refused); later batches never started. */
  cancelled?: Error;
}

export interface ExecutionContext {
  set: StatefulSet;
  resource: Resource;
  /** Called after each successful action with what the API returned (for expectations and timelines). */
  onApplied?(action: Action, written: Applied): void;
  /** Read before each batch: a reason to stop the plan there (the set was deleted, the Lease is in doubt). */
  halt?(): Error | undefined;
}

type Outcome = { action: Action; ok: true; written: Applied } | { action: Action; ok: false; error: Error };

async function attempt(action: Action, client: ClusterClient, actx: ActionContext): Promise<Outcome> {
  try {
    return { action, ok: true, written: await applyAction(action, client, actx) };
  } catch (err) {
    return { action, ok: false, error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/** Groups actions by batch number, ascending; plan order is kept inside a batch. */
export function batchesOf(actions: readonly Action[]): Action[][] {
  const byBatch = new Map<number, Action[]>();
  for (const a of actions) {
    const list = byBatch.get(a.batch);
    if (list === undefined) byBatch.set(a.batch, [a]);
    else list.push(a);
  }
  return [...byBatch.keys()].sort((x, y) => x - y).map((b) => byBatch.get(b)!);
}

/**
 * Runs the plan's actions against the API. Never throws: every API error is reported in `failures`.
 */
// upstream: stateful_set_control.go runForAll / slowStartBatch (stop after the first failing batch)
export async function applyPlan(plan: Plan, client: ClusterClient, ctx: ExecutionContext): Promise<ExecutionResult> {
  const result: ExecutionResult = { executed: new Set(), failures: [] };
  const actx: ActionContext = { set: ctx.set, resource: ctx.resource, canAdopt: adoptionCheck(client, ctx) };
  const halted = () => ctx.halt?.() ?? result.failures.find((f) => isFenced(f.error))?.error;
  for (const batch of batchesOf(plan.actions)) {
    if (halted() !== undefined) break;
    const stopped = result.failures.some((f) => f.action.continuesOnFailure !== true);
    const runnable = stopped ? batch.filter((a) => a.kind === 'deleteRevision') : batch;
    const outcomes = await Promise.all(runnable.map((action) => attempt(action, client, actx)));
    for (const o of outcomes) {
      if (o.ok) {
        result.executed.add(o.action);
        ctx.onApplied?.(o.action, o.written);
      } else {
        result.failures.push({ action: o.action, error: o.error });
      }
    }
  }
  const cancelled = halted();
  if (cancelled !== undefined) result.cancelled = cancelled;
  return result;
}

/**
 * Before adopting, an uncached read confirms the set still exists with the same UID and is not being
 * deleted; checked once per plan.
 */
// upstream: stateful_set.go canAdoptFunc (RecheckDeletionTimestamp)
function adoptionCheck(client: ClusterClient, ctx: ExecutionContext): () => Promise<void> {
  let checked: Promise<void> | undefined;
  const { namespace, name, uid } = ctx.set.metadata;
  const check = async (): Promise<void> => {
    const fresh = await client.get<KubeObject>(ctx.resource, namespace, name ?? '');
    if (fresh.metadata.uid !== uid) {
      throw new Error(`original StatefulSet ${namespace}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${uid}`);
    }
    if (fresh.metadata.deletionTimestamp) {
      throw new Error(`${namespace}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    }
  };
  return () => (checked ??= check());
}
