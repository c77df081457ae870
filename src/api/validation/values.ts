// Typed reads of untrusted JSON. The real API server rejects a wrong JSON type while decoding; here the
// problem becomes a field issue at its path, and the caller sees `undefined` and skips the field's rules.

import { invalid, key, type IssueList } from './field.js';
import { isAbsent, isObject, type JsonObject } from './json.js';

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
// 2^63: the nearest double to the int64 bounds (JSON numbers are doubles)
const INT64_LIMIT = 2 ** 63;

export const typeIssue = (path: string, value: unknown, type: string) => invalid(path, value, `must be of type ${type}`);

/** An object, or undefined when absent (no issue) or of another type (issue). */
export function objectAt(v: unknown, path: string, out: IssueList): JsonObject | undefined {
  if (isAbsent(v)) return undefined;
  if (isObject(v)) return v;
  out.add(typeIssue(path, v, 'object'));
  return undefined;
}

export function arrayAt(v: unknown, path: string, out: IssueList): unknown[] | undefined {
  if (isAbsent(v)) return undefined;
  if (Array.isArray(v)) return v;
  out.add(typeIssue(path, v, 'array'));
  return undefined;
}

export function stringAt(v: unknown, path: string, out: IssueList): string | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v === 'string') return v;
  out.add(typeIssue(path, v, 'string'));
  return undefined;
}

function integerAt(v: unknown, path: string, out: IssueList, min: number, max: number, bits: number): number | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    out.add(typeIssue(path, v, 'integer'));
    return undefined;
  }
  if (v < min || v > max) {
    out.add(invalid(path, v, `must fit in a ${bits}-bit signed integer`));
    return undefined;
  }
  return v;
}

/** An int32 field (replicas, partition, minReadySeconds, ...). */
export const int32At = (v: unknown, path: string, out: IssueList): number | undefined =>
  integerAt(v, path, out, INT32_MIN, INT32_MAX, 32);

/** An int64 field (observedGeneration, terminationGracePeriodSeconds, ...). */
export const int64At = (v: unknown, path: string, out: IssueList): number | undefined =>
  integerAt(v, path, out, -INT64_LIMIT, INT64_LIMIT, 64);

/**
 * A map[string]string (labels, annotations, matchLabels). Entries whose value is not a string are reported
 * at `path[key]` and left out of the result.
 */
export function stringMapAt(v: unknown, path: string, out: IssueList): Record<string, string> | undefined {
  const obj = objectAt(v, path, out);
  if (!obj) return undefined;
  const result: Record<string, string> = {};
  for (const k of Object.keys(obj)) {
    if (out.full) break;
    const value = obj[k];
    if (typeof value === 'string') Object.defineProperty(result, k, { value, enumerable: true, writable: true });
    else out.add(typeIssue(key(path, k), value, 'string'));
  }
  return result;
}

/** Reads a string without reporting anything (for values another rule already reported). */
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Reads an object without reporting anything. */
export const asObject = (v: unknown): JsonObject | undefined => (isObject(v) ? v : undefined);
