// A small ClusterClient fake for runtime unit tests: one global resourceVersion counter, watches replayed
// from an event log (delivered on microtasks, like a real stream), scripted failures and a call log.
// The full in-memory API server lives in src/cluster/memory; this stays tiny on purpose.

import {
  Resources,
  type ClusterClient,
  type DeleteOptions,
  type EvictionOptions,
  type JsonPatchOperation,
  type ListOptions,
  type ListResult,
  type Resource,
  type WatchEvent,
  type WatchHandlers,
  type WatchHandle,
} from '../../src/api/client.js';
import { AlreadyExistsError, ConflictError, GoneError, NotFoundError } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { applyJsonPatch } from '../../src/cluster/memory/json-patch.js';

export type Verb = 'get' | 'list' | 'create' | 'update' | 'updateStatus' | 'patch' | 'apply' | 'delete' | 'evict' | 'watch';

export interface Call {
  verb: Verb;
  resource: string;
  namespace: string | undefined;
  name: string;
  body?: unknown;
}

interface Watcher {
  res: Resource;
  namespace: string | undefined;
  handlers: WatchHandlers<KubeObject>;
  stopped: boolean;
}

const clone = <T>(o: T): T => structuredClone(o);

function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export class FakeCluster implements ClusterClient {
  readonly calls: Call[] = [];
  readonly failures: { verb: Verb; resource?: string; error: Error }[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly log: { res: string; event: WatchEvent<KubeObject> }[] = [];
  private readonly watchers: Watcher[] = [];
  private rv = 0;
  private uid = 0;
  /** Watches from a resourceVersion older than this get 410 Gone. */
  compactedBefore = 0;
  /** While true, watch events are held back (a slow watch); releaseEvents() delivers them in order. */
  holdEvents = false;
  private readonly held: (() => void)[] = [];

  releaseEvents(): void {
    this.holdEvents = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  /** The next call of `verb` (optionally on `resource` plural) throws `error` instead of happening. */
  failNext(verb: Verb, error: Error, resource?: string): void {
    this.failures.push({ verb, error, ...(resource ? { resource } : {}) });
  }

  /** Ends every open watch, with `error` (e.g. GoneError) or cleanly. */
  closeWatches(error?: Error): void {
    for (const w of this.watchers.splice(0)) {
      if (w.stopped) continue;
      w.stopped = true;
      queueMicrotask(() => w.handlers.onClose(error));
    }
  }

  openWatches(): number {
    return this.watchers.filter((w) => !w.stopped).length;
  }

  writes(): Call[] {
    return this.calls.filter((c) => c.verb !== 'get' && c.verb !== 'list' && c.verb !== 'watch');
  }

  /** Puts an object in the store directly (with a fresh resourceVersion and event), bypassing failures. */
  seed<T extends KubeObject>(res: Resource, obj: T): T {
    return this.store(res, 'ADDED', { ...clone(obj), metadata: { uid: `uid-${++this.uid}`, ...clone(obj.metadata) } });
  }

  peek<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string): T | undefined {
    const o = this.objects.get(this.key(res, namespace, name));
    return o === undefined ? undefined : (clone(o) as T);
  }

  async get<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string): Promise<T> {
    this.enter('get', res, namespace, name);
    const o = this.objects.get(this.key(res, namespace, name));
    if (o === undefined) throw new NotFoundError(`${res.plural} "${name}" not found`);
    return clone(o) as T;
  }

  async list<T extends KubeObject>(res: Resource, namespace: string | undefined, _opts?: ListOptions): Promise<ListResult<T>> {
    this.enter('list', res, namespace, '');
    const prefix = `${res.group}/${res.plural}/`;
    const items = [...this.objects.entries()]
      .filter(([k, o]) => k.startsWith(prefix) && (namespace === undefined || o.metadata.namespace === namespace))
      .map(([, o]) => clone(o) as T);
    return { items, resourceVersion: String(this.rv) };
  }

  async create<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    this.enter('create', res, obj.metadata.namespace, obj.metadata.name ?? '', obj);
    if (this.objects.has(this.key(res, obj.metadata.namespace, obj.metadata.name ?? ''))) {
      throw new AlreadyExistsError(`${res.plural} "${obj.metadata.name}" already exists`);
    }
    return this.store(res, 'ADDED', { ...clone(obj), metadata: { ...clone(obj.metadata), uid: `uid-${++this.uid}` } });
  }

  async update<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    this.enter('update', res, obj.metadata.namespace, obj.metadata.name ?? '', obj);
    this.precondition(res, obj);
    return this.store(res, 'MODIFIED', clone(obj));
  }

  async updateStatus<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    this.enter('updateStatus', res, obj.metadata.namespace, obj.metadata.name ?? '', obj);
    const cur = this.precondition(res, obj);
    return this.store(res, 'MODIFIED', { ...cur, status: clone(obj['status']) } as unknown as T);
  }

  async patch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, merge: unknown): Promise<T> {
    this.enter('patch', res, namespace, name, merge);
    const cur = this.objects.get(this.key(res, namespace, name));
    if (cur === undefined) throw new NotFoundError(`${res.plural} "${name}" not found`);
    return this.store(res, 'MODIFIED', mergePatch(clone(cur), merge) as T);
  }

  async jsonPatch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, ops: readonly JsonPatchOperation[]): Promise<T> {
    this.enter('patch', res, namespace, name, ops);
    const cur = this.objects.get(this.key(res, namespace, name));
    if (cur === undefined) throw new NotFoundError(`${res.plural} "${name}" not found`);
    return this.store(res, 'MODIFIED', applyJsonPatch(clone(cur), ops) as T);
  }

  /** Merges `obj` into the stored object (no field ownership: the memory server models that). */
  async apply<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    this.enter('apply', res, obj.metadata.namespace, obj.metadata.name ?? '', obj);
    const cur = this.objects.get(this.key(res, obj.metadata.namespace, obj.metadata.name ?? ''));
    if (cur === undefined) return this.store(res, 'ADDED', { ...clone(obj), metadata: { ...clone(obj.metadata), uid: `uid-${++this.uid}` } });
    return this.store(res, 'MODIFIED', mergePatch(clone(cur), obj) as T);
  }

  async delete(res: Resource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<void> {
    this.enter('delete', res, namespace, name, opts);
    this.remove(res, namespace, name, opts?.uid);
  }

  private remove(res: Resource, namespace: string | undefined, name: string, uid: string | undefined): void {
    const k = this.key(res, namespace, name);
    const cur = this.objects.get(k);
    if (cur === undefined) throw new NotFoundError(`${res.plural} "${name}" not found`);
    if (uid !== undefined && uid !== cur.metadata.uid) throw new ConflictError(`uid precondition failed for ${name}`);
    this.objects.delete(k);
    const gone = { ...clone(cur), metadata: { ...clone(cur.metadata), resourceVersion: String(++this.rv) } };
    this.emit(res, { type: 'DELETED', object: gone });
  }

  /** Deletes the pod as an eviction the budgets allow; a refusal is scripted with failNext('evict', …). */
  async evictPod(namespace: string, name: string, opts?: EvictionOptions): Promise<void> {
    this.enter('evict', Resources.pods, namespace, name, opts);
    this.remove(Resources.pods, namespace, name, opts?.uid);
  }

  watch<T extends KubeObject>(res: Resource, namespace: string | undefined, resourceVersion: string, handlers: WatchHandlers<T>): WatchHandle {
    this.enter('watch', res, namespace, '');
    const w: Watcher = { res, namespace, handlers: handlers as WatchHandlers<KubeObject>, stopped: false };
    const from = Number(resourceVersion || '0');
    if (from < this.compactedBefore) {
      queueMicrotask(() => handlers.onClose(new GoneError(`too old resource version: ${from}`)));
      return { stop: () => {} };
    }
    const backlog = this.log.filter((l) => l.res === this.resKey(res) && Number(l.event.object.metadata.resourceVersion) > from);
    this.watchers.push(w);
    for (const l of backlog) this.deliver(w, l.event);
    return { stop: () => void (w.stopped = true) };
  }

  private key(res: Resource, namespace: string | undefined, name: string): string {
    return `${this.resKey(res)}/${namespace ?? ''}/${name}`;
  }

  private resKey(res: Resource): string {
    return `${res.group}/${res.plural}`;
  }

  private enter(verb: Verb, res: Resource, namespace: string | undefined, name: string, body?: unknown): void {
    this.calls.push({ verb, resource: res.plural, namespace, name, ...(body === undefined ? {} : { body: clone(body) }) });
    const i = this.failures.findIndex((f) => f.verb === verb && (f.resource === undefined || f.resource === res.plural));
    if (i >= 0) throw this.failures.splice(i, 1)[0]!.error;
  }

  private precondition(res: Resource, obj: KubeObject): KubeObject {
    const cur = this.objects.get(this.key(res, obj.metadata.namespace, obj.metadata.name ?? ''));
    if (cur === undefined) throw new NotFoundError(`${res.plural} "${obj.metadata.name}" not found`);
    const want = obj.metadata.resourceVersion;
    if (want && want !== cur.metadata.resourceVersion) throw new ConflictError(`the object has been modified: ${obj.metadata.name}`);
    return clone(cur);
  }

  private store<T extends KubeObject>(res: Resource, type: 'ADDED' | 'MODIFIED', obj: T): T {
    obj.metadata.resourceVersion = String(++this.rv);
    this.objects.set(this.key(res, obj.metadata.namespace, obj.metadata.name ?? ''), obj);
    this.emit(res, { type, object: clone(obj) });
    return clone(obj);
  }

  private emit(res: Resource, event: WatchEvent<KubeObject>): void {
    this.log.push({ res: this.resKey(res), event });
    for (const w of this.watchers) {
      if (this.resKey(w.res) === this.resKey(res)) this.deliver(w, event);
    }
  }

  private deliver(w: Watcher, event: WatchEvent<KubeObject>): void {
    if (w.namespace !== undefined && event.object.metadata.namespace !== w.namespace) return;
    const deliver = () => queueMicrotask(() => {
      if (!w.stopped) w.handlers.onEvent(clone(event));
    });
    if (this.holdEvents) this.held.push(deliver);
    else deliver();
  }
}
