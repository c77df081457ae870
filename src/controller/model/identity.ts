// Pod identity and stable storage: how a pod for an ordinal is built,
// and how an existing pod is checked and repaired. Pure: every function returns a new object.

import { controllerRefTo } from '../../api/controller-ref.js';
import { IN_PLACE_READINESS_GATE, Labels, type Pod, type StatefulSet, type Volume } from '../../api/types.js';
import { hasDrainGate } from './readiness-gate.js';
import { claimNameFor, claimTemplates } from './claim-identity.js';
import { parentNameAndOrdinal } from './pod-state.js';
import { partitionOf } from '../../api/intstr.js';
import { drainSecondsOf, startOrdinal } from './spec.js';

// upstream: stateful_set_utils.go getPodName
export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name ?? ''}-${ordinal}`;
}


/** Pod name label, index label, namespace and name for the ordinal in the pod's own name. */
// upstream: stateful_set_utils.go updateIdentity
export function updateIdentity(set: StatefulSet, pod: Pod): Pod {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  const name = podName(set, ordinal);
  const labels = { ...pod.metadata.labels, [Labels.podName]: name, [Labels.podIndex]: String(ordinal) };
  return { ...pod, metadata: { ...pod.metadata, name, namespace: set.metadata.namespace, labels } };
}

/**
 * One volume per claim template, named like the template and bound to `<claim>-<set>-<ordinal>`, first (in
 * template order; upstream iterates a Go map), then the pod's other volumes.
 */
// upstream: stateful_set_utils.go updateStorage
export function updateStorage(set: StatefulSet, pod: Pod): Pod {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  const templates = claimTemplates(set);
  const names = new Set(templates.map((t) => t.metadata.name ?? ''));
  const claimVolumes: Volume[] = templates.map((t) => ({
    name: t.metadata.name ?? '',
    persistentVolumeClaim: { claimName: claimNameFor(set, t, ordinal), readOnly: false },
  }));
  const others = (pod.spec.volumes ?? []).filter((v) => !names.has(v.name));
  return { ...pod, spec: { ...pod.spec, volumes: [...claimVolumes, ...others] } };
}

/** GenerateName prefix of GetPodFromTemplate: `<set>-` unless that is not a valid name prefix. */
function generateNameOf(set: StatefulSet): string {
  const prefix = `${set.metadata.name ?? ''}-`;
  return prefix.length <= 253 ? prefix : (set.metadata.name ?? '');
}

/** A new, unsaved pod for `ordinal` from the set's template, with identity and storage. */
// upstream: stateful_set_utils.go newStatefulSetPod (+ controller.GetPodFromTemplate, initIdentity)
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const template = structuredClone(set.spec.template);
  const name = podName(set, ordinal);
  const meta = template.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: generateNameOf(set),
      namespace: set.metadata.namespace,
      labels: { ...meta.labels },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerRefTo(set)],
    },
    spec: { ...template.spec, hostname: name },
  };
  // initIdentity overwrites the template's subdomain, also with an empty serviceName
  if (set.spec.serviceName) pod.spec.subdomain = set.spec.serviceName;
  else delete pod.spec.subdomain;
  return updateStorage(set, updateIdentity(set, withDrainGate(set, pod)));
}

/**
 * inPlaceUpdateStrategy.gracePeriodSeconds > 0 (podUpdatePolicy InPlace*): the pod gets the readiness gate the
 * drain before an in-place restart works through (readiness-gate.ts). Not part of the template, so not of the
 * revision hash, and not a field the in-place check compares (it compares templates).
 */
function withDrainGate(set: StatefulSet, pod: Pod): Pod {
  if (drainSecondsOf(set) === 0 || hasDrainGate(pod)) return pod;
  const gates = [...(pod.spec.readinessGates ?? []), { conditionType: IN_PLACE_READINESS_GATE }];
  return { ...pod, spec: { ...pod.spec, readinessGates: gates } };
}

/**
 * Whether a missing pod for `ordinal` is created from the current revision: RollingUpdate without a
 * rollingUpdate block below start + status.currentReplicas, or below start + partition when the strategy has a
 * partition (rollingUpdate, or our enforcedRollingUpdate; a staged rollout's step partition when it is at one).
 * Everything else uses the update revision.
 */
// upstream: stateful_set_utils.go newVersionedStatefulSetPod (the revision choice)
export function createsAtCurrentRevision(set: StatefulSet, ordinal: number, stepPartition?: number): boolean {
  const strategy = set.spec.updateStrategy;
  const type = strategy?.type || 'RollingUpdate';
  const block = type === 'EnforcedRollingUpdate' ? strategy?.enforcedRollingUpdate : strategy?.rollingUpdate;
  const start = startOrdinal(set);
  if (type === 'RollingUpdate' && block === undefined) return ordinal < start + (set.status?.currentReplicas ?? 0);
  return block !== undefined && ordinal < start + (stepPartition ?? partitionOf(set));
}

// upstream: stateful_set_utils.go newVersionedStatefulSetPod
export function newVersionedStatefulSetPod(
  currentSet: StatefulSet,
  updateSet: StatefulSet,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
  /** rollingUpdate.steps: the partition of the step the rollout is at (rollout-steps.ts), above spec's. */
  stepPartition?: number,
): Pod {
  const atCurrent = createsAtCurrentRevision(currentSet, ordinal, stepPartition);
  const pod = newStatefulSetPod(atCurrent ? currentSet : updateSet, ordinal);
  pod.metadata.labels = { ...pod.metadata.labels, [Labels.revisionHash]: atCurrent ? currentRevision : updateRevision };
  return pod;
}

// upstream: stateful_set_utils.go identityMatches
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentNameAndOrdinal(pod.metadata.name);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata.name === podName(set, ordinal) &&
    (pod.metadata.namespace ?? '') === (set.metadata.namespace ?? '') &&
    pod.metadata.labels?.[Labels.podName] === pod.metadata.name
  );
}

/**
 * Every claim template is mounted as the ordinal's claim. volumeClaimUpdatePolicy InPlace lets templates be
 * added: a pod created before has no claim volume of the new one, and is replaced by the rollout (a pod's
 * volumes cannot be updated), not repaired, so only a claim volume it has is checked.
 */
// upstream: stateful_set_utils.go storageMatches
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = parentNameAndOrdinal(pod.metadata.name).ordinal;
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec.volumes ?? []).map((v) => [v.name, v]));
  const inPlace = set.spec.volumeClaimUpdatePolicy === 'InPlace';
  return claimTemplates(set).every((t) => {
    const claim = volumes.get(t.metadata.name ?? '')?.persistentVolumeClaim;
    if (claim === undefined || claim === null) return inPlace;
    return claim.claimName === claimNameFor(set, t, ordinal);
  });
}

/** The pod with identity and storage repaired where they do not match (what UpdateStatefulPod writes). */
// upstream: stateful_pod_control.go UpdateStatefulPod (identity and storage part)
export function repairPod(set: StatefulSet, pod: Pod): Pod {
  const withIdentity = identityMatches(set, pod) ? pod : updateIdentity(set, pod);
  return storageMatches(set, withIdentity) ? withIdentity : updateStorage(set, withIdentity);
}
