// The in-memory API server: one store, one commit log, watch fan-out and a garbage collector, with
// the request semantics of kube-apiserver (preconditions, status subresource, graceful deletion).
// Requests run synchronously; client views wrap them in promises and attribute them to an actor.

import { cloneJson } from '../../api/validation/json.js';
import { Resources, type DeleteOptions, type JsonPatchOperation, type ListOptions, type ListResult, type Resource, type WatchHandle, type WatchHandlers, type WriteOptions } from '../../api/client.js';
import { ApiError, ConflictError } from '../../api/errors.js';
import type { Features } from '../../api/features.js';
import { parseSelectorString } from '../../api/labels.js';
import { toTimestamp, type KubeObject, type OwnerReference, type Pod, type StorageClass } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import type { WorkCounters } from '../../runtime/work-counters.js';
import { admitCreate, admitUpdate, hasStatusSubresource, invalid, type WriteMode } from './admission.js';
import { CommitLog, type WriteContext } from './commit-log.js';
import { isPodResource, isReadyForRemoval, planDeletion } from './deletion.js';
import { sameStoredObject } from './equality.js';
import type { FaultInjector } from './faults.js';
import { GarbageCollector, GC_ACTOR } from './garbage-collector.js';
import { applyJsonPatch, JsonPatchError } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { FieldOwners } from './field-owners.js';
import { bindPod } from './pod-admission.js';
import { resizeRequest } from './pod-resize.js';
import { alreadyExists, badRequest, noSubresource, notFound, quotaExceeded, staleConflict, uidConflict } from './messages.js';
import { createNameSource, type NameSource } from './name-source.js';
import { ObjectStore } from './object-store.js';
import type { WriteVerb } from './memory-types.js';
import { WatchHub } from './watch-hub.js';
import type { WatchStream } from './memory-watch.js';

export interface ServerConfig {
  timers: Timers;
  features: Features;
  random: () => number;
  watchHistory: number;
  gcDelayMs: number;
  /** Most objects of one resource the server stores; creates beyond it are refused like a ResourceQuota's. */
  maxObjects: number;
  counters?: WorkCounters;
}

const GENERATE_ATTEMPTS = 8;

/** The name the object-count quota's 403 gives (as a ResourceQuota object's name would appear). */
export const OBJECT_QUOTA_NAME = 'max-objects';

/**
 * A patch that sets another uid is refused by validation (an update's uid is a precondition instead: 409),
 * which is how a patch naming the uid it means stays off an object recreated under the same name.
 */
// upstream: staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMetaUpdate
function keepsUid(res: Resource, patched: KubeObject, prev: KubeObject): KubeObject {
  const uid = patched.metadata.uid;
  if (uid && uid !== prev.metadata.uid) throw invalid(res, patched.metadata.name ?? '', [{ path: 'metadata.uid', type: 'Invalid', value: uid, detail: 'field is immutable' }]);
  return patched;
}

export class ApiServer {
  readonly store = new ObjectStore();
  readonly commits: CommitLog;
  private readonly hub: WatchHub;
  private readonly names: NameSource;
  private readonly gc: GarbageCollector;
  private readonly owners = new FieldOwners();

  readonly counters: WorkCounters | undefined;

  constructor(private readonly config: ServerConfig) {
    this.counters = config.counters;
    this.hub = new WatchHub(config.watchHistory);
    this.commits = new CommitLog(config.timers, this.store, this.hub, config.counters);
    this.names = createNameSource(config.random);
    this.gc = new GarbageCollector(config.timers, config.gcDelayMs, this.store, config.counters, {
      deleteObject: (res, obj) =>
        ignoreApiErrors(() => this.delete(GC_ACTOR, res, obj.metadata.namespace, obj.metadata.name ?? '', { uid: obj.metadata.uid })),
      setOwners: (res, obj, owners) => ignoreApiErrors(() => this.setOwners(res, obj, owners)),
    });
    this.commits.afterCommit = (change, object, res) => {
      if (change === 'DELETED') this.owners.forget(object.metadata.uid ?? '');
      this.gc.observe(res, change, object);
    };
  }

  get(res: Resource, namespace: string | undefined, name: string): KubeObject {
    this.config.counters?.count('api.copies');
    return cloneJson(this.mustGet(res, namespace, name));
  }

  list(res: Resource, namespace: string | undefined, opts: ListOptions = {}): ListResult<KubeObject> {
    let matches: (labels: Record<string, string>) => boolean = () => true;
    try {
      if (opts.labelSelector) matches = parseSelectorString(opts.labelSelector);
    } catch (e) {
      throw badRequest(`unable to parse requirement: ${e instanceof Error ? e.message : String(e)}`);
    }
    const items = this.store
      .list(res, res.namespaced ? namespace : undefined)
      .filter((o) => matches(o.metadata.labels ?? {}))
      .map((o) => cloneJson(o));
    this.config.counters?.count('api.copies', items.length);
    return { items, resourceVersion: String(this.store.currentRevision()) };
  }

  /** `dryRun`: admitted and answered as if stored, but nothing is written or delivered. */
  create(actor: string, res: Resource, obj: KubeObject, dryRun = false): KubeObject {
    if (isBindingResource(res)) return this.bind(actor, res, obj);
    this.counters?.count('api.copies');
    const draft = cloneJson(obj);
    draft.metadata = { ...draft.metadata };
    const meta = draft.metadata;
    if (res.namespaced) meta.namespace = meta.namespace || 'default';
    else delete meta.namespace;
    // quota admission sees the name as requested: empty for generateName, as upstream's message shows
    const requestedName = meta.name ?? '';
    if (!meta.name && meta.generateName) meta.name = this.freeName(res, meta.namespace, meta.generateName);
    if (!meta.name) {
      throw invalid(res, '', [{ path: 'metadata.name', type: 'Required', detail: 'name or generateName is required' }]);
    }
    if (this.store.get(res, meta.namespace, meta.name)) throw alreadyExists(res, meta.name);
    for (const k of ['resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) delete meta[k];
    meta.uid = this.freeUid();
    meta.creationTimestamp = toTimestamp(this.config.timers.now());
    const admitted = admitCreate(res, draft, this.config.features, () => this.store.list(Resources.storageClasses) as StorageClass[]);
    const used = this.store.count(res);
    if (used >= this.config.maxObjects) throw quotaExceeded(res, requestedName, OBJECT_QUOTA_NAME, used, this.config.maxObjects);
    if (dryRun) return cloneJson(admitted);
    return this.commits.put({ actor, verb: 'create', res }, admitted, false);
  }

  /** PUT of the main resource (`main`) or of /status, with resourceVersion and UID preconditions. */
  /** `dryRun`: admitted and answered as if stored, but nothing is written or delivered. */
  replace(actor: string, verb: WriteVerb, res: Resource, obj: KubeObject, mode: WriteMode, dryRun = false): KubeObject {
    if (mode === 'status' && !hasStatusSubresource(res)) throw noSubresource(res, 'status');
    if (mode === 'resize' && !isPodResource(res)) throw noSubresource(res, 'resize');
    const name = obj.metadata?.name ?? '';
    const namespace = res.namespaced ? obj.metadata.namespace || 'default' : undefined;
    const prev = this.mustGet(res, namespace, name);
    const { resourceVersion, uid } = obj.metadata;
    if (resourceVersion && resourceVersion !== prev.metadata.resourceVersion) throw staleConflict(res, name);
    if (uid && uid !== prev.metadata.uid) throw uidConflict(res, name, uid, prev.metadata.uid);
    this.counters?.count('api.copies');
    const next = mode === 'status' ? { ...cloneJson(prev), status: cloneJson(obj['status']) } : mode === 'resize' ? resizeRequest(obj, prev as Pod) : this.carryOver(res, obj, prev);
    const admitted = admitUpdate(res, next, prev, mode, this.config.features, (r, ns, n) => this.store.get(r, ns, n));
    if (dryRun) return cloneJson(sameStoredObject(admitted, prev) ? prev : admitted);
    const ctx: WriteContext = { actor, verb, res };
    if (isReadyForRemoval(admitted)) return this.commits.remove(ctx, admitted);
    if (sameStoredObject(admitted, prev)) return this.commits.unchanged(ctx, prev);
    if (verb !== 'apply') this.owners.written(prev, admitted, actor);
    return this.commits.put(ctx, admitted, true);
  }

  /** Server-side apply by `manager`, forced (field-owners.ts); creates the object when it does not exist. */
  apply(actor: string, res: Resource, obj: KubeObject, manager: string): KubeObject {
    const name = obj.metadata?.name ?? '';
    const prev = this.store.get(res, res.namespaced ? obj.metadata?.namespace || 'default' : undefined, name);
    const { next, commit } = this.owners.apply(prev, obj, manager);
    // `next` carries prev's resourceVersion unless the apply names one, which is then a precondition
    const out = prev === undefined ? this.create(actor, res, next) : this.replace(actor, 'apply', res, next, 'main');
    commit(out.metadata.uid ?? '');
    return out;
  }

  patch(actor: string, res: Resource, namespace: string | undefined, name: string, merge: unknown, opts: WriteOptions = {}): KubeObject {
    if (typeof merge !== 'object' || merge === null || Array.isArray(merge)) throw badRequest('merge patch must be a JSON object');
    const prev = this.mustGet(res, namespace, name);
    const patched = applyMergePatch(prev, merge) as KubeObject;
    patched.metadata = { ...(patched.metadata ?? {}), name, namespace: prev.metadata.namespace };
    return this.replace(actor, 'patch', res, keepsUid(res, patched, prev), opts.subresource ?? 'main', opts.dryRun === true);
  }

  /** RFC 6902; an operation that cannot be applied is kube-apiserver's 422, whose message names no detail. */
  jsonPatch(actor: string, res: Resource, namespace: string | undefined, name: string, ops: readonly JsonPatchOperation[], opts: WriteOptions = {}): KubeObject {
    if (!Array.isArray(ops)) throw badRequest('error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    const prev = this.mustGet(res, namespace, name);
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(prev, ops) as KubeObject;
    } catch (e) {
      if (!(e instanceof JsonPatchError)) throw e;
      throw new ApiError('the server rejected our request due to an error in our request', 422, 'Invalid');
    }
    patched.metadata = { ...(patched.metadata ?? {}), name, namespace: prev.metadata.namespace };
    return this.replace(actor, 'patch', res, keepsUid(res, patched, prev), opts.subresource ?? 'main', opts.dryRun === true);
  }

  delete(actor: string, res: Resource, namespace: string | undefined, name: string, opts: DeleteOptions = {}): void {
    const prev = this.mustGet(res, namespace, name);
    if (opts.uid && opts.uid !== prev.metadata.uid) throw uidConflict(res, name, opts.uid, prev.metadata.uid);
    if (opts.propagationPolicy === 'Orphan' && prev.metadata.uid) this.orphanDependents(prev.metadata.uid);
    const ctx: WriteContext = { actor, verb: 'delete', res };
    const outcome = planDeletion(res, prev, opts, this.config.timers.now());
    if (outcome.kind === 'remove') this.commits.remove(ctx, prev);
    else if (outcome.kind === 'mark') this.commits.put(ctx, outcome.object, true);
    else this.commits.unchanged(ctx, prev);
  }

  watch(
    identity: string,
    res: Resource,
    namespace: string | undefined,
    resourceVersion: string,
    handlers: WatchHandlers<KubeObject>,
    faults: FaultInjector,
  ): WatchHandle {
    const ns = res.namespaced ? namespace : undefined;
    const stream = this.hub.open(
      { res, resourceVersion, current: () => this.store.list(res, ns), forceGone: faults.goneOnResume(resourceVersion) },
      { identity, timers: this.config.timers, random: this.config.random, namespace: ns, handlers, faults: faults.streamFaults(), ...(this.config.counters ? { counters: this.config.counters } : {}) },
    );
    return { stop: () => stream.stop() };
  }

  compact(): void {
    this.hub.compact(this.store.currentRevision());
  }

  closeWatches(match: (s: WatchStream) => boolean, error?: ApiError | Error): void {
    this.hub.closeStreams(match, error);
  }

  mustGet(res: Resource, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.get(res, res.namespaced ? namespace || 'default' : undefined, name);
    if (obj === undefined) throw notFound(res, name);
    return obj;
  }

  /** The request's object with the server-owned fields of `prev` (and prev's status when /status exists). */
  private carryOver(res: Resource, obj: KubeObject, prev: KubeObject): KubeObject {
    const next = cloneJson(obj);
    const keep = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'];
    next.metadata = { ...next.metadata };
    for (const k of keep) {
      if (prev.metadata[k] === undefined) delete next.metadata[k];
      else next.metadata[k] = prev.metadata[k];
    }
    if (hasStatusSubresource(res)) {
      if (prev['status'] === undefined) delete next['status'];
      else next['status'] = cloneJson(prev['status']);
    }
    if (prev.metadata.deletionTimestamp !== undefined) this.checkFinalizers(res, next, prev);
    return next;
  }

  /** No finalizer may be added to an object that is being deleted. */
  private checkFinalizers(res: Resource, next: KubeObject, prev: KubeObject): void {
    const before = new Set(prev.metadata.finalizers ?? []);
    const added = (next.metadata.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length === 0) return;
    throw invalid(res, prev.metadata.name ?? '', [
      { path: 'metadata.finalizers', type: 'Forbidden', detail: 'no new finalizers can be added if the object is being deleted', value: added },
    ]);
  }

  // upstream: pkg/registry/core/pod/storage/storage.go assignPod
  /** POST .../bindings: schedules an unbound pod onto `target.name` (the only way to set spec.nodeName). */
  private bind(actor: string, res: Resource, binding: KubeObject): KubeObject {
    const namespace = binding.metadata?.namespace || 'default';
    const name = binding.metadata?.name ?? '';
    const node = (binding['target'] as { name?: string } | undefined)?.name;
    if (!node) throw invalid(res, name, [{ path: 'target.name', type: 'Required', detail: 'target node name is required' }]);
    const pod = this.mustGet(Resources.pods, namespace, name) as Pod;
    if (binding.metadata.uid && binding.metadata.uid !== pod.metadata.uid) throw uidConflict(res, name, binding.metadata.uid, pod.metadata.uid);
    const refuse = (why: string) => new ConflictError(`Operation cannot be fulfilled on pods/binding "${name}": ${why}`);
    if (pod.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec.nodeName) throw refuse(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    this.commits.put({ actor, verb: 'update', res: Resources.pods }, bindPod(pod, node, this.config.timers.now()), true);
    return { ...cloneJson(binding), metadata: { ...binding.metadata, namespace } };
  }

  /**
   * Stores objects as they are (uid, timestamps, status and all), without admission, each with a new
   * resourceVersion: a cluster that starts where another one, or an observed one, was.
   */
  restore(actor: string, objects: ReadonlyArray<{ res: Resource; object: KubeObject }>): void {
    for (const { res, object } of objects) {
      const name = object.metadata?.name ?? '';
      const namespace = res.namespaced ? object.metadata.namespace || 'default' : undefined;
      if (this.store.get(res, namespace, name)) throw alreadyExists(res, name);
      const stored = cloneJson(object);
      stored.metadata = { ...stored.metadata, ...(namespace !== undefined ? { namespace } : {}) };
      this.commits.put({ actor, verb: 'create', res }, stored, false);
    }
  }

  /** The next UID no stored object has (restored objects keep theirs). */
  private freeUid(): string {
    for (;;) {
      const uid = this.names.nextUid();
      if (!this.store.hasUid(uid)) return uid;
    }
  }

  private freeName(res: Resource, namespace: string | undefined, prefix: string): string {
    for (let i = 0; i < GENERATE_ATTEMPTS; i++) {
      const name = this.names.generateName(prefix);
      if (!this.store.get(res, namespace, name)) return name;
    }
    throw alreadyExists(res, prefix);
  }

  private orphanDependents(ownerUid: string): void {
    for (const res of this.store.knownResources()) {
      for (const obj of this.store.list(res)) {
        const owners = obj.metadata.ownerReferences ?? [];
        if (owners.some((r) => r.uid === ownerUid)) this.setOwners(res, obj, owners.filter((r) => r.uid !== ownerUid));
      }
    }
  }

  private setOwners(res: Resource, obj: KubeObject, owners: OwnerReference[]): void {
    const next = cloneJson(obj);
    if (owners.length > 0) next.metadata.ownerReferences = owners;
    else delete next.metadata.ownerReferences;
    this.replace(GC_ACTOR, 'patch', res, next, 'main');
  }
}

const isBindingResource = (res: Resource): boolean => res.group === '' && res.plural === 'bindings';

/** The garbage collector retries on its next pass; a request it lost a race on is not an error. */
function ignoreApiErrors(f: () => void): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
}
