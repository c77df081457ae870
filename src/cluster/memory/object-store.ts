// The storage half of the in-memory API server: objects per resource, a UID index for the garbage
// collector, and one cluster-wide resourceVersion counter (like etcd's revision). Stored objects are
// never mutated in place; writers replace them, so watch logs may share them safely.

import type { Resource } from '../../api/client.js';
import type { KubeObject } from '../../api/types.js';
import { qualifiedResource } from './messages.js';

export interface StoredRef {
  res: Resource;
  namespace: string | undefined;
  name: string;
}

const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;
const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class ObjectStore {
  private revision = 0;
  private readonly resources = new Map<string, Resource>();
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly uids = new Map<string, StoredRef>();

  /** Allocates the next resourceVersion: every write gets a new, larger one. */
  nextRevision(): number {
    return ++this.revision;
  }

  currentRevision(): number {
    return this.revision;
  }

  get(res: Resource, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(qualifiedResource(res))?.get(objectKey(namespace, name));
  }

  put(res: Resource, obj: KubeObject): void {
    const key = qualifiedResource(res);
    this.resources.set(key, res);
    let bucket = this.objects.get(key);
    if (bucket === undefined) {
      bucket = new Map();
      this.objects.set(key, bucket);
    }
    const { namespace, name = '', uid } = obj.metadata;
    bucket.set(objectKey(namespace, name), obj);
    if (uid) this.uids.set(uid, { res, namespace, name });
  }

  remove(res: Resource, namespace: string | undefined, name: string): void {
    const bucket = this.objects.get(qualifiedResource(res));
    const key = objectKey(namespace, name);
    const uid = bucket?.get(key)?.metadata.uid;
    bucket?.delete(key);
    if (uid) this.uids.delete(uid);
  }

  /** How many objects of one resource are stored (all namespaces). */
  count(res: Resource): number {
    return this.objects.get(qualifiedResource(res))?.size ?? 0;
  }

  hasUid(uid: string): boolean {
    return this.uids.has(uid);
  }

  /** Objects of one resource (one namespace, or all), sorted by namespace/name. */
  list(res: Resource, namespace?: string): KubeObject[] {
    const bucket = this.objects.get(qualifiedResource(res));
    if (bucket === undefined) return [];
    const keys = [...bucket.keys()].sort(compareKeys);
    const all = keys.map((k) => bucket.get(k)!);
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
  }

  /** Every resource that has ever held an object, sorted by qualified name. */
  knownResources(): Resource[] {
    return [...this.resources.keys()].sort(compareKeys).map((k) => this.resources.get(k)!);
  }
}
