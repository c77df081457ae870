// The port every adapter implements: `cluster/memory` (in-memory API server) and `cluster/kube`
// (a real API server). It lives in api/ because the executor, runtime and kubelet all speak it and
// none of them may import an adapter. Methods throw the errors of ./errors.ts.

import type { KubeObject } from './types.js';

/** A resource the client can address, like a GroupVersionResource plus what the paths need. */
export interface Resource {
  group: string; // '' for the core group
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

const r = (group: string, version: string, plural: string, kind: string, namespaced = true): Resource => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});

export const Resources = {
  pods: r('', 'v1', 'pods', 'Pod'),
  persistentVolumeClaims: r('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'),
  persistentVolumes: r('', 'v1', 'persistentvolumes', 'PersistentVolume', false),
  storageClasses: r('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false),
  events: r('', 'v1', 'events', 'Event'),
  services: r('', 'v1', 'services', 'Service'),
  nodes: r('', 'v1', 'nodes', 'Node', false),
  namespaces: r('', 'v1', 'namespaces', 'Namespace', false),
  controllerRevisions: r('apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  statefulSets: r('apps', 'v1', 'statefulsets', 'StatefulSet'),
  ordinalStatefulSets: r('apps.ordinal.dev', 'v1', 'statefulsets', 'StatefulSet'),
  leases: r('coordination.k8s.io', 'v1', 'leases', 'Lease'),
  podDisruptionBudgets: r('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
} as const;

export function apiVersionOf(res: Resource): string {
  return res.group ? `${res.group}/${res.version}` : res.version;
}

export interface ListOptions {
  /** Label selector in the API's string form, e.g. `app=web,tier in (a,b)`. */
  labelSelector?: string;
}

export interface ListResult<T> {
  items: T[];
  resourceVersion: string;
}

/** Options of update and patch. */
export interface WriteOptions {
  /** Admit (default, validate) the write and answer with the result, but store nothing (`?dryRun=All`). */
  dryRun?: boolean;
  /**
   * Write through a pod's `resize` subresource (KEP-1287): only containers' cpu/memory resources and
   * resizePolicy change; the rest of the request is ignored.
   */
  subresource?: 'resize';
}

/** Options of a server-side apply. */
export interface ApplyOptions {
  /** The field manager that owns what the apply sets (`?fieldManager=`). */
  fieldManager: string;
}

export interface DeleteOptions {
  /** Precondition: delete only the object with this UID (409 Conflict otherwise). */
  uid?: string;
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/** The deleteOptions of a policy/v1 Eviction. */
export interface EvictionOptions {
  /** Precondition: evict only the pod with this UID (409 Conflict otherwise). */
  uid?: string;
  /** Precondition: evict only this version of the pod (409 Conflict otherwise; the server then retries no conflict). */
  resourceVersion?: string;
  gracePeriodSeconds?: number;
  /** Run every check (and the budget's decrement) but delete and write nothing (`dryRun: [All]`). */
  dryRun?: boolean;
}

/** One operation of a JSON patch (RFC 6902); `path` and `from` are JSON pointers (RFC 6901). */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent<T> {
  type: WatchEventType;
  object: T;
}

export interface WatchHandlers<T> {
  onEvent(event: WatchEvent<T>): void;
  /** The stream ended: `error` is a GoneError when the resourceVersion is too old (relist), else transport. */
  onClose(error?: Error): void;
}

export interface WatchHandle {
  stop(): void;
}

export interface ClusterClient {
  get<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string): Promise<T>;
  list<T extends KubeObject>(res: Resource, namespace: string | undefined, opts?: ListOptions): Promise<ListResult<T>>;
  /** `dryRun`: admitted (defaulted, validated) and answered as if stored, but nothing is stored. */
  create<T extends KubeObject>(res: Resource, obj: T, opts?: Pick<WriteOptions, 'dryRun'>): Promise<T>;
  /** Replaces the object; a non-empty metadata.resourceVersion is a precondition (409 Conflict). */
  update<T extends KubeObject>(res: Resource, obj: T, opts?: WriteOptions): Promise<T>;
  /** Writes only `.status` through the status subresource. */
  updateStatus<T extends KubeObject>(res: Resource, obj: T): Promise<T>;
  /** JSON merge patch (RFC 7386). */
  patch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, merge: unknown, opts?: WriteOptions): Promise<T>;
  /**
   * JSON patch (RFC 6902): the operations in order, all or none; one that cannot be applied (a failed
   * `test`, a missing path) is a 422 Invalid. Lists can be changed by index, which a merge patch cannot.
   */
  jsonPatch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, ops: readonly JsonPatchOperation[], opts?: WriteOptions): Promise<T>;
  /**
   * Server-side apply of `obj` (apiVersion, kind, metadata.name and the fields to own), forced as a
   * controller's: it takes the fields it sets from other managers, and removes those it applied before and
   * leaves out now unless someone else also owns them. Creates the object when it does not exist.
   */
  apply<T extends KubeObject>(res: Resource, obj: T, opts: ApplyOptions): Promise<T>;
  delete(res: Resource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<void>;
  /**
   * POST pods/NAME/eviction: the pod is deleted only if the PodDisruptionBudget selecting it allows the
   * disruption, which the API server counts in the budget's status in the same step. A refusal is a
   * DisruptionBudgetRefusal (429); a pod two budgets select is a MultipleBudgetsError (500).
   */
  evictPod(namespace: string, name: string, opts?: EvictionOptions): Promise<void>;
  /** Watches from `resourceVersion` (exclusive); events arrive in resourceVersion order. */
  watch<T extends KubeObject>(
    res: Resource,
    namespace: string | undefined,
    resourceVersion: string,
    handlers: WatchHandlers<T>,
  ): WatchHandle;
}
