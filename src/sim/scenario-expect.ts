// The `expect` step: status subsets, pod states, maxUnavailableObserved and events.

import type { EventExpectation, Expectation, PodExpectation } from './scenario-types.js';
import {
  type Issues,
  at,
  boolField,
  enumField,
  noUnknownKeys,
  numberField,
  objectField,
  optional,
  stringField,
} from './scenario-fields.js';

// The keys each part accepts, exported so the scenario docs test can check every one is documented.
export const EXPECT_KEYS = ['status', 'pods', 'maxUnavailableObserved', 'event', 'converged'] as const;
export const POD_EXPECT_KEYS = ['revision', 'ready', 'available', 'phase', 'exists'] as const;
export const EVENT_EXPECT_KEYS = ['reason', 'type', 'message', 'involvedObject', 'present'] as const;

export function parseExpect(v: unknown, path: string, issues: Issues): Expectation | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, EXPECT_KEYS, path, issues);
  const out: Expectation = {};
  const status = optional(obj, 'status', path, issues, objectField);
  if (status) out.status = mapOf(status, at(path, 'status'), issues, objectField);
  const pods = optional(obj, 'pods', path, issues, objectField);
  if (pods) out.pods = mapOf(pods, at(path, 'pods'), issues, parsePod);
  const observed = optional(obj, 'maxUnavailableObserved', path, issues, objectField);
  if (observed) {
    const count = (x: unknown, p: string, i: Issues) => numberField(x, p, i, { min: 0, integer: true });
    out.maxUnavailableObserved = mapOf(observed, at(path, 'maxUnavailableObserved'), issues, count);
  }
  if (obj['event'] !== undefined) out.event = parseEvents(obj['event'], at(path, 'event'), issues);
  const converged = optional(obj, 'converged', path, issues, boolField);
  if (converged !== undefined) out.converged = converged;
  if (Object.keys(obj).length === 0) issues.add(path, 'must name at least one of ' + EXPECT_KEYS.join(', '));
  return out;
}

function mapOf<T>(obj: Record<string, unknown>, path: string, issues: Issues, check: (v: unknown, p: string, i: Issues) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(obj)) {
    const checked = check(value, at(path, key), issues);
    if (checked !== undefined) out[key] = checked;
  }
  return out;
}

function parsePod(v: unknown, path: string, issues: Issues): PodExpectation | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, POD_EXPECT_KEYS, path, issues);
  const out: PodExpectation = {};
  const revision = optional(obj, 'revision', path, issues, stringField);
  if (revision !== undefined) out.revision = revision;
  for (const key of ['ready', 'available', 'exists'] as const) {
    const b = optional(obj, key, path, issues, boolField);
    if (b !== undefined) out[key] = b;
  }
  const phase = optional(obj, 'phase', path, issues, stringField);
  if (phase !== undefined) out.phase = phase;
  return out;
}

function parseEvents(v: unknown, path: string, issues: Issues): EventExpectation[] {
  const list = Array.isArray(v) ? v.map((item, i) => parseEvent(item, at(path, i), issues)) : [parseEvent(v, path, issues)];
  return list.filter((e): e is EventExpectation => e !== undefined);
}

function parseEvent(v: unknown, path: string, issues: Issues): EventExpectation | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, EVENT_EXPECT_KEYS, path, issues);
  const reason = stringField(obj['reason'], at(path, 'reason'), issues);
  if (reason === undefined) return undefined;
  const out: EventExpectation = { reason };
  const type = optional(obj, 'type', path, issues, (x, p, i) => enumField(x, p, i, ['Normal', 'Warning'] as const));
  if (type) out.type = type;
  const message = optional(obj, 'message', path, issues, stringField);
  if (message !== undefined) out.message = message;
  const involved = optional(obj, 'involvedObject', path, issues, stringField);
  if (involved !== undefined) out.involvedObject = involved;
  const present = optional(obj, 'present', path, issues, boolField);
  if (present !== undefined) out.present = present;
  return out;
}
