// Executes one scenario step against the simulated cluster. Writes go through a
// `user` client, like kubectl; waits and advances move virtual time through the context.

import { Resources, type ClusterClient } from '../api/client.js';
import { isNotFound } from '../api/errors.js';
import { AbortAnnotation, type Instant, type KubeObject, type StatefulSet } from '../api/types.js';
import { isRunningAndReady } from '../controller/model/pod-state.js';
import { progressingFalse } from './converged.js';
import { evaluateExpect, type ExpectContext } from './expect.js';
import { resourceFor } from './scenario-objects.js';
import type { RolloutSignal, ScenarioObject, Step, WaitTarget } from './scenario-types.js';
import type { AnalysisEndpoints } from './analysis-endpoints.js';
import { abortPatch, pausePatch, promotePatch, retryPatch } from '../api/rollout-signals.js';
import { isRollingBack } from '../controller/rollout/rollback.js';
import type { SetTracker } from './set-tracker.js';
import type { SimState } from './state.js';

export interface StepContext {
  now(): Instant;
  user: ClusterClient;
  state: SimState;
  tracker: SetTracker;
  /** Runs virtual time up to `until` (capped at endSeconds) while `pending()` holds; true if `until` or the condition ended it. */
  runFor(until: Instant, pending?: () => boolean): Promise<boolean>;
  restartController(): Promise<void>;
  expectContext(): ExpectContext;
  /** What analysis checks are answered (`endpoint` steps change it). */
  endpoints: AnalysisEndpoints;
}

export type StepOutcome = { kind: 'done' } | { kind: 'expect'; ok: boolean; message: string } | { kind: 'failed'; message: string };

const DONE: StepOutcome = { kind: 'done' };

export async function runStep(step: Step, ctx: StepContext): Promise<StepOutcome> {
  try {
    return await dispatch(step, ctx);
  } catch (e) {
    return { kind: 'failed', message: `${step.kind}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function dispatch(step: Step, ctx: StepContext): Promise<StepOutcome> {
  switch (step.kind) {
    case 'waitFor':
      return waitFor(step.target, step.timeoutSeconds, ctx);
    case 'advance': {
      const reached = await ctx.runFor(ctx.now() + Math.round(step.seconds * 1000));
      return reached ? DONE : { kind: 'failed', message: 'advance: stopped at endSeconds' };
    }
    case 'apply':
      await apply(ctx.user, step.object);
      return DONE;
    case 'patch': {
      const resource = resourceFor(step.target.apiVersion, step.target.kind)!;
      await ctx.user.patch(resource, resource.namespaced ? step.target.namespace : undefined, step.target.name, step.merge);
      return DONE;
    }
    case 'delete': {
      const resource = resourceFor(step.target.apiVersion, step.target.kind)!;
      await ctx.user.delete(resource, resource.namespaced ? step.target.namespace : undefined, step.target.name);
      return DONE;
    }
    case 'setImage':
      return setImage(step, ctx.user);
    case 'deletePod':
      await ctx.user.delete(Resources.pods, step.pod.namespace, step.pod.name);
      return DONE;
    case 'restartController':
      await ctx.restartController();
      return DONE;
    case 'expect': {
      const outcome = evaluateExpect(step.expect, ctx.expectContext());
      return { kind: 'expect', ...outcome };
    }
    case 'endpoint':
      ctx.endpoints.set(step.url, step.status);
      return DONE;
    case 'pause':
    case 'resume':
    case 'promote':
    case 'abort':
    case 'retry':
      return signal(step, ctx);
  }
}

/** The plugin's merge patch for the signal, from the set as it is now; a failure when it cannot apply. */
async function signal(step: Extract<Step, { kind: RolloutSignal }>, ctx: StepContext): Promise<StepOutcome> {
  const resource = resourceFor(step.apiVersion, 'StatefulSet')!;
  const { namespace, name } = step.set;
  const set = await ctx.user.get<StatefulSet>(resource, namespace, name);
  const patch = signalPatch(step, set, ctx.now());
  if (typeof patch === 'string') return { kind: 'failed', message: `${step.kind}: StatefulSet ${namespace}/${name} ${patch}` };
  await ctx.user.patch(resource, namespace, name, patch);
  return DONE;
}

/** The patch, or why the signal cannot apply to the set's status. */
function signalPatch(step: Extract<Step, { kind: RolloutSignal }>, set: StatefulSet, now: Instant): unknown {
  const status = set.status;
  const underway = status?.updateRevision !== undefined && status.updateRevision !== status.currentRevision;
  switch (step.kind) {
    case 'pause':
    case 'resume':
      return pausePatch(set, step.kind === 'pause');
    case 'promote': {
      const stepsLeft = status?.currentStepIndex !== undefined && status.currentStepState !== 'Completed';
      if (!stepsLeft) return 'has no step to promote (its status names no step of a staged rollout under way)';
      return promotePatch(status, step.full === true) ?? 'has no step to promote (its status names no update revision)';
    }
    case 'abort':
      return underway ? (abortPatch(status) ?? 'has no rollout to abort') : 'has no rollout to abort (status.updateRevision is status.currentRevision)';
    case 'retry':
      // as `rollout retry`: an abort under onFailure Rollback, a failed step, or an abort held under Halt
      return isRollingBack(status) || status?.currentStepState === 'Failed' || (underway && set.metadata.annotations?.[AbortAnnotation] === status?.updateRevision)
        ? retryPatch(now)
        : 'has no failed or aborted rollout to retry';
  }
}

/** Like `kubectl apply` of a full object: creates it, or replaces its spec (and labels/annotations if given). */
async function apply(user: ClusterClient, { resource, object }: ScenarioObject): Promise<void> {
  const ns = resource.namespaced ? object.metadata.namespace : undefined;
  let existing: KubeObject;
  try {
    existing = await user.get(resource, ns, object.metadata.name ?? '');
  } catch (e) {
    if (!isNotFound(e)) throw e;
    await user.create(resource, structuredClone(object));
    return;
  }
  const metadata = { ...existing.metadata };
  if (object.metadata.labels) metadata.labels = object.metadata.labels;
  if (object.metadata.annotations) metadata.annotations = object.metadata.annotations;
  await user.update(resource, { ...existing, ...structuredClone(object), metadata, status: existing['status'] });
}

async function setImage(step: Extract<Step, { kind: 'setImage' }>, user: ClusterClient): Promise<StepOutcome> {
  const resource = resourceFor(step.apiVersion, 'StatefulSet')!;
  const set = await user.get<StatefulSet>(resource, step.set.namespace, step.set.name);
  const spec = set.spec.template.spec;
  const container = [...(spec.containers ?? []), ...(spec.initContainers ?? [])].find((c) => c.name === step.container);
  if (!container) return { kind: 'failed', message: `setImage: StatefulSet ${step.set.name} has no container ${step.container}` };
  container.image = step.image;
  await user.update(resource, set);
  return DONE;
}

async function waitFor(target: WaitTarget, timeoutSeconds: number, ctx: StepContext): Promise<StepOutcome> {
  const satisfied = condition(target, ctx);
  const deadline = ctx.now() + Math.round(timeoutSeconds * 1000);
  const started = ctx.now();
  await ctx.runFor(deadline, () => !satisfied());
  if (satisfied()) return DONE;
  const waited = (ctx.now() - started) / 1000;
  const why = waitReason(target, ctx);
  const cut = ctx.now() < deadline ? ' (stopped at endSeconds)' : '';
  return { kind: 'failed', message: `waitFor ${describeTarget(target)}: not reached after ${waited}s${cut}${why ? `: ${why}` : ''}` };
}

function condition(target: WaitTarget, ctx: StepContext): () => boolean {
  switch (target.kind) {
    case 'allConverged':
      return () => ctx.tracker.allConverged();
    case 'statefulset': {
      const { namespace, name } = target.ref;
      if (target.condition === 'Converged') {
        return () => {
          const entry = ctx.state.findSet(namespace, name);
          return !!entry && ctx.tracker.isConverged(entry.key);
        };
      }
      const reason = target.condition;
      return () => {
        const entry = ctx.state.findSet(namespace, name);
        return !!entry && progressingFalse(entry.set, reason);
      };
    }
    case 'pod': {
      const key = `${target.ref.namespace}/${target.ref.name}`;
      if (target.condition === 'Ready') return () => isReady(ctx.state, key);
      const removedBefore = ctx.state.removals.get(key) ?? 0;
      return () => !ctx.state.pods.has(key) || (ctx.state.removals.get(key) ?? 0) > removedBefore;
    }
  }
}

function isReady(state: SimState, key: string): boolean {
  const pod = state.pods.get(key);
  return !!pod && !pod.metadata.deletionTimestamp && isRunningAndReady(pod);
}

function describeTarget(target: WaitTarget): string {
  if (target.kind === 'allConverged') return 'Converged';
  const what = target.kind === 'pod' ? 'pod' : 'statefulset';
  return `${what} ${target.ref.namespace}/${target.ref.name} ${target.condition}`;
}

function waitReason(target: WaitTarget, ctx: StepContext): string | undefined {
  if (target.kind === 'allConverged') return ctx.tracker.reason();
  if (target.kind === 'statefulset') {
    const entry = ctx.state.findSet(target.ref.namespace, target.ref.name);
    if (!entry) return 'no such StatefulSet';
    return target.condition === 'Converged' ? ctx.tracker.reason(entry.key) : `no Progressing=False/${target.condition} condition`;
  }
  const pod = ctx.state.pods.get(`${target.ref.namespace}/${target.ref.name}`);
  return pod ? `phase ${pod.status?.phase ?? '-'}` : 'the pod does not exist';
}
