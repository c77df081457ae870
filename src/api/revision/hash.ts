// ControllerRevisions as kube-controller-manager builds them (pkg/controller/history and the statefulset
// package's getPatch/newRevision/ApplyRevision): same data bytes, same hash, same name, so a set moved
// between the two controllers keeps its revisions and its pods.

import { controllerRefTo } from '../controller-ref.js';
import { APPS_V1, Labels, type ControllerRevision, type StatefulSet } from '../types.js';
import { fnv1_32, utf8Bytes } from './fnv.js';
import { goJsonEncode } from './go-json.js';

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_PREFIX = 223;

/**
 * Maps each code point to `ALPHANUMS[cp % 27]`. Go sizes the result in bytes and fills it per rune, so a
 * non-ASCII input ends in NUL padding; kept for fidelity (only decimal digits are ever passed).
 */
// upstream: k8s.io/apimachinery/pkg/util/rand rand.go SafeEncodeString
export function safeEncodeString(s: string): string {
  const runes = Array.from(s);
  const encoded = runes.map((r) => ALPHANUMS[(r.codePointAt(0) as number) % ALPHANUMS.length]).join('');
  return encoded + '\0'.repeat(utf8Bytes(s).length - runes.length);
}

/** FNV-1 of the raw data, then of collisionCount's decimal digits when given; safe-encoded. */
// upstream: pkg/controller/history controller_history.go HashControllerRevision
export function hashControllerRevision(raw: string, collisionCount?: number, memo = new RevisionMemo()): string {
  let sum = rawSum(raw, memo);
  if (collisionCount !== undefined) sum = fnv1_32(utf8Bytes(String(Math.trunc(collisionCount))), sum);
  return safeEncodeString(String(sum));
}

const BOUNDED_MAX = 4096;

/**
 * Memoisation of one owner (a controller instance, one planner call; never module state, so the planner
 * stays a pure function of its inputs). Every sync of every set hashes its template, encodes its revisions
 * and restores them onto the set; this makes that once per object. It is keyed by object identity (WeakMaps)
 * or by content (the raw-data sums), so a hit returns exactly what recomputing would — provided, as
 * everywhere in Ordinal, that stored and observed objects are never mutated.
 */
export class RevisionMemo {
  /** Raw data → its FNV sum. */
  readonly rawSums = new Map<string, number>();
  /** Template object → its revision data (raw Go JSON). */
  readonly templateRaw = new WeakMap<object, string>();
  /** Revision data object → its raw Go JSON (revision data parsed from a known raw is registered here). */
  readonly dataRaw = new WeakMap<object, string>();
  /** Raw revision data → its parsed object (deep-frozen: every candidate revision of one template shares it). */
  readonly parsedRaws = new Map<string, unknown>();
  /** Spec object → revision data object → the restored spec (deep-frozen: callers share it). */
  readonly appliedSpecs = new WeakMap<object, WeakMap<object, StatefulSet['spec']>>();
}

/** A bounded memo: cleared when full, so memory stays bounded. */
function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= BOUNDED_MAX) map.clear();
  map.set(key, value);
  return value;
}

function rawSum(raw: string, memo: RevisionMemo): number {
  return memo.rawSums.get(raw) ?? remember(memo.rawSums, raw, fnv1_32(utf8Bytes(raw)));
}

/** `<set name cut to 223 bytes>-<hash>`, so the name stays within 253 characters (names are ASCII). */
// upstream: pkg/controller/history controller_history.go ControllerRevisionName
export function revisionName(setName: string, hash: string): string {
  return `${setName.slice(0, MAX_PREFIX)}-${hash}`;
}

/**
 * The revision's data: `{"spec":{"template":{…,"$patch":"replace"}}}` in Go's encoding. `set` must already
 * be defaulted (defaulted pod fields are part of the hash). Throws if the set has no template object. A set
 * with `volumeClaimUpdatePolicy: InPlace` (an apps.ordinal.dev/v1 extension, after KEP-4650) also keeps its
 * claim templates in the revision, so a claim template change is a new revision; every other set keeps
 * upstream's data, and so upstream's revision names.
 */
// upstream: stateful_set_utils.go getPatch
export function revisionData(set: StatefulSet, memo = new RevisionMemo()): string {
  const template: unknown = set.spec?.template;
  if (template === null || typeof template !== 'object' || Array.isArray(template)) {
    throw new TypeError(`statefulset ${set.metadata?.name ?? ''}: spec.template is not an object`);
  }
  if (set.spec.volumeClaimUpdatePolicy === 'InPlace') {
    return goJsonEncode({ spec: { template: { ...template, $patch: 'replace' }, volumeClaimTemplates: set.spec.volumeClaimTemplates ?? [] } });
  }
  const known = memo.templateRaw.get(template);
  if (known !== undefined) return known;
  const raw = goJsonEncode({ spec: { template: { ...template, $patch: 'replace' } } });
  memo.templateRaw.set(template, raw);
  return raw;
}

/** The revision's data keeps the set's claim templates (written for a volumeClaimUpdatePolicy: InPlace set). */
export function carriesClaimTemplates(rev: ControllerRevision): boolean {
  const data: unknown = typeof rev.data === 'string' ? safeParse(rev.data) : rev.data;
  const spec = isObject(data) ? data.spec : undefined;
  return isObject(spec) && spec.volumeClaimTemplates !== undefined;
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** The raw JSON bytes of a revision's data: a string is taken as stored text, anything else is Go-encoded. */
export function revisionRaw(rev: ControllerRevision, memo = new RevisionMemo()): string {
  const data = rev.data;
  if (data === undefined) return '';
  if (typeof data !== 'object' || data === null) return typeof data === 'string' ? data : goJsonEncode(data);
  const known = memo.dataRaw.get(data);
  if (known !== undefined) return known;
  const raw = goJsonEncode(data);
  memo.dataRaw.set(data, raw);
  return raw;
}

/** JSON.parse(raw), once per raw text, remembering that the parsed object encodes back to `raw` (Go encoding is canonical). */
function parsedData(raw: string, memo: RevisionMemo): unknown {
  const known = memo.parsedRaws.get(raw);
  if (known !== undefined) return known;
  const data: unknown = deepFreeze(JSON.parse(raw));
  if (typeof data === 'object' && data !== null) memo.dataRaw.set(data, raw);
  return remember(memo.parsedRaws, raw, data);
}


/**
 * A new (unsaved) revision of `set`: labels = template labels + hash label, the set's annotations, a
 * controller reference to the set, `data` = the parsed revisionData. The hash includes collisionCount
 * only when it is given (upstream passes nil only when reconstructing a revision for comparison).
 */
// upstream: stateful_set_utils.go newRevision + pkg/controller/history NewControllerRevision
export function newRevision(set: StatefulSet, revision: number, collisionCount?: number, memo = new RevisionMemo()): ControllerRevision {
  const raw = revisionData(set, memo);
  const hash = hashControllerRevision(raw, collisionCount, memo);
  const metadata: ControllerRevision['metadata'] = {
    name: revisionName(set.metadata.name ?? '', hash),
    labels: { ...(set.spec.template.metadata?.labels ?? {}), [Labels.controllerHash]: hash },
    annotations: { ...(set.metadata.annotations ?? {}) },
    ownerReferences: [controllerRefTo(set)],
  };
  if (set.metadata.namespace !== undefined) metadata.namespace = set.metadata.namespace;
  return { apiVersion: APPS_V1, kind: 'ControllerRevision', metadata, data: parsedData(raw, memo), revision };
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** strconv.ParseInt(label, 10, 32) then uint32(…); undefined where Go reports an error. */
function parsedHashLabel(rev: ControllerRevision): number | undefined {
  const label = rev.metadata.labels?.[Labels.controllerHash];
  if (label === undefined || !/^[+-]?[0-9]+$/.test(label)) return undefined;
  const n = Number(label);
  if (n < INT32_MIN || n > INT32_MAX) return undefined;
  return n >>> 0;
}

/**
 * Upstream equality: revisions whose hash labels both parse as integers and differ are unequal (the
 * safe-encoded labels rarely parse); otherwise equal iff their raw data bytes are identical.
 */
// upstream: pkg/controller/history controller_history.go EqualRevision
export function equalRevision(a: ControllerRevision, b: ControllerRevision, memo = new RevisionMemo()): boolean {
  const ha = parsedHashLabel(a);
  const hb = parsedHashLabel(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return revisionRaw(a, memo) === revisionRaw(b, memo);
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Drops null members, as decoding into the typed object and re-encoding (omitempty/omitzero) does. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = withoutNulls(x);
  return out;
}

/**
 * The strategic-merge subset that revision data uses: maps merge key by key, `null` deletes, and a map
 * carrying `"$patch": "replace"` replaces the target wholesale. (List merge keys never occur: the only
 * patch Ordinal or upstream writes replaces spec.template.)
 */
function strategicMerge(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _directive, ...rest } = patch;
    return withoutNulls(structuredClone(rest));
  }
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = strategicMerge(out[k], v);
  }
  return out;
}

/**
 * `set` with its spec restored from `rev` (only the spec: metadata and status stay). For revision data
 * that means spec.template replaced wholesale, without the `$patch` key and without null members (Go
 * decodes into the typed StatefulSet, so `"creationTimestamp":null` from pre-1.34 revisions disappears).
 * Returns a deep copy (never mutates `set`); throws SyntaxError if string data is not JSON.
 */
// upstream: stateful_set_utils.go ApplyRevision
export function applyRevision(set: StatefulSet, rev: ControllerRevision): StatefulSet {
  const patch: unknown = typeof rev.data === 'string' ? JSON.parse(rev.data) : rev.data;
  const clone = structuredClone(set);
  const patched = strategicMerge({ spec: clone.spec }, patch ?? {});
  const spec = (isObject(patched) && isObject(patched.spec) ? patched.spec : clone.spec) as StatefulSet['spec'];
  return { ...clone, spec };
}

/**
 * applyRevision for the planner, which restores both revisions on every sync and only reads the result: the
 * restored spec is deep-frozen and memoised per (spec object, revision data object). The runtime keeps a
 * set's defaulted spec object while its spec is unchanged, so status writes, which make a new set object,
 * still hit; metadata and status are the set's own.
 */
export function appliedRevision(set: StatefulSet, rev: ControllerRevision, memo: RevisionMemo): StatefulSet {
  const data: unknown = rev.data;
  if (typeof data !== 'object' || data === null) return applyRevision(set, rev);
  let bySpec = memo.appliedSpecs.get(set.spec);
  if (bySpec === undefined) memo.appliedSpecs.set(set.spec, (bySpec = new WeakMap()));
  let spec = bySpec.get(data);
  if (spec === undefined) {
    spec = deepFreeze(applyRevision(set, rev).spec);
    bySpec.set(data, spec);
  }
  return { ...set, spec };
}

function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  for (const x of Object.values(v)) deepFreeze(x);
  return Object.freeze(v);
}
