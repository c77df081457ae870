// Seed 002 (Kubernetes 1.24 blog): replicas 5, maxUnavailable 2, OrderedReady. Pods 4 and 3 terminate
// together; 2 and 1 only once 4 and 3 are back and available; 0 last.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../src/controller/model/plan-types.js';
import { newSet, SECOND } from './fixtures.js';
import { Harness } from './harness.js';

type Delete = Extract<Action, { kind: 'deletePod' }>;
type Create = Extract<Action, { kind: 'createPod' }>;

describe('blog trace: 5 replicas, maxUnavailable 2, OrderedReady', () => {
  it('updates in batches {4,3}, {2,1}, {0}, recreating each batch in ascending order', () => {
    const h = new Harness(newSet(5, { maxUnavailable: 2, image: 'nginx-slim:0.8' }), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('nginx-slim:0.9');
    const waves: number[][] = [];
    const creations: number[] = [];
    for (let i = 0; i < 60; i++) {
      const plan = h.sync();
      const deleted = plan.actions.filter((a): a is Delete => a.kind === 'deletePod').map((a) => a.ordinal);
      if (deleted.length > 0) {
        // a new wave starts only when every pod is back, Running, Ready and available
        assert.equal(h.pods.size, 5);
        waves.push(deleted);
      }
      creations.push(...plan.actions.filter((a): a is Create => a.kind === 'createPod').map((a) => a.ordinal));
      h.finishTerminating();
      h.advance(SECOND);
      h.readyAll();
      if (h.set.status?.currentRevision === h.set.status?.updateRevision) break;
    }
    assert.deepEqual(waves, [[4, 3], [2, 1], [0]]);
    assert.deepEqual(creations, [3, 4, 1, 2, 0]);
    for (const name of h.pods.keys()) assert.equal(h.revisionOf(name), h.set.status?.updateRevision);
    assert.equal(h.set.status?.currentRevision, h.set.status?.updateRevision);
  });

  it('does not start 2 and 1 while 4 is back but 3 is not yet Ready', () => {
    const h = new Harness(newSet(5, { maxUnavailable: 2 }), { autoReady: true });
    h.converge();
    (h.opts as { autoReady?: boolean }).autoReady = false;
    h.setImage('app:v2');
    h.sync();
    h.finishTerminating();
    h.sync(); // creates 3
    h.ready('web-3');
    h.sync(); // creates 4
    const plan = h.sync(); // 4 not Ready yet
    assert.deepEqual(plan.actions.filter((a) => a.kind === 'deletePod'), []);
    assert.ok(plan.blockers.some((b) => b.kind === 'podNotRunningAndReady' && b.pod === 'web-4'));
  });
});
