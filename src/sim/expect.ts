// Evaluates an `expect` step against the simulator's view at this instant. Status and
// object expectations are subset matches: objects by key, arrays by "each expected element matches some
// actual element", and an absent counter equals 0 (the API omits zero counters).

import type { Instant, Pod } from '../api/types.js';
import { isRunningAndReady, isUnavailable, podRevision } from '../controller/model/pod-state.js';
import type { EventExpectation, Expectation, PodExpectation } from './scenario-types.js';
import type { SimState } from './state.js';
import type { EventRecord } from './timeline.js';

export interface ExpectContext {
  state: SimState;
  now: Instant;
  events: readonly EventRecord[];
  /** Most unavailable ordinals seen for a set (by set key) since it first converged. */
  maxUnavailable(setKey: string): number | undefined;
  allConverged(): boolean;
}

export interface ExpectOutcome {
  ok: boolean;
  message: string;
}

/** `web` or `namespace/web`. */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: 'default', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

export function evaluateExpect(e: Expectation, ctx: ExpectContext): ExpectOutcome {
  const checked: string[] = [];
  const failed: string[] = [];
  const check = (what: string, problem: string | undefined) => (problem === undefined ? checked.push(what) : failed.push(problem));
  for (const [key, want] of Object.entries(e.status ?? {})) check(`status ${key}`, statusProblem(key, want, ctx));
  for (const [key, want] of Object.entries(e.pods ?? {})) check(`pod ${key}`, podProblem(key, want, ctx));
  for (const [key, limit] of Object.entries(e.maxUnavailableObserved ?? {})) {
    const entry = ctx.state.findSet(splitKey(key).namespace, splitKey(key).name);
    const seen = entry ? ctx.maxUnavailable(entry.key) : undefined;
    check(`maxUnavailableObserved ${key} = ${seen ?? '-'} (<= ${limit})`, observedProblem(key, limit, ctx));
  }
  for (const want of e.event ?? []) check(`event ${want.reason}`, eventProblem(want, ctx.events));
  if (e.converged !== undefined) {
    const now = ctx.allConverged();
    check(`converged=${e.converged}`, now === e.converged ? undefined : `converged is ${now}, expected ${e.converged}`);
  }
  if (failed.length) return { ok: false, message: failed.join('; ') };
  return { ok: true, message: checked.join('; ') };
}

function statusProblem(key: string, want: Record<string, unknown>, ctx: ExpectContext): string | undefined {
  const { namespace, name } = splitKey(key);
  const entry = ctx.state.findSet(namespace, name);
  if (!entry) return `status ${key}: no such StatefulSet`;
  const mismatch = subsetMismatch(want, entry.set.status ?? {}, 'status');
  return mismatch && `${key}: ${mismatch}`;
}

/** Where `actual` fails to contain `expected`, or undefined when it does. */
export function subsetMismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path} is ${JSON.stringify(actual)}, expected a list`;
    for (const [i, item] of expected.entries()) {
      if (!actual.some((a) => subsetMismatch(item, a, path) === undefined)) return `${path}[${i}] ${JSON.stringify(item)} not found in ${JSON.stringify(actual)}`;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null) return `${path} is ${JSON.stringify(actual)}, expected an object`;
    for (const [k, v] of Object.entries(expected)) {
      const problem = subsetMismatch(v, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (expected === actual || (expected === 0 && actual === undefined)) return undefined;
  return `${path} is ${JSON.stringify(actual) ?? 'absent'}, expected ${JSON.stringify(expected)}`;
}

function podProblem(key: string, want: PodExpectation, ctx: ExpectContext): string | undefined {
  const { namespace, name } = splitKey(key);
  const pod = ctx.state.pods.get(`${namespace}/${name}`);
  if (want.exists === false) return pod ? `pod ${key} exists` : undefined;
  if (!pod) return `pod ${key} does not exist`;
  const setKey = ctx.state.setOfPod(pod);
  const set = setKey ? ctx.state.sets.get(setKey)?.set : undefined;
  const problems: string[] = [];
  if (want.revision !== undefined) {
    const problem = revisionProblem(pod, want.revision, set?.status?.updateRevision, set?.status?.currentRevision);
    if (problem) problems.push(problem);
  }
  if (want.ready !== undefined && isRunningAndReady(pod) !== want.ready) problems.push(`ready is ${!want.ready}`);
  if (want.available !== undefined) {
    const available = !isUnavailable(pod, set?.spec.minReadySeconds ?? 0, ctx.now);
    if (available !== want.available) problems.push(`available is ${available}`);
  }
  if (want.phase !== undefined && pod.status?.phase !== want.phase) problems.push(`phase is ${pod.status?.phase ?? '-'}`);
  return problems.length ? `pod ${key}: ${problems.join(', ')}` : undefined;
}

function revisionProblem(pod: Pod, want: string, update: string | undefined, current: string | undefined): string | undefined {
  const have = podRevision(pod) || undefined;
  const target = want === 'update' ? update : want === 'current' ? current : want;
  if (have !== undefined && have === target) return undefined;
  return `revision is ${have ?? '-'}, expected ${want}${want !== target ? ` (${target ?? '-'})` : ''}`;
}

function observedProblem(key: string, limit: number, ctx: ExpectContext): string | undefined {
  const { namespace, name } = splitKey(key);
  const entry = ctx.state.findSet(namespace, name);
  if (!entry) return `maxUnavailableObserved ${key}: no such StatefulSet`;
  const seen = ctx.maxUnavailable(entry.key);
  if (seen === undefined) return `maxUnavailableObserved ${key}: not measured yet (the set has not converged once)`;
  return seen <= limit ? undefined : `maxUnavailableObserved ${key} is ${seen}, expected <= ${limit}`;
}

function eventProblem(want: EventExpectation, events: readonly EventRecord[]): string | undefined {
  const found = events.some(
    (e) =>
      e.reason === want.reason &&
      (want.type === undefined || e.eventType === want.type) &&
      (want.message === undefined || e.message.includes(want.message)) &&
      (want.involvedObject === undefined || e.involvedObject.name === want.involvedObject),
  );
  const present = want.present ?? true;
  if (found === present) return undefined;
  return present ? `no event ${JSON.stringify(want)} was recorded` : `an event ${JSON.stringify(want)} was recorded`;
}
