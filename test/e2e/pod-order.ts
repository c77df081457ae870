// Questions about the order of pod lifecycle events the observer saw (watch order), for assertions such
// as "web-2 was deleted only after the new web-3 was Ready".
import assert from 'node:assert/strict';
import { fromTimestamp } from '../../src/api/types.js';
import { readyCondition } from '../../src/controller/model/pod-state.js';
import type { PodEvent, PodEventType } from './observer.js';
import type { TestEnv } from './harness.js';

/** The seq of the observer's latest event: later events are "after" it. */
export const mark = (env: TestEnv): number => env.observer.podEvents.at(-1)?.seq ?? 0;

/** `type` events of `set`'s pods after `from`, in watch order. */
export function after(env: TestEnv, set: string, type: PodEventType, from: number, revision?: string): PodEvent[] {
  return env.observer.eventsOf(set, type).filter((e) => e.seq > from && (revision === undefined || e.revision === revision));
}

export const names = (events: PodEvent[]): string[] => events.map((e) => e.name);

/** The first `type` event of pod `name` after `from`; fails the test when there is none. */
export function first(env: TestEnv, name: string, type: PodEventType, from: number): PodEvent {
  const set = name.replace(/-\d+$/, '');
  const e = env.observer.eventsOf(set, type).find((x) => x.name === name && x.seq > from);
  assert.ok(e, `no ${type} event for ${name} after #${from}; saw: ${describeEvents(env, set, from)}`);
  return e;
}

/** Asserts that `a` happened before `b` in watch order. */
export function assertBefore(a: PodEvent, b: PodEvent, why: string): void {
  assert.ok(a.seq < b.seq, `${why}: ${a.type} ${a.name} (#${a.seq}) should come before ${b.type} ${b.name} (#${b.seq})`);
}

export function describeEvents(env: TestEnv, set: string, from: number): string {
  return env.observer
    .eventsOf(set)
    .filter((e) => e.seq > from)
    .map((e) => `#${e.seq} ${e.type} ${e.name}`)
    .join(', ');
}

/** When the API server says a pod turned Ready (whole seconds, as stored). */
export function readySince(e: PodEvent): number {
  const t = fromTimestamp(readyCondition(e.pod)?.lastTransitionTime);
  assert.ok(t !== undefined, `${e.name} has no Ready transition time`);
  return t;
}

/** When the pod's deletion was requested: deletionTimestamp minus its grace period (whole seconds). */
export function deletionRequestedAt(e: PodEvent): number {
  const t = fromTimestamp(e.pod.metadata.deletionTimestamp);
  assert.ok(t !== undefined, `${e.name} has no deletionTimestamp`);
  return t - (e.pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}
