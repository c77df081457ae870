// The pods/resize subresource (KEP-1287) as kube-apiserver 1.37 serves it: the request keeps only the
// containers' resources and resizePolicy (the rest of the pod stays as stored), ValidatePodResize checks what
// changed, and the PodResizeValidator admission plugin refuses a pod whose requests its node could never hold.

import { ApiError, type FieldIssue } from '../../api/errors.js';
import { containerResources, cpuMemoryOnly, podQOSClass, podRequests, removedResources } from '../../api/pod-resources.js';
import type { Container, KubeObject, Pod } from '../../api/types.js';
import { cloneJson } from '../../api/validation/json.js';
import { quantityText, scaledQuantity } from '../../api/validation/quantity.js';
import { jsonEqual } from './equality.js';


/**
 * The stored pod with the request's containers' resources and resizePolicy; the request as it is when it adds,
 * removes, renames or reorders a container (validation refuses it).
 */
// upstream: pkg/registry/core/pod/strategy.go dropNonResizeUpdates
export function resizeRequest(request: KubeObject, stored: Pod): Pod {
  const spec = (request as Pod).spec;
  const sameShape = (a: Container[] | undefined, b: Container[] | undefined) => (a?.length ?? 0) === (b?.length ?? 0) && (a ?? []).every((c, i) => c.name === b?.[i]?.name);
  if (!spec || !sameShape(spec.containers, stored.spec.containers) || !sameShape(spec.initContainers, stored.spec.initContainers)) {
    return { ...cloneJson(stored), spec: cloneJson(spec) };
  }
  const merged = (news: Container[] | undefined, olds: Container[] | undefined): Container[] | undefined =>
    olds?.map((c, i) => {
      const { resources: _r, resizePolicy: _p, ...rest } = c;
      const next = news?.[i];
      return { ...rest, ...(next?.['resources'] !== undefined ? { resources: next['resources'] } : {}), ...(next?.['resizePolicy'] !== undefined ? { resizePolicy: next['resizePolicy'] } : {}) };
    });
  const out = cloneJson(stored);
  out.spec.containers = merged(spec.containers, stored.spec.containers) ?? [];
  if (stored.spec.initContainers !== undefined) out.spec.initContainers = merged(spec.initContainers, stored.spec.initContainers);
  return out;
}

/** A container reported running without `resources`: its node's kubelet predates in-place resize. */
// upstream: pkg/apis/core/validation/validation.go isPodResizeRequestSupported
function resizeSupported(pod: Pod): boolean {
  const running = (pod.status?.containerStatuses ?? []).find((s) => s.state?.running !== undefined);
  return running === undefined || running['resources'] !== undefined;
}

/** What the resize changes, as kube-apiserver's field errors. */
// upstream: pkg/apis/core/validation/validation.go ValidatePodResize
export function validatePodResize(next: Pod, prev: Pod): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const prevQOS = (prev.status?.['qosClass'] as string | undefined) || podQOSClass(prev.spec);
  if (prevQOS !== podQOSClass(next.spec)) {
    issues.push({ path: 'spec', type: 'Invalid', value: next.status?.['qosClass'] ?? '', detail: 'Pod QOS Class may not change as a result of resizing' });
  }
  if (!resizeSupported(prev)) issues.push({ path: 'spec', type: 'Forbidden', detail: 'Pod running on node without support for resize' });
  const nexts = next.spec.containers ?? [];
  const prevs = prev.spec.containers ?? [];
  if (nexts.length !== prevs.length) {
    return [...issues, { path: 'spec.containers', type: 'Forbidden', detail: 'containers may not be added or removed on resize' }];
  }
  const renamed = prevs.flatMap((c, i): FieldIssue[] =>
    nexts[i]?.name === c.name ? [] : [{ path: `spec.containers[${i}].name`, type: 'Forbidden', detail: 'containers may not be renamed or reordered on resize' }],
  );
  if (renamed.length > 0) return [...issues, ...renamed];
  prevs.forEach((c, i) => {
    const n = containerResources(nexts[i] as Container);
    const o = containerResources(c);
    const at = `spec.containers[${i}].resources`;
    if (removedResources(n.requests, o.requests).length > 0) issues.push({ path: `${at}.requests`, type: 'Forbidden', detail: 'resource requests cannot be removed' });
    if (removedResources(n.limits, o.limits).length > 0) issues.push({ path: `${at}.limits`, type: 'Forbidden', detail: 'resource limits cannot be removed' });
  });
  const others = !nexts.every((c, i) => cpuMemoryOnly(c, prevs[i] as Container)) || !jsonEqual(next.spec.initContainers, prev.spec.initContainers);
  if (others) issues.push({ path: 'spec', type: 'Forbidden', detail: 'only cpu and memory resources are mutable' });
  return issues;
}

/** A node as the admission plugin reads it. */
export interface NodeView {
  metadata: { name?: string; labels?: Record<string, string> };
  status?: { allocatable?: Record<string, unknown> };
}

const forbidden = (pod: Pod, detail: string): ApiError => new ApiError(`pods "${pod.metadata.name ?? ''}" is forbidden: ${detail}`, 403, 'Forbidden');

/**
 * The PodResizeValidator admission plugin: a resize of a bound pod whose spec changed must name an existing
 * linux node whose allocatable holds the pod's requests. Returns the 403 to answer, if any.
 */
// upstream: plugin/pkg/admission/podresize/admission.go Validate
export function admitResizeOnNode(pod: Pod, prev: Pod, node: NodeView | undefined): ApiError | undefined {
  const nodeName = pod.spec.nodeName;
  if (!nodeName || pod.metadata.generation === prev.metadata.generation) return undefined;
  if (node === undefined) return forbidden(pod, `node "${nodeName}" not found`);
  const os = node.metadata.labels?.['kubernetes.io/os'];
  if (os !== undefined && os !== 'linux') return forbidden(pod, `pod resize is only supported on linux nodes, node "${nodeName}" is "${os}"`);
  const allocatable = node.status?.allocatable ?? {};
  const read = (name: string, exponent: number): number => {
    const text = quantityText(allocatable[name]);
    return text === undefined ? 0 : (scaledQuantity(text, exponent) ?? 0);
  };
  const want = podRequests(pod.spec);
  const cpu = read('cpu', -3);
  const memory = read('memory', 0);
  const short: string[] = [];
  if (want.cpuMilli > cpu) short.push(`cpu, requested: ${want.cpuMilli}, allocatable: ${cpu}`);
  if (want.memoryBytes > memory) short.push(`memory, requested: ${want.memoryBytes}, allocatable: ${memory}`);
  return short.length > 0 ? forbidden(pod, `node didn't have enough allocatable resources: ${short.join('; ')}`) : undefined;
}
