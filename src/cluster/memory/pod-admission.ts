// Pod registry rules the simulation depends on: defaulting on every write, the initial Pending status,
// spec immutability on update (scheduling goes through a Binding), and the Binding itself.

import { cloneJson } from '../../api/validation/json.js';
import type { FieldIssue } from '../../api/errors.js';
import { defaultPodSpec } from '../../api/pod-defaults.js';
import { podQOSClass } from '../../api/pod-resources.js';
import { toTimestamp, type Instant, type Pod, type PodCondition, type PodSpec } from '../../api/types.js';
import { jsonEqual } from './equality.js';

const IMMUTABLE_SPEC_DETAIL =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
  '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

// upstream: pkg/registry/core/pod/strategy.go PrepareForCreate
export function preparePodForCreate(pod: Pod): Pod {
  const out = cloneJson(pod);
  out.spec = defaultPodSpec(out.spec ?? { containers: [] });
  out.metadata.generation = 1;
  out.status = { phase: 'Pending', qosClass: podQOSClass(out.spec) };
  return out;
}

export function preparePodForUpdate(next: Pod, prev: Pod): Pod {
  const out = cloneJson(next);
  out.spec = defaultPodSpec(out.spec ?? { containers: [] });
  const changed = !jsonEqual(out.spec, prev.spec);
  out.metadata.generation = (prev.metadata.generation ?? 1) + (changed ? 1 : 0);
  return out;
}

// upstream: pkg/apis/core/validation/validation.go ValidatePodUpdate
/** Only images, activeDeadlineSeconds, tolerations and terminationGracePeriodSeconds may change. */
export function validatePodUpdate(next: Pod, prev: Pod): FieldIssue[] {
  const mutable = (spec: PodSpec, from: PodSpec): PodSpec => ({
    ...spec,
    containers: withImagesOf(spec.containers, from.containers) ?? spec.containers,
    initContainers: withImagesOf(spec.initContainers, from.initContainers),
    activeDeadlineSeconds: from.activeDeadlineSeconds,
    tolerations: from['tolerations'],
    terminationGracePeriodSeconds: from.terminationGracePeriodSeconds,
  });
  if (jsonEqual(mutable(next.spec, prev.spec), prev.spec)) return [];
  return [{ path: 'spec', type: 'Forbidden', detail: IMMUTABLE_SPEC_DETAIL }];
}

function withImagesOf<C extends { image?: string }>(list: C[] | undefined, from: C[] | undefined): C[] | undefined {
  if (list === undefined || from === undefined || list.length !== from.length) return list;
  return list.map((c, i) => ({ ...c, image: from[i]!.image }));
}

// upstream: pkg/registry/core/pod/storage/storage.go setPodNodeAndMetadata
/** The pod after a Binding to `nodeName`: spec.nodeName set and PodScheduled=True. */
export function bindPod(pod: Pod, nodeName: string, now: Instant): Pod {
  const out = cloneJson(pod);
  out.spec.nodeName = nodeName;
  const scheduled: PodCondition = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: toTimestamp(now) };
  const conditions = out.status?.conditions ?? [];
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  if (at >= 0 && conditions[at]!.status === 'True') scheduled.lastTransitionTime = conditions[at]!.lastTransitionTime;
  if (at >= 0) conditions[at] = scheduled;
  else conditions.push(scheduled);
  out.status = { ...out.status, conditions };
  return out;
}
