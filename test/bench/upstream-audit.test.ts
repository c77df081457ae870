// The vs-upstream benchmark's arithmetic on fixed inputs: which audit records count as whose requests, what
// a status write that changed nothing looks like, and the ready → next action rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAuditLog, requestsOf, summarise, type AuditEvent } from '../../bench/upstream/audit.js';
import { percentile, readyToAction } from '../../bench/upstream/latency.js';
import type { PodEvent } from '../e2e/observer.js';

const KCM = 'kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/statefulset-controller';
let id = 0;
function record(verb: string, resource: string, extra: Partial<AuditEvent> = {}, ns = 'a'): AuditEvent {
  return { auditID: `id-${++id}`, stage: 'ResponseComplete', verb, userAgent: KCM, objectRef: { resource, namespace: ns }, responseStatus: { code: 200 }, ...extra };
}
const statusWrite = (sent: string, got: string, code = 200): AuditEvent =>
  record('update', 'statefulsets', {
    objectRef: { resource: 'statefulsets', subresource: 'status', namespace: 'a' },
    requestObject: { metadata: { resourceVersion: sent } },
    responseObject: { metadata: { resourceVersion: got } },
    responseStatus: { code },
  });

describe('audit log summary', () => {
  it('counts reads and writes by verb, Events apart, status writes that changed nothing and conflicts', () => {
    const watch = record('watch', 'pods', { stage: 'ResponseStarted' });
    const events = [
      record('list', 'pods'),
      watch,
      { ...watch, stage: 'ResponseComplete' },
      record('create', 'pods'),
      record('delete', 'pods'),
      record('create', 'events'),
      record('patch', 'events'),
      statusWrite('10', '11'),
      statusWrite('11', '11'),
      statusWrite('9', '', 409),
      record('create', 'pods', { userAgent: 'ordinal-e2e-story' }),
      record('create', 'pods', {}, 'other-namespace'),
    ];
    const s = summarise(requestsOf(events, (ua) => ua === KCM, new Set(['a'])));
    assert.equal(s.requests, 9, 'the watch counts once; other agents and namespaces not at all');
    assert.equal(s.writes, 5);
    assert.deepEqual([s.statusWrites, s.unchangedStatusWrites, s.conflictedStatusWrites], [3, 1, 1]);
    assert.deepEqual([s.eventCreates, s.eventUpdates], [1, 1]);
    assert.equal(s.byVerb['update statefulsets/status'], 3);
    assert.equal(s.byVerb['watch pods'], 1);
  });

  it('refuses a log line that is not JSON, naming the line', () => {
    assert.throws(() => parseAuditLog('{"auditID":"x","stage":"ResponseComplete","verb":"get"}\n{"audit'), /line 2 is not JSON/);
  });
});

describe('ready → next action', () => {
  const ev = (at: number, type: PodEvent['type'], name = 'web-0'): PodEvent => ({ seq: 0, at, type, name, ordinal: 0, uid: name, revision: 'r', pod: undefined as never });

  it('measures each batch from the latest Ready or Deleted pod since the previous batch', () => {
    const events = [ev(0, 'Created'), ev(1500, 'Ready'), ev(1520, 'Created', 'web-1'), ev(3000, 'Ready', 'web-1'), ev(3100, 'Terminating'), ev(3150, 'Terminating', 'web-1'), ev(4600, 'Deleted'), ev(4630, 'Created')];
    assert.deepEqual(readyToAction(events, [0]), [20, 100, 30], 'the second deletion joins the batch of the first');
  });

  it('leaves out a batch that answers a step (a spec change after the pod became Ready)', () => {
    const events = [ev(0, 'Created'), ev(1500, 'Ready'), ev(5000, 'Terminating')];
    assert.deepEqual(readyToAction(events, [0, 4990]), []);
  });

  it('with minReadySeconds, a pod is waited for until it is available, not only Ready', () => {
    const events = [ev(0, 'Created'), ev(1500, 'Ready'), ev(4520, 'Terminating', 'web-1')];
    assert.deepEqual(readyToAction(events, [0], 3), [20]);
  });

  it('percentile by nearest rank', () => {
    assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
    assert.equal(percentile([5, 1, 3, 2, 4], 100), 5);
    assert.ok(Number.isNaN(percentile([], 50)));
  });
});
