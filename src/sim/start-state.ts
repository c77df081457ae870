// Where a forecast's runs start: the set as it is, with its pods, claims, revisions and PodDisruptionBudgets,
// so that no run spends its time creating the set first. A live set's start is what the cluster holds
// (observedState); a manifest's is made once by creating it on the simulated cluster (createdState), every
// pod at once.

import { Resources, type Resource } from '../api/client.js';
import { defaultStatefulSet } from '../api/defaults.js';
import { defaultFeatures } from '../api/features.js';
import { fromTimestamp, type Instant, type KubeObject, type StatefulSet } from '../api/types.js';
import { qualifiedResource } from '../cluster/memory/messages.js';
import type { MemorySnapshot } from '../cluster/memory/index.js';
import { scenarioFromDocument } from './scenario.js';
import { scenarioFromManifests, setPath, type ManifestTiming } from './scenario-from-manifests.js';
import { Simulation, type StartState } from './simulation.js';
import { NODE_NAME } from './world.js';

/** Thrown when the set cannot be brought to its start: its creation does not converge on the simulated cluster. */
export class StartStateError extends Error {
  override name = 'StartStateError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Resources a start state holds, in the order they are restored: what owns or classifies comes before what
 * refers to it, so that the timeline names each claim's set. Events are left out: each run's controller
 * records its own.
 */
const START_RESOURCES: readonly Resource[] = [
  Resources.namespaces,
  Resources.storageClasses,
  Resources.persistentVolumes,
  Resources.services,
  Resources.statefulSets,
  Resources.ordinalStatefulSets,
  Resources.controllerRevisions,
  Resources.persistentVolumeClaims,
  Resources.pods,
  Resources.podDisruptionBudgets,
];

/** A snapshot of these objects: START_RESOURCES only, in their order. */
export function startSnapshot(objects: ReadonlyArray<{ resource: Resource; object: KubeObject }>): MemorySnapshot {
  const resources: MemorySnapshot['resources'] = {};
  for (const res of START_RESOURCES) {
    const items = objects.filter((o) => o.resource === res).map((o) => o.object);
    if (items.length > 0) resources[qualifiedResource(res)] = items;
  }
  return { resourceVersion: '0', resources };
}

const SET_KEYS = [qualifiedResource(Resources.statefulSets), qualifiedResource(Resources.ordinalStatefulSets)];

type SetField = { path: string; value: unknown };

/** The same start with fields set on each StatefulSet (dotted paths under the set), as a set recreated with them would have. */
export function withSetFields(start: StartState, fields: readonly SetField[] | ((set: KubeObject) => readonly SetField[])): StartState {
  const fieldsOf = typeof fields === 'function' ? fields : () => fields;
  const resources = { ...start.snapshot.resources };
  for (const key of SET_KEYS) {
    resources[key] &&= resources[key].map((set) => {
      const copy = structuredClone(set) as Obj;
      for (const { path, value } of fieldsOf(set)) setPath(copy, path, value);
      return copy as KubeObject;
    });
  }
  return { ...start, snapshot: { ...start.snapshot, resources } };
}

/**
 * The manifests' objects once created and converged on the simulated cluster. They are created with every pod
 * at once (podManagementPolicy Parallel, pods ready and gone at once), which leaves the same pods, claims,
 * revisions and status as an OrderedReady creation, sooner; each set then gets its own podManagementPolicy back.
 */
export async function createdState(name: string, manifests: readonly unknown[], timing: ManifestTiming = {}): Promise<StartState> {
  const change = { images: [], set: [], replacements: [], initial: [{ path: 'spec.podManagementPolicy', value: 'Parallel' }] };
  const doc = scenarioFromManifests(name, manifests, change, { ...timing, podStartSeconds: 0, podTerminationSeconds: 0 });
  const sim = new Simulation(scenarioFromDocument(doc, `creation of ${name}`), { keepRecords: false });
  await sim.start();
  await sim.runSteps();
  const at = sim.now();
  const snapshot = sim.world.cluster.snapshot();
  await sim.finish();
  if (sim.failed) throw new StartStateError(`${name} does not converge when created on the simulated cluster: ${sim.tracker.reason() ?? 'a step failed'}`);
  const byResource = START_RESOURCES.flatMap((resource) => (snapshot.resources[qualifiedResource(resource)] ?? []).map((object) => ({ resource, object })));
  // Each set's own policy, as its manifest gives it (defaulted as the API server does).
  const policies = new Map(
    manifests.filter((m): m is Obj & { metadata: Obj; spec: Obj } => isObj(m) && m.kind === 'StatefulSet' && isObj(m.metadata) && isObj(m.spec)).map((m) => [
      `${String(m.metadata.namespace ?? 'default')}/${String(m.metadata.name)}`,
      typeof m.spec.podManagementPolicy === 'string' && m.spec.podManagementPolicy !== '' ? m.spec.podManagementPolicy : 'OrderedReady',
    ]),
  );
  const policy = (set: KubeObject) => policies.get(`${set.metadata.namespace ?? 'default'}/${set.metadata.name ?? ''}`) ?? 'OrderedReady';
  return withSetFields({ at, snapshot: startSnapshot(byResource) }, (set) => [{ path: 'spec.podManagementPolicy', value: policy(set) }]);
}

/**
 * A live cluster's objects as the start: bound to the simulated node (or, for a pod on one of `nodes`, the
 * scenario's Node objects, to its own), virtual time starting at `now` or at the newest timestamp they hold,
 * whichever is later (nothing observed lies in the future). A StatefulSet is stored defaulted, as the
 * simulated API server stores every set it admits: kube-apiserver stores an apps.ordinal.dev/v1 set's claim
 * templates as written, and the change's update, defaulted, would otherwise read as an edit of them (`field is
 * immutable`). Defaulting is what the controller does before it hashes a revision, so the revisions hold.
 */
export function observedState(objects: ReadonlyArray<{ resource: Resource; object: KubeObject }>, now: Instant, nodes: ReadonlySet<string> = new Set()): StartState {
  let at = now;
  const bound = objects.map(({ resource, object: observed }) => {
    at = Math.max(at, newestTimestamp(observed));
    const isSet = resource === Resources.statefulSets || resource === Resources.ordinalStatefulSets;
    const object = isSet ? (defaultStatefulSet(observed as StatefulSet, defaultFeatures()) as KubeObject) : observed;
    if (resource !== Resources.pods || !isObj(object['spec']) || !object['spec']['nodeName']) return { resource, object };
    if (nodes.has(String(object['spec']['nodeName']))) return { resource, object };
    return { resource, object: { ...object, spec: { ...object['spec'], nodeName: NODE_NAME } } as KubeObject };
  });
  return { at: Math.ceil(at / 1000) * 1000, snapshot: startSnapshot(bound) };
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** The latest instant any timestamp in the object names (creation, conditions, container starts, …). */
function newestTimestamp(v: unknown): number {
  if (typeof v === 'string') return RFC3339.test(v) ? (fromTimestamp(v) ?? -Infinity) : -Infinity;
  if (Array.isArray(v)) return v.reduce((m: number, x) => Math.max(m, newestTimestamp(x)), -Infinity);
  if (isObj(v)) return Object.values(v).reduce((m: number, x) => Math.max(m, newestTimestamp(x)), -Infinity);
  return -Infinity;
}
