// Builders for planner tests: defaulted sets (as the API server stores them), their revisions, and pods in
// chosen states, all on a fixed clock.

import { defaultStatefulSet } from '../../src/api/defaults.js';
import { defaultFeatures, type Features } from '../../src/api/features.js';
import { newRevision } from '../../src/api/revision/hash.js';
import { toTimestamp, type ControllerRevision, type Instant, type IntOrString, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../src/api/types.js';
import { newVersionedStatefulSetPod } from '../../src/controller/model/identity.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';

export const T0: Instant = Date.parse('2026-03-01T12:00:00Z');
export const SECOND = 1000;
export const features: Features = defaultFeatures();

export interface SetOptions {
  name?: string;
  policy?: 'OrderedReady' | 'Parallel';
  strategy?: 'RollingUpdate' | 'OnDelete' | 'Recreate' | 'EnforcedRollingUpdate';
  partition?: number;
  maxUnavailable?: IntOrString;
  batchStartPolicy?: 'Ordered' | 'Together';
  respectPodDisruptionBudgets?: boolean;
  topologyKey?: string;
  updateOrder?: 'Ordinal' | 'Priority';
  priority?: { label: string; values?: string[] };
  onFailure?: 'Halt' | 'Rollback';
  minReadySeconds?: number;
  start?: number;
  /** One volumeClaimTemplate `data` (default true, as upstream's newStatefulSet). */
  claims?: boolean;
  retention?: { whenDeleted: 'Retain' | 'Delete'; whenScaled: 'Retain' | 'Delete' };
  image?: string;
  /** apps.ordinal.dev/v1 (default) or apps/v1. */
  apiVersion?: string;
  progressDeadlineSeconds?: number;
  /** `type: RollingUpdate` written explicitly without a rollingUpdate block (it stays nil). */
  nilRollingUpdate?: boolean;
}

function strategyOf(opts: SetOptions): StatefulSet['spec']['updateStrategy'] {
  const type = opts.strategy ?? 'RollingUpdate';
  if (type === 'EnforcedRollingUpdate') {
    return { type, enforcedRollingUpdate: { partition: opts.partition ?? 0, maxUnavailable: opts.maxUnavailable ?? 1, ...(opts.onFailure ? { onFailure: opts.onFailure } : {}) } };
  }
  if (type !== 'RollingUpdate') return { type };
  if (opts.nilRollingUpdate) return { type };
  const rollingUpdate: NonNullable<StatefulSet['spec']['updateStrategy']>['rollingUpdate'] = {};
  if (opts.partition !== undefined) rollingUpdate.partition = opts.partition;
  if (opts.maxUnavailable !== undefined) rollingUpdate.maxUnavailable = opts.maxUnavailable;
  if (opts.batchStartPolicy !== undefined) rollingUpdate.batchStartPolicy = opts.batchStartPolicy;
  if (opts.respectPodDisruptionBudgets !== undefined) rollingUpdate.respectPodDisruptionBudgets = opts.respectPodDisruptionBudgets;
  if (opts.topologyKey !== undefined) rollingUpdate.topologyKey = opts.topologyKey;
  if (opts.updateOrder !== undefined) rollingUpdate.updateOrder = opts.updateOrder;
  if (opts.priority !== undefined) rollingUpdate.priority = opts.priority;
  if (opts.onFailure !== undefined) rollingUpdate.onFailure = opts.onFailure;
  return { type, rollingUpdate };
}

const claimTemplate = (): PersistentVolumeClaim => ({
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});

/** A defaulted set named `web` (namespace default, uid `uid-web`, generation 1). */
export function newSet(replicas: number, opts: SetOptions = {}): StatefulSet {
  const name = opts.name ?? 'web';
  const raw: StatefulSet = {
    apiVersion: opts.apiVersion ?? 'apps.ordinal.dev/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      serviceName: name,
      podManagementPolicy: opts.policy ?? 'OrderedReady',
      updateStrategy: strategyOf(opts),
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: opts.image ?? 'app:v1' }] } },
      ...(opts.claims === false ? {} : { volumeClaimTemplates: [claimTemplate()] }),
      ...(opts.minReadySeconds !== undefined ? { minReadySeconds: opts.minReadySeconds } : {}),
      ...(opts.start !== undefined ? { ordinals: { start: opts.start } } : {}),
      ...(opts.retention ? { persistentVolumeClaimRetentionPolicy: opts.retention } : {}),
      ...(opts.progressDeadlineSeconds !== undefined ? { progressDeadlineSeconds: opts.progressDeadlineSeconds } : {}),
      // validation wants a progress deadline longer than minReadySeconds
      ...(opts.progressDeadlineSeconds === undefined && (opts.minReadySeconds ?? 0) >= 600 && (opts.apiVersion ?? 'apps.ordinal.dev/v1') !== 'apps/v1'
        ? { progressDeadlineSeconds: (opts.minReadySeconds ?? 0) + 600 }
        : {}),
    },
  };
  return defaultStatefulSet(raw, features);
}

/** The set with a new image (a template change) and its generation bumped. */
export function withImage(set: StatefulSet, image: string): StatefulSet {
  const next = structuredClone(set);
  const container = next.spec.template.spec.containers[0];
  if (container) container.image = image;
  next.metadata.generation = (next.metadata.generation ?? 1) + 1;
  return next;
}

/** The stored ControllerRevision of the set's template (as upstream would have created it). */
export function revisionOf(set: StatefulSet, number = 1): ControllerRevision {
  const rev = newRevision(set, number, set.status?.collisionCount ?? 0);
  rev.metadata.uid = `uid-rev-${rev.metadata.name ?? ''}`;
  rev.metadata.creationTimestamp = toTimestamp(T0 - 3600 * SECOND + number * SECOND);
  return rev;
}

export const revisionName = (set: StatefulSet): string => revisionOf(set).metadata.name ?? '';

export interface PodState {
  /** Default Running. */
  phase?: 'Pending' | 'Running' | 'Failed' | 'Succeeded' | 'Unknown';
  /** Default true when Running. */
  ready?: boolean;
  /** When Ready last changed (default an hour before T0). */
  readySince?: Instant;
  terminating?: boolean;
  /** A container waiting reason, e.g. CrashLoopBackOff or ImagePullBackOff. */
  waiting?: string;
  createdAt?: Instant;
  /** The set whose template the pod was built from (default: the set given). */
  from?: StatefulSet;
}

/** A pod of `set` at `ordinal` as the API server would hold it, built from `from` (its revision). */
export function podFor(set: StatefulSet, ordinal: number, state: PodState = {}): Pod {
  const from = state.from ?? set;
  const rev = revisionName(from);
  const pod = newVersionedStatefulSetPod(from, from, rev, rev, ordinal);
  pod.metadata.uid = `uid-${pod.metadata.name ?? ''}`;
  pod.metadata.creationTimestamp = toTimestamp(state.createdAt ?? T0 - 3600 * SECOND);
  if (state.terminating) pod.metadata.deletionTimestamp = toTimestamp(T0);
  const phase = state.phase ?? 'Running';
  const ready = state.ready ?? phase === 'Running';
  pod.status = {
    phase,
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: toTimestamp(state.readySince ?? T0 - 3600 * SECOND) }],
    containerStatuses: [{ name: 'app', ready, restartCount: 0, ...(state.waiting ? { state: { waiting: { reason: state.waiting } } } : {}) }],
  };
  return pod;
}

/** Pods at ordinals [start, start + n) of `set`, all Running and Ready for an hour. */
export function readyPods(set: StatefulSet, n: number, state: PodState = {}): Pod[] {
  const start = set.spec.ordinals?.start ?? 0;
  return Array.from({ length: n }, (_, i) => podFor(set, start + i, state));
}

/** ObservedState with the set's own revisions (default: the revision of `set` itself). */
export function observe(set: StatefulSet, pods: Pod[], more: { revisions?: ControllerRevision[]; claims?: PersistentVolumeClaim[] } = {}): ObservedState {
  return { set, pods, claims: more.claims ?? [], revisions: more.revisions ?? [revisionOf(set)] };
}

/** `set` with a status as a previous sync would have written it for `pods` converged on `rev`. */
export function withStatus(set: StatefulSet, status: Partial<NonNullable<StatefulSet['status']>>): StatefulSet {
  return { ...set, status: { replicas: 0, ...set.status, ...status } };
}
