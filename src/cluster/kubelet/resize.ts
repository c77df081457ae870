// In-place resize (KEP-1287) as the kubelet does it: a container's spec resources (desired) that differ from
// what it runs with (status `resources`, actual) are admitted against the node's allocatable: Infeasible when
// the pod's requests exceed it (never re-evaluated), Deferred when they fit the node but not beside the other
// pods' requests now (re-evaluated on every sync), else accepted: `PodResizeInProgress` for RESIZE_MS, then
// the status reports the new resources. Without an allocatable every resize is accepted. Containers are
// resized without a restart whatever their resizePolicy says (RestartContainer is not modelled).

import { containerResources, podRequests, sameCpuMemory, type PodRequests } from '../../api/pod-resources.js';
import type { Container, Instant, Pod, PodCondition, Quantity } from '../../api/types.js';
import { quantityText, scaledQuantity } from '../../api/validation/quantity.js';

/** How long an accepted resize takes to actuate (the runtime's UpdateContainerResources). */
export const RESIZE_MS = 1000;

/** The node's allocatable cpu and memory (Kubernetes quantities). */
export interface Allocatable {
  cpu?: Quantity;
  memory?: Quantity;
}

/** The kubelet's memory of a resize it accepted: the desired resources (as JSON) and when. */
export interface AcceptedResize {
  desired: string;
  since: Instant;
}

export interface ResizeView {
  /** Per container: the resources it runs with (status `resources`). */
  resources: Map<string, unknown>;
  /** PodResizePending / PodResizeInProgress, when a resize is under way (transition times added by the renderer). */
  condition?: PodCondition;
  /** When the accepted resize is done (the kubelet wakes up then). */
  doneAt?: Instant;
}

const cpuMemory = (c: Container): unknown => {
  const { requests, limits } = containerResources(c);
  const pick = (list: Readonly<Record<string, Quantity>>) => Object.fromEntries(Object.entries(list).filter(([k]) => k === 'cpu' || k === 'memory'));
  const out: Record<string, unknown> = {};
  if (Object.keys(pick(requests)).length > 0) out['requests'] = pick(requests);
  if (Object.keys(pick(limits)).length > 0) out['limits'] = pick(limits);
  return out;
};

/** The spec's cpu/memory of every container, as JSON: what a resize asks for. */
export const desiredResources = (pod: Pod): string => JSON.stringify(pod.spec.containers.map(cpuMemory));

/** The requests the pod holds on its node: those it runs with (status `resources`), else its spec's. */
export function heldRequests(pod: Pod): PodRequests {
  const statuses = pod.status?.containerStatuses ?? [];
  const running = pod.spec.containers.map((c): Container => {
    const actual = statuses.find((s) => s.name === c.name)?.['resources'];
    return actual === undefined ? c : { name: c.name, resources: actual };
  });
  return podRequests({ ...pod.spec, containers: running });
}

const read = (q: Quantity | undefined, exponent: number): number | undefined => {
  const text = quantityText(q);
  return text === undefined ? undefined : scaledQuantity(text, exponent);
};

// upstream: pkg/kubelet/allocation allocation_manager.go (Infeasible: "Node didn't have enough capacity"; Deferred: the admission's InsufficientResourceError)
function admit(want: PodRequests, used: PodRequests, allocatable: Allocatable | undefined): { reason: 'Infeasible' | 'Deferred'; message: string } | undefined {
  const resources = [
    { name: 'cpu', want: want.cpuMilli, used: used.cpuMilli, capacity: read(allocatable?.cpu, -3) },
    { name: 'memory', want: want.memoryBytes, used: used.memoryBytes, capacity: read(allocatable?.memory, 0) },
  ];
  for (const r of resources) {
    if (r.capacity !== undefined && r.want > r.capacity) return { reason: 'Infeasible', message: `Node didn't have enough capacity: ${r.name}, requested: ${r.want}, capacity: ${r.capacity}` };
  }
  for (const r of resources) {
    if (r.capacity !== undefined && r.want + r.used > r.capacity) {
      return { reason: 'Deferred', message: `Node didn't have enough resource: ${r.name}, requested: ${r.want}, used: ${r.used}, capacity: ${r.capacity}` };
    }
  }
  return undefined;
}

export interface ResizeContext {
  pod: Pod;
  allocatable: Allocatable | undefined;
  /** The requests the node's other pods hold. */
  others: PodRequests;
  now: Instant;
  /** The kubelet's accepted resize of this pod: set here when it accepts one, cleared once none is under way. */
  accepted: { value?: AcceptedResize };
}

/** What the pod's containers run with now, and the resize condition, if any. */
// upstream: pkg/kubelet/kubelet.go handlePodResourcesResize, pkg/kubelet/status generate.go (resize conditions)
export function podResize(r: ResizeContext): ResizeView {
  const { pod, now } = r;
  const statuses = pod.status?.containerStatuses ?? [];
  const actual = new Map(pod.spec.containers.map((c) => [c.name, statuses.find((s) => s.name === c.name)?.['resources'] ?? cpuMemory(c)]));
  const pending = pod.spec.containers.some((c) => !sameCpuMemory(c, actual.get(c.name)));
  if (!pending) {
    delete r.accepted.value;
    return { resources: actual };
  }
  const desired = desiredResources(pod);
  if (r.accepted.value?.desired !== desired) {
    const refused = admit(podRequests(pod.spec), r.others, r.allocatable);
    if (refused !== undefined) {
      delete r.accepted.value;
      return { resources: actual, condition: { type: 'PodResizePending', status: 'True', ...refused } };
    }
    r.accepted.value = { desired, since: now };
  }
  const doneAt = r.accepted.value.since + RESIZE_MS;
  if (now < doneAt) return { resources: actual, condition: { type: 'PodResizeInProgress', status: 'True' }, doneAt };
  // kept until the status reports it (a second render of the same instant must not accept it anew)
  return { resources: new Map(pod.spec.containers.map((c) => [c.name, cpuMemory(c)])) };
}
