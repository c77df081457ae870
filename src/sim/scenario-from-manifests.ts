// A scenario from the manifests a user already has (what `kubectl apply -f` takes) and one change to them:
// the objects are created at t=0 and converge, then every changed StatefulSet is applied whole in one step
// (so several changes make one new revision, as one `kubectl apply` does), and the run waits for the rollout.
// Fields the API server sets (status, uid, resourceVersion, managedFields, …) are dropped, so the output of
// `kubectl get sts web -o yaml` works as it is.

import { deepEqual } from '../api/validation/json.js';
import type { Seconds } from '../cluster/kubelet/config.js';
import type { Allocatable } from '../cluster/kubelet/resize.js';
import { FieldPathError, setFieldPath } from './field-path.js';
import { resourceFor } from './scenario-objects.js';

export interface ManifestChange {
  /** `CONTAINER=IMAGE`, for every StatefulSet with that container. */
  images: Array<{ container: string; image: string }>;
  replicas?: number;
  /** Field paths under each StatefulSet (`spec.updateStrategy.rollingUpdate.maxUnavailable`, `spec.template.spec.containers[name=app].image`) and their values. */
  set: Array<{ path: string; value: unknown }>;
  /** Objects applied as the change (`-f NEW.yaml`), before the other changes are made to them. */
  replacements: unknown[];
  /** Fields set on every StatefulSet from the start, before it is created (a forecast's immutable candidate). */
  initial?: Array<{ path: string; value: unknown }>;
  /** The release fails (a forecast's `--fail-at`): every new image of the change behaves so on that ordinal's pod only. */
  failure?: ReleaseFailure;
}

export type FailureBehavior = 'ImagePullBackOff' | 'CrashLoopBackOff';
export interface ReleaseFailure {
  behavior: FailureBehavior;
  ordinal: number;
}

export interface ManifestTiming {
  podStartSeconds?: Seconds;
  podTerminationSeconds?: Seconds;
  /** The simulated node's allocatable (default DEFAULT_ALLOCATABLE). */
  allocatable?: Allocatable;
  /** How long a claim's expansion takes, when the sets have claim templates (default: the simulator's, 10 s). */
  expansionSeconds?: Seconds;
  /** How long a set's preUpdate hook takes to pass (cluster.preUpdateHookSeconds). */
  hookSeconds?: Seconds;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStatefulSet = (v: unknown): v is Obj & { metadata: Obj; spec: Obj } => isObj(v) && v.kind === 'StatefulSet' && isObj(v.metadata) && isObj(v.spec);
const keyOf = (o: Obj): string => {
  const m = isObj(o.metadata) ? o.metadata : {};
  return `${String(o.apiVersion)}/${String(o.kind)}/${String(m.namespace ?? 'default')}/${String(m.name)}`;
};

/**
 * The allocatable of the node manifests run on, unless `--allocatable` gives one: the simulated node holds
 * every pod, so room for many large pods, and an in-place resize is admitted as a node with room admits it.
 * (Without an allocatable kube-apiserver refuses every resize of a pod with requests, and the controller
 * recreates the pod instead.)
 */
export const DEFAULT_ALLOCATABLE: Readonly<Allocatable> = { cpu: '1000', memory: '4Ti' };

/** Thrown for manifests or changes that cannot make a scenario; the message names what is wrong. */
export class ManifestScenarioError extends Error {
  override name = 'ManifestScenarioError';
}

/** Each wait's limit: a large rollout on slow pods still fits, twice, within the default endSeconds (a day). */
const WAIT_SECONDS = 12 * 3600;

const SERVER_FIELDS = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'selfLink', 'deletionTimestamp'];

/** The object as a user would write it: without status and the metadata the server sets. */
export function withoutServerFields(o: unknown): unknown {
  if (!isObj(o)) return o;
  const { status: _status, ...rest } = o;
  if (!isObj(rest.metadata)) return rest;
  const metadata = Object.fromEntries(Object.entries(rest.metadata).filter(([k]) => !SERVER_FIELDS.includes(k)));
  const annotations = isObj(metadata.annotations) ? metadata.annotations : undefined;
  if (annotations?.['kubectl.kubernetes.io/last-applied-configuration'] !== undefined) {
    const { 'kubectl.kubernetes.io/last-applied-configuration': _last, ...kept } = annotations;
    if (Object.keys(kept).length > 0) metadata.annotations = kept;
    else delete metadata.annotations;
  }
  return { ...rest, metadata };
}

/** Sets a field path (field-path.ts: dotted keys, `[N]`, `[FIELD=VALUE]`) under `target`, making the objects on the way. */
export function setPath(target: Obj, path: string, value: unknown): void {
  try {
    setFieldPath(target, path, value);
  } catch (e) {
    if (e instanceof FieldPathError) throw new ManifestScenarioError(`--set ${path}: ${e.message}`);
    throw e;
  }
}

/** The set's containers and init containers, which `--image` may name. */
function containersOf(set: Obj & { spec: Obj }): Obj[] {
  const spec = isObj(set.spec.template) && isObj(set.spec.template.spec) ? set.spec.template.spec : undefined;
  const lists = [spec?.containers, spec?.initContainers].filter(Array.isArray) as unknown[][];
  return lists.flat().filter(isObj);
}

function setImage(set: Obj & { spec: Obj }, container: string, image: string): boolean {
  const hits = containersOf(set).filter((c) => c.name === container);
  for (const c of hits) c.image = image;
  return hits.length > 0;
}

/** `web has nginx, sidecar; db has postgres`: what `--image` could have named. */
const containerList = (sets: Array<Obj & { metadata: Obj; spec: Obj }>): string =>
  sets.map((set) => `${String(set.metadata.name)} has ${containersOf(set).map((c) => String(c.name)).join(', ') || 'no container'}`).join('; ');

/** The classes a set's claim templates ask for; `undefined` for a template that names none (the default class). */
function claimClassNames(set: Obj & { spec: Obj }): Array<string | undefined> {
  const templates = Array.isArray(set.spec.volumeClaimTemplates) ? (set.spec.volumeClaimTemplates as unknown[]) : [];
  return templates.map((t) => {
    const name = isObj(t) && isObj(t.spec) ? t.spec.storageClassName : undefined;
    return typeof name === 'string' ? name : undefined;
  });
}

/** What a cluster marks its default StorageClass with. */
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
/** The default class the simulation adds when the manifests have none. */
export const SIMULATED_DEFAULT_CLASS = 'simulated-default';

/**
 * StorageClasses the claims need and the manifests do not define, each allowing expansion: one per class
 * named, and a default one when a template names none and no class in the manifests is the default.
 */
function missingClasses(objects: readonly Obj[], wanted: ReadonlyArray<string | undefined>): Obj[] {
  const defined = objects.filter((o) => o.kind === 'StorageClass' && isObj(o.metadata));
  const names = new Set(defined.map((o) => String((o.metadata as Obj).name)));
  const hasDefault = defined.some((o) => isObj((o.metadata as Obj).annotations) && ((o.metadata as Obj).annotations as Obj)[DEFAULT_CLASS_ANNOTATION] === 'true');
  const missing = [...new Set(wanted.filter((n): n is string => n !== undefined && n !== '' && !names.has(n)))];
  const storageClass = (name: string, annotations?: Obj): Obj => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    provisioner: 'simulated',
    allowVolumeExpansion: true,
  });
  const needsDefault = wanted.includes(undefined) && !hasDefault && !names.has(SIMULATED_DEFAULT_CLASS);
  return [...missing.map((n) => storageClass(n)), ...(needsDefault ? [storageClass(SIMULATED_DEFAULT_CLASS, { [DEFAULT_CLASS_ANNOTATION]: 'true' })] : [])];
}

const hasChange = (c: ManifestChange) => c.images.length > 0 || c.replicas !== undefined || c.set.length > 0 || c.replacements.length > 0;

/** What the change does, in words (the scenario's name). */
export function describeChange(c: ManifestChange): string {
  const parts = [
    ...c.images.map((i) => `image ${i.container}=${i.image}`),
    ...(c.replicas !== undefined ? [`replicas ${c.replicas}`] : []),
    ...c.set.map((s) => `${s.path}=${JSON.stringify(s.value)}`),
    ...(c.replacements.length > 0 ? [`${c.replacements.length} object(s) applied`] : []),
  ];
  return parts.join(', ');
}

/**
 * The scenario document (to be parsed and validated like a file): `objects` from the manifests, then the
 * changed objects as `apply` steps between two waits for convergence. Throws ManifestScenarioError.
 */
export function scenarioFromManifests(name: string, manifests: readonly unknown[], change: ManifestChange, timing: ManifestTiming = {}): Obj {
  // Copies: the fields set below must not reach the caller's manifests.
  const objects = manifests.map((m) => structuredClone(withoutServerFields(m))).filter((o): o is Obj => isObj(o));
  for (const o of objects) if (isStatefulSet(o)) for (const s of change.initial ?? []) setPath(o, s.path, s.value);
  const skipped = objects.filter((o) => resourceFor(String(o.apiVersion), String(o.kind)) === undefined);
  if (skipped.length > 0) throw new ManifestScenarioError(`the simulator cannot create ${skipped.map((o) => `${String(o.apiVersion)} ${String(o.kind)}`).join(', ')}: leave them out of the manifests`);
  if (!objects.some(isStatefulSet)) throw new ManifestScenarioError('the manifests hold no StatefulSet');
  const byKey = new Map(objects.map((o) => [keyOf(o), structuredClone(o)]));
  const changed = new Set<string>();
  for (const r of change.replacements.map(withoutServerFields)) {
    if (!isObj(r)) throw new ManifestScenarioError('an applied document is not an object');
    byKey.set(keyOf(r), structuredClone(r));
    changed.add(keyOf(r));
  }
  const sets = [...byKey.entries()].filter((e): e is [string, Obj & { metadata: Obj; spec: Obj }] => isStatefulSet(e[1]));
  for (const { container, image } of change.images) {
    const hits = sets.filter(([key, set]) => setImage(set, container, image) && changed.add(key));
    if (hits.length === 0) throw new ManifestScenarioError(`--image ${container}=${image}: no StatefulSet has a container named "${container}" (${containerList(sets.map(([, set]) => set))})`);
  }
  for (const [key, set] of sets) {
    if (change.replicas !== undefined) set.spec.replicas = change.replicas;
    for (const s of change.set) setPath(set, s.path, s.value);
    if (change.replicas !== undefined || change.set.length > 0) changed.add(key);
  }
  const cluster: Obj = {};
  if (change.failure !== undefined) cluster.images = failingImages(objects, sets, changed, change.failure);
  if (timing.podStartSeconds !== undefined) cluster.podStartSeconds = timing.podStartSeconds;
  if (timing.podTerminationSeconds !== undefined) cluster.podTerminationSeconds = timing.podTerminationSeconds;
  cluster.allocatable = { ...(timing.allocatable ?? DEFAULT_ALLOCATABLE) };
  if (timing.hookSeconds !== undefined) cluster.preUpdateHookSeconds = timing.hookSeconds;
  // Claims need storage to bind and grow, and a class that lets them grow.
  const classNames = [...byKey.values()].filter(isStatefulSet).flatMap(claimClassNames);
  if (classNames.length > 0) {
    cluster.storage = timing.expansionSeconds !== undefined ? { expansionSeconds: timing.expansionSeconds } : {};
    objects.unshift(...missingClasses(objects, classNames));
  }
  const wait = { waitFor: 'Converged', timeoutSeconds: WAIT_SECONDS };
  const steps: Obj[] = [wait];
  if (hasChange(change)) steps.push(...[...changed].map((key) => ({ apply: byKey.get(key) })), wait);
  return {
    kind: 'Scenario',
    name: hasChange(change) ? `${name}: ${describeChange(change)}` : name,
    ...(Object.keys(cluster).length > 0 ? { cluster } : {}),
    objects,
    steps,
  };
}

const imagesOf = (set: Obj & { spec: Obj }): Set<string> => new Set(containersOf(set).map((c) => String(c.image)));

/**
 * The simulator's image behaviours that make the release fail: each image a changed set runs that it did not
 * run before, failing on the pod of `failure.ordinal` only, so the pods above it update and the rollout is
 * stuck there (docs/scenarios.md, image behaviours).
 */
function failingImages(created: readonly Obj[], sets: Array<[string, Obj & { metadata: Obj; spec: Obj }]>, changed: ReadonlySet<string>, failure: ReleaseFailure): Obj {
  const before = new Map(created.filter(isStatefulSet).map((o) => [keyOf(o), imagesOf(o)]));
  const pods = new Map<string, string[]>();
  for (const [key, set] of sets) {
    if (!changed.has(key)) continue;
    for (const image of imagesOf(set)) {
      if (!before.get(key)?.has(image)) pods.set(image, [...(pods.get(image) ?? []), `${String(set.metadata.name)}-${failure.ordinal}`]);
    }
  }
  const images = Object.fromEntries([...pods].map(([image, names]) => [image, { behavior: failure.behavior, pods: names }]));
  if (pods.size === 0) throw new ManifestScenarioError('--fail, --fail-at: the change runs no new image, and the simulator makes a release fail by its image: give --image CONTAINER=IMAGE');
  return images;
}

/** What makes a new revision: the pod template and the claim templates (those count under InPlace). */
const revisionFields = (set: Obj & { spec: Obj }): unknown => [set.spec.template, set.spec.volumeClaimTemplates];

/**
 * The StatefulSets (`namespace/name`) that a scenario built by scenarioFromManifests applies with their
 * templates as they were: a new revision needs a template change, so the apply replaces no pod, and a
 * changed updateStrategy only acts on the next template change.
 */
export function setsWithoutTemplateChange(doc: Obj): string[] {
  const objects = Array.isArray(doc.objects) ? doc.objects : [];
  const created = new Map(objects.filter(isStatefulSet).map((o) => [keyOf(o), o]));
  const applied = (Array.isArray(doc.steps) ? doc.steps : []).flatMap((step) => (isObj(step) && isStatefulSet(step.apply) ? [step.apply] : []));
  return applied
    .filter((set) => {
      const before = created.get(keyOf(set));
      return before !== undefined && deepEqual(revisionFields(before), revisionFields(set));
    })
    .map((set) => `${String(set.metadata.namespace ?? 'default')}/${String(set.metadata.name)}`);
}
