import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lifecycleEvents, podView } from '../../src/sim/pod-lifecycle.js';
import { pod } from './fixtures.js';

describe('pod lifecycle events', () => {
  const pending = podView(pod(0, { ready: false }));
  const scheduled = podView(pod(0, { ready: false, node: 'n1' }));
  const running = podView(pod(0, { ready: false, node: 'n1', phase: 'Running' }));
  const ready = podView(pod(0, { node: 'n1' }));

  it('reports Created for a new pod and each transition once, in lifecycle order', () => {
    assert.deepEqual(lifecycleEvents(undefined, pending), ['Created']);
    assert.deepEqual(lifecycleEvents(pending, scheduled), ['Scheduled']);
    assert.deepEqual(lifecycleEvents(scheduled, running), ['Running']);
    assert.deepEqual(lifecycleEvents(running, ready), ['Ready']);
    assert.deepEqual(lifecycleEvents(pending, ready), ['Scheduled', 'Running', 'Ready']);
    assert.deepEqual(lifecycleEvents(ready, ready), []);
  });

  it('reports NotReady, Failed and Terminating', () => {
    assert.deepEqual(lifecycleEvents(ready, running), ['NotReady']);
    assert.deepEqual(lifecycleEvents(running, podView(pod(0, { ready: false, node: 'n1', phase: 'Failed' }))), ['Failed']);
    assert.deepEqual(lifecycleEvents(ready, podView(pod(0, { node: 'n1', terminating: true }))), ['Terminating']);
  });

  it('reports Deleted on removal, with Terminating first when no deletion was requested before', () => {
    assert.deepEqual(lifecycleEvents(podView(pod(0, { terminating: true })), undefined), ['Deleted']);
    assert.deepEqual(lifecycleEvents(pending, undefined), ['Terminating', 'Deleted']);
  });
});
