// A pod's cpu and memory as Kubernetes reads them: its QoS class (kube-apiserver's status.qosClass, which a
// resize may not change, KEP-1287) and its requests (what a node's allocatable must hold). A request missing
// beside a limit reads as the limit, as pod defaulting copies it; pod-level resources are not modelled.

import type { Container, PodSpec, Quantity } from './types.js';
import { compareQuantities, quantityText, scaledQuantity } from './validation/quantity.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

type ResourceList = Readonly<Record<string, Quantity>>;

/** A container's `resources` (requests and limits), tolerant of a missing or mistyped block. */
export function containerResources(c: Container): { requests: ResourceList; limits: ResourceList } {
  const r = c['resources'] as { requests?: unknown; limits?: unknown } | undefined;
  const list = (v: unknown): ResourceList => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as ResourceList) : {});
  return { requests: list(r?.requests), limits: list(r?.limits) };
}

const isZero = (q: string | undefined): boolean => q === undefined || compareQuantities(q, '0') === 0;

/** One resource's shape: equal non-zero request and limit, both zero, or anything else. */
// upstream: pkg/apis/core/helper/qos qos.go resourceQOS
function resourceQOS(requests: ResourceList, limits: ResourceList, name: string): QOSClass {
  const lim = quantityText(limits[name]);
  const req = quantityText(requests[name]) ?? lim;
  const equal = req === lim || (req !== undefined && lim !== undefined && compareQuantities(req, lim) === 0) || (isZero(req) && isZero(lim));
  if (!equal) return 'Burstable';
  return isZero(req) ? 'BestEffort' : 'Guaranteed';
}

// upstream: pkg/apis/core/helper/qos qos.go requirementsQOS
function requirementsQOS(c: Container): QOSClass {
  const { requests, limits } = containerResources(c);
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  const cpu = resourceQOS(requests, limits, 'cpu');
  const memory = resourceQOS(requests, limits, 'memory');
  return cpu === memory ? cpu : 'Burstable';
}

/** BestEffort with no cpu/memory anywhere; Guaranteed when every container's requests equal its non-zero limits; else Burstable. */
// upstream: pkg/apis/core/helper/qos qos.go ComputePodQOS
export function podQOSClass(spec: PodSpec): QOSClass {
  let pod: QOSClass | undefined;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const qos = requirementsQOS(c);
    if (qos === 'Burstable') return qos;
    if (pod === undefined) pod = qos;
    else if (pod !== qos) return 'Burstable';
  }
  return pod ?? 'BestEffort';
}

/** The resources a pod's cpu and memory requests take on a node: millicores and bytes. */
export interface PodRequests {
  cpuMilli: number;
  memoryBytes: number;
}

function containerRequests(c: Container): PodRequests {
  const { requests, limits } = containerResources(c);
  const read = (name: string, exponent: number): number => {
    const text = quantityText(requests[name]) ?? quantityText(limits[name]);
    return text === undefined ? 0 : (scaledQuantity(text, exponent) ?? 0);
  };
  return { cpuMilli: read('cpu', -3), memoryBytes: read('memory', 0) };
}

const isSidecar = (c: Container): boolean => c['restartPolicy'] === 'Always';

/**
 * The pod's requests: its containers' and sidecars' summed, or the largest other init container's when that
 * is more (init containers run one at a time, before the rest).
 */
// upstream: k8s.io/component-helpers/resource helpers.go PodRequests (without pod overhead and pod-level resources)
export function podRequests(spec: PodSpec): PodRequests {
  const running = [...(spec.initContainers ?? []).filter(isSidecar), ...(spec.containers ?? [])].map(containerRequests);
  const sum = running.reduce((a, b) => ({ cpuMilli: a.cpuMilli + b.cpuMilli, memoryBytes: a.memoryBytes + b.memoryBytes }), { cpuMilli: 0, memoryBytes: 0 });
  for (const init of (spec.initContainers ?? []).filter((c) => !isSidecar(c)).map(containerRequests)) {
    sum.cpuMilli = Math.max(sum.cpuMilli, init.cpuMilli);
    sum.memoryBytes = Math.max(sum.memoryBytes, init.memoryBytes);
  }
  return sum;
}

/** The container without its cpu and memory requests and limits (empty lists read as absent). */
function withoutCpuMemory(c: Container): Container {
  const drop = (list: ResourceList): ResourceList | undefined => {
    const out: Record<string, Quantity> = {};
    for (const [k, v] of Object.entries(list)) if (k !== 'cpu' && k !== 'memory') out[k] = v;
    return Object.keys(out).length === 0 ? undefined : out;
  };
  const r = (c['resources'] as Record<string, unknown> | undefined) ?? {};
  const { requests, limits } = containerResources(c);
  return { ...c, resources: { ...r, requests: drop(requests), limits: drop(limits) } };
}

const sortedJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

/** Only the containers' cpu and memory requests and limits differ (ValidatePodResize's "only cpu and memory resources are mutable"). */
export const cpuMemoryOnly = (next: Container, prev: Container): boolean => sortedJson(withoutCpuMemory(next)) === sortedJson(withoutCpuMemory(prev));

/** Names in `prev` that `next` lacks: a request or limit a resize may not remove. */
export const removedResources = (next: ResourceList, prev: ResourceList): string[] => Object.keys(prev).filter((k) => !Object.prototype.hasOwnProperty.call(next, k));

const sameQuantity = (a: Quantity | undefined, b: Quantity | undefined): boolean => {
  const x = quantityText(a);
  const y = quantityText(b);
  return x === y || (x !== undefined && y !== undefined && compareQuantities(x, y) === 0);
};

/**
 * `actual` (a container status's `resources`, or another spec's) has the cpu and memory requests and limits of
 * `desired`, compared as quantities (`0.5` is `500m`), a missing request reading as its limit (pod defaulting).
 */
export function sameCpuMemory(desired: Container, actual: unknown): boolean {
  const want = containerResources(desired);
  const have = containerResources({ name: desired.name, resources: actual } as Container);
  return ['cpu', 'memory'].every(
    (name) => sameQuantity(want.limits[name], have.limits[name]) && sameQuantity(want.requests[name] ?? want.limits[name], have.requests[name] ?? have.limits[name]),
  );
}
