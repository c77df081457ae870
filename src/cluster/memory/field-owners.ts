// Server-side apply's field ownership, as far as the simulator needs it: per object, which fields each
// applying manager applied last, and which fields other writers own. An apply merges what it names (maps by
// key, everything else atomic), takes the fields it names from other owners when their value differs (it is
// always forced, as a controller's is), and removes the fields it applied before and leaves out now unless
// another owner also holds them. A write that is not an apply takes the fields whose value it changes.
// Fields set before an object's first apply belong to `before-first-apply`, as on kube-apiserver for an
// object without managedFields (on kube-apiserver they belong to their creator's Update entry: either way
// an apply never removes them). managedFields itself is not shown on objects.

import { cloneJson } from '../../api/validation/json.js';
import type { KubeObject } from '../../api/types.js';

type Json = unknown;
type JsonMap = Record<string, Json>;
/** A leaf field's path, JSON-encoded. */
type Path = string;

const isMap = (v: Json): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Identity and server-set fields: never owned, never removed by an apply. */
const IDENTITY = new Set(['["apiVersion"]', '["kind"]', '["status"]']);
const SERVER_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields']);

/** The object's leaf fields (a map's members are fields; a list or scalar is one field), identity left out. */
export function leafPaths(obj: Json, prefix: string[] = [], out = new Map<Path, Json>()): Map<Path, Json> {
  if (!isMap(obj) || (prefix.length > 0 && Object.keys(obj).length === 0)) {
    if (prefix.length > 0) out.set(JSON.stringify(prefix), obj);
    return out;
  }
  for (const [k, v] of Object.entries(obj)) {
    const path = [...prefix, k];
    const key = JSON.stringify(path);
    if (IDENTITY.has(key) || (prefix.length === 1 && prefix[0] === 'metadata' && SERVER_META.has(k))) continue;
    leafPaths(v, path, out);
  }
  return out;
}

/** `live` with `applied` merged in: maps by key, anything else replaced. */
function merge(live: Json, applied: Json): Json {
  if (!isMap(live) || !isMap(applied)) return cloneJson(applied);
  const out: JsonMap = { ...live };
  for (const [k, v] of Object.entries(applied)) out[k] = merge(live[k], v);
  return out;
}

function removePath(obj: JsonMap, path: string[]): void {
  let at: Json = obj;
  for (const k of path.slice(0, -1)) {
    if (!isMap(at)) return;
    at = at[k];
  }
  if (isMap(at)) delete at[path[path.length - 1] ?? ''];
}

const BEFORE_FIRST_APPLY = 'before-first-apply';
const applier = (manager: string): string => `${manager}/Apply`;
const updater = (manager: string): string => `${manager}/Update`;

export class FieldOwners {
  /** By object uid: owner (`manager/Apply` or `manager/Update`) → the fields it holds. */
  private readonly byUid = new Map<string, Map<string, Set<Path>>>();

  /**
   * The object after `manager` applies `applied` to `live` (undefined: the object is new), and `commit`,
   * which records the ownership once the write is stored.
   */
  apply(live: KubeObject | undefined, applied: KubeObject, manager: string): { next: KubeObject; commit: (uid: string) => void } {
    const appliedPaths = leafPaths(applied);
    const owners = new Map([...(live ? (this.byUid.get(live.metadata.uid ?? '') ?? this.firstApply(live)) : new Map<string, Set<Path>>())].map(([o, s]) => [o, new Set(s)]));
    const me = applier(manager);
    const before = owners.get(me) ?? new Set<Path>();
    const liveValues = live ? leafPaths(live) : new Map<Path, Json>();
    // forced: other owners lose the fields this apply sets to another value; an equal value is shared
    for (const [owner, fields] of owners) {
      if (owner === me) continue;
      for (const [p, v] of appliedPaths) if (fields.has(p) && JSON.stringify(liveValues.get(p)) !== JSON.stringify(v)) fields.delete(p);
    }
    const next = merge(live ?? {}, applied) as KubeObject;
    for (const p of before) {
      if (appliedPaths.has(p) || [...owners].some(([o, f]) => o !== me && f.has(p))) continue;
      removePath(next as JsonMap, JSON.parse(p) as string[]);
    }
    owners.set(me, new Set(appliedPaths.keys()));
    return { next, commit: (uid) => void this.byUid.set(uid, owners) };
  }

  /** A write by `manager` that is not an apply: it takes the fields whose value changed; removed fields have no owner. */
  written(prev: KubeObject, next: KubeObject, manager: string): void {
    const owners = this.byUid.get(prev.metadata.uid ?? '');
    if (owners === undefined) return; // never applied: nothing to keep track of
    const a = leafPaths(prev);
    const b = leafPaths(next);
    const changed = [...b].filter(([p, v]) => JSON.stringify(a.get(p)) !== JSON.stringify(v)).map(([p]) => p);
    const removed = [...a.keys()].filter((p) => !b.has(p));
    for (const fields of owners.values()) for (const p of [...changed, ...removed]) fields.delete(p);
    if (changed.length === 0) return;
    const mine = owners.get(updater(manager)) ?? new Set<Path>();
    for (const p of changed) mine.add(p);
    owners.set(updater(manager), mine);
  }

  forget(uid: string): void {
    this.byUid.delete(uid);
  }

  /** Before an object's first apply, every field it has belongs to `before-first-apply`. */
  private firstApply(live: KubeObject): Map<string, Set<Path>> {
    return new Map([[BEFORE_FIRST_APPLY, new Set(leafPaths(live).keys())]]);
  }
}
