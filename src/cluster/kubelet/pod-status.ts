// The status a kubelet reports for a pod, rendered from its containers' states (a pure function).
// Conditions keep their lastTransitionTime while their status stays the same (whole seconds, T9).

import {
  toTimestamp,
  type ContainerStatus,
  type Instant,
  type Pod,
  type PodCondition,
  type PodStatus,
} from '../../api/types.js';
import type { ContainerPlan } from './config.js';
import { IN_PLACE_EXIT } from './restart.js';
import type { ContainerState } from './container-model.js';
import type { ResizeView } from './resize.js';

export interface ContainerView {
  plan: ContainerPlan;
  state: ContainerState;
}

/** Condition types the kubelet owns, in the order it writes them. */
const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled', 'PodResizePending', 'PodResizeInProgress'];

const isReady = (c: ContainerView): boolean => c.state.kind === 'running' && c.state.ready;
/** Started once: a container restarting in place keeps its pod Running. */
const isStarted = (c: ContainerView): boolean => c.state.kind === 'running' || c.state.kind === 'crashLoop' || c.plan.restart !== undefined;

/**
 * Why the pod's readiness gates keep it from Ready (each gate's condition must be True), as the kubelet words
 * it; undefined when every gate is met.
 */
// upstream: pkg/kubelet/status/generate.go GeneratePodReadyCondition (the readiness gates)
function unmetGates(pod: Pod): string | undefined {
  const conditions = pod.status?.conditions ?? [];
  const unmet = (pod.spec.readinessGates ?? []).flatMap((g) => {
    const c = conditions.find((x) => x.type === g.conditionType);
    if (c === undefined) return [`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`];
  });
  return unmet.length === 0 ? undefined : unmet.join(', ');
}

/** The Ready condition: the containers' readiness first, then the pod's readiness gates. */
function readyCondition(pod: Pod, ready: boolean, notReady: { reason: string; message: string }): PodCondition {
  if (!ready) return { type: 'Ready', status: 'False', ...notReady };
  const gates = unmetGates(pod);
  return gates === undefined ? { type: 'Ready', status: 'True' } : { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: gates };
}

// upstream: pkg/kubelet/status/generate.go GeneratePodReadyCondition
export function renderPodStatus(pod: Pod, containers: ContainerView[], t0: Instant, now: Instant, resize?: ResizeView): PodStatus {
  const prev = pod.status ?? {};
  const unready = containers.filter((c) => !isReady(c)).map((c) => c.plan.name);
  const ready = unready.length === 0;
  const notReady = { reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` };
  const want: PodCondition[] = [
    { type: 'PodReadyToStartContainers', status: 'True' },
    { type: 'Initialized', status: 'True' },
    readyCondition(pod, ready, notReady),
    ready ? { type: 'ContainersReady', status: 'True' } : { type: 'ContainersReady', status: 'False', ...notReady },
    { type: 'PodScheduled', status: 'True' },
    ...(resize?.condition ? [resize.condition] : []),
  ];
  const kept = (prev.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.includes(c.type));
  return {
    ...prev,
    phase: containers.every(isStarted) ? 'Running' : 'Pending',
    conditions: [...want.map((c) => withTransitionTime(c, prev.conditions, now)), ...kept],
    containerStatuses: containers.map((c) => withResources(containerStatus(c, pod.metadata.name ?? ''), resize)),
    startTime: prev.startTime ?? toTimestamp(t0),
  };
}

function withTransitionTime(c: PodCondition, prev: PodCondition[] | undefined, now: Instant): PodCondition {
  const old = prev?.find((p) => p.type === c.type);
  const lastTransitionTime = old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : toTimestamp(now);
  return { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime, ...(c.reason ? { reason: c.reason, message: c.message } : {}) };
}

/** The cpu and memory the container runs with (KEP-1287: what a resize has actuated). */
function withResources(status: ContainerStatus, resize: ResizeView | undefined): ContainerStatus {
  const resources = resize?.resources.get(status.name);
  return resources === undefined ? status : { ...status, resources };
}

/** The old container of an in-place restart, as the kubelet reports it in lastState. */
function restartedFrom(plan: ContainerPlan): Partial<ContainerStatus> {
  const r = plan.restart;
  if (r === undefined) return {};
  const terminated = { exitCode: 0, reason: IN_PLACE_EXIT, ...(r.startedAt ? { startedAt: r.startedAt } : {}), finishedAt: toTimestamp(r.finishedAt) };
  return { lastState: { terminated } };
}

function containerStatus({ plan, state }: ContainerView, podName: string): ContainerStatus {
  const restartCount = plan.restart?.count ?? 0;
  const base = { name: plan.name, image: plan.image, imageID: '', started: state.kind === 'running', ...restartedFrom(plan) };
  switch (state.kind) {
    case 'creating':
      return { ...base, ready: false, restartCount, state: { waiting: { reason: 'ContainerCreating' } } };
    case 'pullBackOff':
      return {
        ...base,
        ready: false,
        restartCount,
        state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${plan.image}"` } },
      };
    case 'running':
      return { ...base, ready: state.ready, restartCount, state: { running: { startedAt: toTimestamp(state.startedAt) } } };
    case 'crashLoop': {
      const message = `back-off ${state.backoffMs / 1000}s restarting failed container=${plan.name} pod=${podName}`;
      return {
        ...base,
        ready: false,
        restartCount: restartCount + state.restartCount,
        state: { waiting: { reason: 'CrashLoopBackOff', message } },
        lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: toTimestamp(state.lastCrashAt) } },
      };
    }
  }
}
