import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTimestamp, type ControllerRevision, type Instant, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../src/api/types.js';
import { DurationLearner, KEPT_PODS } from '../../src/runtime/duration-learner.js';
import type { Informer } from '../../src/runtime/informer.js';
import { ObjectCache } from '../../src/runtime/object-cache.js';
import { observe, SetDefaults } from '../../src/runtime/observe.js';
import { momentsOf, type ObservedDurations } from '../../src/controller/model/learned-durations.js';

/** The lists the learner hands out, without the moments it keeps beside them. */
const lists = (d: ObservedDurations | undefined) => d && { start: d.start, termination: d.termination };
const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b));

const T0: Instant = Date.parse('2026-03-01T12:00:00Z');
const S = 1000;

interface Handler {
  onAdd(p: Pod): void;
  onUpdate(a: Pod, b: Pod): void;
  onDelete(p: Pod): void;
}

/** The part of the pod informer the learner uses: its handlers, which the test calls as the informer would. */
function podInformer(): { informer: Informer<Pod>; handler: () => Handler } {
  let handler: Handler | undefined;
  const informer = { addHandler: (h: Handler) => ((handler = h), () => (handler = undefined)) } as unknown as Informer<Pod>;
  return { informer, handler: () => handler as Handler };
}

const SET = { metadata: { namespace: 'ns', name: 'web', uid: 'u1' } } as StatefulSet;
const owner = (uid = 'u1') => [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid, controller: true }];

function pod(name: string, created: Instant, ready?: Instant, uid = 'u1'): Pod {
  return {
    metadata: { namespace: 'ns', name, uid: `pod-${name}`, ownerReferences: owner(uid), creationTimestamp: toTimestamp(created) },
    spec: { containers: [] },
    status: ready === undefined ? { phase: 'Pending' } : { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: toTimestamp(ready) }] },
  };
}

function learner(now = () => T0) {
  const { informer, handler } = podInformer();
  const l = new DurationLearner(informer, { now });
  l.register();
  return { l, h: handler() };
}

describe('DurationLearner: what a set\'s pods take, from the pod informer', () => {
  it('learns a start (creation → Ready) once per pod, for the pod\'s controller only', () => {
    const { l, h } = learner();
    const pending = pod('web-0', T0);
    h.onAdd(pending);
    assert.equal(l.of(SET), undefined, 'nothing Ready yet');
    const ready = pod('web-0', T0, T0 + 10 * S);
    h.onUpdate(pending, ready);
    h.onUpdate(ready, pod('web-0', T0, T0 + 50 * S)); // Ready again later: the same pod's first start counts
    h.onAdd(pod('other-0', T0, T0 + 99 * S, 'u2'));
    h.onAdd({ ...pod('orphan', T0, T0 + 99 * S), metadata: { namespace: 'ns', name: 'orphan', uid: 'o', creationTimestamp: toTimestamp(T0) } });
    assert.deepEqual(lists(l.of(SET)), { start: [10], termination: [] });
  });

  it('learns a termination: the deletion request (deletionTimestamp − grace) to the delete delta, on the runtime clock', () => {
    let now = T0 + 33 * S;
    const { l, h } = learner(() => now);
    const going = pod('web-1', T0, T0 + 5 * S);
    going.metadata.deletionTimestamp = toTimestamp(T0 + 60 * S);
    going.metadata.deletionGracePeriodSeconds = 30;
    h.onDelete(going);
    now += 10 * S;
    h.onDelete(pod('web-2', T0, T0 + 5 * S)); // gone without being seen terminating: no request time
    assert.deepEqual(l.of(SET)?.termination, [3]);
  });

  it('after a restart, relearns the starts of the Ready pods from the informer\'s first list', () => {
    const pods = [pod('web-0', T0, T0 + 8 * S), pod('web-1', T0 + 20 * S, T0 + 32 * S), pod('web-2', T0 + 40 * S)];
    const { l, h } = learner();
    for (const p of pods) h.onAdd(p);
    assert.deepEqual(lists(l.of(SET)), { start: [8, 12], termination: [] });
  });

  it(`keeps the last ${KEPT_PODS} pods of each set, and forgets a set that is gone`, () => {
    const { l, h } = learner();
    for (let i = 0; i <= KEPT_PODS; i++) h.onAdd(pod(`web-${i}`, T0, T0 + i * S));
    const start = l.of(SET)?.start ?? [];
    assert.equal(start.length, KEPT_PODS);
    assert.equal(start[0], 1, 'the first pod learned is the first dropped');
    // the moments kept one pod at a time are those of the list it keeps, the dropped pod taken out
    const kept = l.of(SET)?.moments?.start;
    const recomputed = momentsOf(start);
    assert.ok(kept !== undefined && kept.pods === KEPT_PODS && kept.n === recomputed.n && close(kept.sum, recomputed.sum) && close(kept.sumSq, recomputed.sumSq), JSON.stringify({ kept, recomputed }));
    l.forget(SET);
    assert.equal(l.of(SET), undefined);
  });

  it('hands out the same object until it learns more (the planner keeps the band it computed from it)', () => {
    const { l, h } = learner();
    h.onAdd(pod('web-0', T0, T0 + 7 * S));
    const first = l.of(SET);
    assert.equal(l.of(SET), first);
    h.onAdd(pod('web-1', T0, T0 + 9 * S));
    assert.notEqual(l.of(SET), first);
    assert.deepEqual(l.of(SET)?.start, [7, 9]);
  });

  it('reaches the planner through observe', () => {
    const { l, h } = learner();
    h.onAdd(pod('web-0', T0, T0 + 7 * S));
    const set = {
      metadata: { namespace: 'ns', name: 'web', uid: 'u1' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    } as unknown as StatefulSet;
    const empty = <T extends Pod | ControllerRevision | PersistentVolumeClaim>() => new ObjectCache<T>() as unknown as Informer<T>;
    const caches = { pods: empty<Pod>(), revisions: empty<ControllerRevision>(), claims: empty<PersistentVolumeClaim>() };
    assert.deepEqual(lists(observe(set, caches, undefined, { defaults: new SetDefaults(), durations: l }).durations), { start: [7], termination: [] });
    assert.equal(observe(set, caches, undefined, { defaults: new SetDefaults() }).durations, undefined);
  });
});
