// Plain-JSON helpers shared by defaulting, validation and the registry strategy. Inputs are untrusted
// (any JSON, possibly huge), so nothing here throws and rendering is bounded.

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON `null` and a missing key both decode to Go's nil / zero value. */
export const isAbsent = (v: unknown): v is undefined | null => v === undefined || v === null;

/** A Go string field: absent and "" are the same value. */
export const isEmptyString = (v: unknown): boolean => isAbsent(v) || v === '';

/** Sets `obj[k] = v` without ever touching the prototype (a `__proto__` key stays a plain property). */
export function setOwn(obj: JsonObject, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}

/** Deep copy of a JSON value (arrays and plain objects copied, everything else shared). */
export function cloneJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneJson(x)) as T;
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) setOwn(out, k, cloneJson(v[k]));
  return out as T;
}

const isEmptyLike = (v: unknown): boolean => isAbsent(v) || (Array.isArray(v) && v.length === 0);

/**
 * Structural equality in the manner of apimachinery's Semantic.DeepEqual on decoded objects: object key order
 * does not matter, and a missing key, `null` and an empty list are equal (nil and empty slices compare equal).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyLike(a) && isEmptyLike(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return Number.isNaN(a) && Number.isNaN(b);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!deepEqual(a[k], b[k])) return false;
  return true;
}

/** Bytes of the UTF-8 encoding, as Go's len(string) counts them. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Longest rendering of a value in a message; longer values are cut with `...`. */
export const MAX_RENDERED = 1024;

class Overflow extends Error {}

function write(v: unknown, parts: string[], budget: { left: number }): void {
  const emit = (s: string): void => {
    parts.push(s);
    budget.left -= s.length;
    if (budget.left < 0) throw new Overflow();
  };
  if (Array.isArray(v)) {
    emit('[');
    v.forEach((x, i) => {
      if (i > 0) emit(',');
      write(x, parts, budget);
    });
    emit(']');
  } else if (isObject(v)) {
    emit('{');
    Object.keys(v).forEach((k, i) => {
      emit(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
      write(v[k], parts, budget);
    });
    emit('}');
  } else if (typeof v === 'string') emit(JSON.stringify(v.length > budget.left ? v.slice(0, budget.left + 1) : v));
  else if (typeof v === 'number' || typeof v === 'boolean') emit(String(v));
  else emit('null');
}

/**
 * A value as field.Error prints it: numbers and booleans plainly, strings quoted, composites as JSON, nil as
 * `null`. Work and output are bounded by MAX_RENDERED.
 */
export function renderValue(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const parts: string[] = [];
  try {
    write(v, parts, { left: MAX_RENDERED });
    return parts.join('');
  } catch {
    return `${parts.join('').slice(0, MAX_RENDERED)}...`;
  }
}
