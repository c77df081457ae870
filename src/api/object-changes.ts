// What changed between two versions of an object, in words: leaf paths with old and new values, lists of
// named things (containers, env, volumes, ports, claim templates) keyed by name so that a reordering is not a
// change. `rollout history` says what a revision changed (its pod template, and its claim templates when it
// records them); the simulator's text timeline says what an `apply` step changes in a set's spec.

import { RESTARTED_AT_ANNOTATION } from './types.js';

export interface Change {
  /** e.g. `spec.containers[app].image`, `metadata.annotations[kubectl.kubernetes.io/restartedAt]`. */
  path: string;
  /** JSON text of the old value; undefined when added. */
  from?: string;
  /** JSON text of the new value; undefined when removed. */
  to?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A list item's name: `name`, or `metadata.name` (claim templates). */
const itemName = (x: unknown): string | undefined =>
  !isObject(x) ? undefined : typeof x.name === 'string' ? x.name : isObject(x.metadata) && typeof x.metadata.name === 'string' ? x.metadata.name : undefined;
const isNamed = (v: unknown[]): boolean => v.length > 0 && v.every((x) => itemName(x) !== undefined);

/** Leaf path → JSON value; map keys with dots or slashes are bracketed so paths stay readable. */
function flatten(v: unknown, path: string, out: Map<string, string>): void {
  if (Array.isArray(v) && v.length > 0) {
    const named = isNamed(v);
    v.forEach((x, i) => flatten(x, `${path}[${named ? (itemName(x) ?? '') : i}]`, out));
  } else if (isObject(v) && Object.keys(v).length > 0) {
    for (const [k, x] of Object.entries(v)) flatten(x, /^[A-Za-z0-9_-]+$/.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${k}]`, out);
  } else {
    out.set(path, JSON.stringify(v ?? null));
  }
}

/** Changes from `prev` to `next`, sorted by path. */
export function objectChanges(prev: unknown, next: unknown): Change[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(prev ?? {}, '', a);
  flatten(next ?? {}, '', b);
  const out: Change[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const from = a.get(path);
    const to = b.get(path);
    if (from === to) continue;
    const change: Change = { path };
    if (from !== undefined) change.from = from;
    if (to !== undefined) change.to = to;
    out.push(change);
  }
  return out;
}

const short = (json: string | undefined): string => {
  const s = json === undefined ? '' : json.startsWith('"') ? (JSON.parse(json) as string) : json;
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

/**
 * What a revision changed: its pod template, and its claim templates (a revision of an InPlace set records
 * them). `prev` and `next` are the set's spec as each revision restores it.
 */
export function revisionChanges(prev: { template?: unknown; volumeClaimTemplates?: unknown }, next: { template?: unknown; volumeClaimTemplates?: unknown }): Change[] {
  const claims = objectChanges({ volumeClaimTemplates: prev.volumeClaimTemplates ?? [] }, { volumeClaimTemplates: next.volumeClaimTemplates ?? [] });
  return [...objectChanges(prev.template, next.template), ...claims];
}

/**
 * One change in words: `image app: nginx:1.27 -> nginx:1.28`, `restarted (2026-01-01T00:00:00Z)`, `claim data
 * storage: 1Gi -> 2Gi`. Paths may be a pod template's or a set spec's (`template.spec.…`).
 */
export function describeChange(c: Change): string {
  const image = /^(?:template\.)?spec\.(?:initContainers|containers)\[([^\]]+)\]\.image$/.exec(c.path);
  if (image) return `image ${image[1]}: ${short(c.from) || '(none)'} -> ${short(c.to) || '(none)'}`;
  if (/^(?:template\.)?metadata\.annotations\[(.*)\]$/.exec(c.path)?.[1] === RESTARTED_AT_ANNOTATION && c.to !== undefined) return `restarted (${short(c.to)})`;
  const storage = /^volumeClaimTemplates\[([^\]]+)\]\.spec\.resources\.requests\.storage$/.exec(c.path);
  if (storage) return `claim ${storage[1]} storage: ${short(c.from) || '(none)'} -> ${short(c.to) || '(none)'}`;
  if (c.from === undefined) return `+${c.path}: ${short(c.to)}`;
  if (c.to === undefined) return `-${c.path}`;
  return `${c.path}: ${short(c.from)} -> ${short(c.to)}`;
}

/** At most `max` changes in words, then "and N more"; `none` when there is none. */
export function summarizeChanges(changes: readonly Change[], max = 2, none = '(no template change)'): string {
  if (changes.length === 0) return none;
  const shown = changes.slice(0, max).map(describeChange).join('; ');
  return changes.length > max ? `${shown}; and ${changes.length - max} more` : shown;
}
