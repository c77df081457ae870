// Durations learned from what the cluster records: creation → Ready of the set's pods, and deletion → gone
// from what a watch saw and the controller's SuccessfulDelete → SuccessfulCreate events of the same pod (not
// those whose creation waited for a lower ordinal), else the grace period as an upper bound.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeEvent, Pod, StatefulSet } from '../../src/api/types.js';
import { learnDurations } from '../../src/sim/learned-durations.js';

const set = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default', uid: 'u1' }, spec: { selector: {}, template: { spec: { containers: [], terminationGracePeriodSeconds: 12 } } } } as unknown as StatefulSet;

const pod = (name: string, created: string, ready?: string): Pod =>
  ({
    metadata: { name, creationTimestamp: created },
    spec: { containers: [] },
    status: { conditions: ready === undefined ? [{ type: 'Ready', status: 'False' }] : [{ type: 'Ready', status: 'True', lastTransitionTime: ready }] },
  }) as unknown as Pod;

const event = (reason: string, verb: string, podName: string, at: string, uid = 'u1'): KubeEvent =>
  ({
    metadata: { name: `e-${reason}-${podName}-${at}` },
    involvedObject: { kind: 'StatefulSet', name: 'web', uid },
    reason,
    message: `${verb} Pod ${podName} in StatefulSet web successful`,
    lastTimestamp: at,
  }) as unknown as KubeEvent;

describe('learnDurations', () => {
  it('takes creation → Ready of Ready pods only, each ±0.5 s (whole-second timestamps)', () => {
    const d = learnDurations(set, [pod('web-0', '2026-11-25T10:00:00Z', '2026-11-25T10:00:04Z'), pod('web-1', '2026-11-25T10:00:10Z', '2026-11-25T10:00:17Z'), pod('web-2', '2026-11-25T10:00:20Z')], []);
    assert.deepEqual(d.start, { samples: [3.5, 4, 4.5, 6.5, 7, 7.5], source: 'creation → Ready of 2 pods, ±0.5 s' });
  });

  it('pairs the latest delete and create events of each pod, ignoring other sets and unpaired ones', () => {
    const events = [
      event('SuccessfulDelete', 'delete', 'web-2', '2026-11-25T10:01:00Z'),
      event('SuccessfulCreate', 'create', 'web-2', '2026-11-25T10:01:03Z'),
      event('SuccessfulDelete', 'delete', 'web-1', '2026-11-25T10:01:10Z'),
      event('SuccessfulCreate', 'create', 'web-1', '2026-11-25T10:01:15Z'),
      event('SuccessfulCreate', 'create', 'web-0', '2026-11-25T10:00:00Z'), // created, never deleted
      event('SuccessfulDelete', 'delete', 'web-9', '2026-11-25T10:01:00Z', 'another-uid'),
      event('SuccessfulCreate', 'create', 'web-9', '2026-11-25T10:01:09Z', 'another-uid'),
    ];
    assert.deepEqual(learnDurations(set, [], events).termination, { samples: [2.5, 3, 3.5, 4.5, 5, 5.5], source: 'SuccessfulDelete → SuccessfulCreate events of 2 pods, ±0.5 s' });
  });

  it('leaves out a creation that waited for a lower ordinal (OrderedReady), and a pair longer than the grace period', () => {
    // maxUnavailable 2: web-3 and web-2 deleted together and gone 2 s later; web-2 is created at once, web-3
    // only once web-2 is Ready (10 s more): its 12 s would count web-2's start a second time.
    const events = [
      event('SuccessfulDelete', 'delete', 'web-3', '2026-11-25T10:00:00Z'),
      event('SuccessfulDelete', 'delete', 'web-2', '2026-11-25T10:00:00Z'),
      event('SuccessfulCreate', 'create', 'web-2', '2026-11-25T10:00:02Z'),
      event('SuccessfulCreate', 'create', 'web-3', '2026-11-25T10:00:12Z'),
      // scaled down, then up again an hour later: not a termination
      event('SuccessfulDelete', 'delete', 'web-4', '2026-11-25T09:00:00Z'),
      event('SuccessfulCreate', 'create', 'web-4', '2026-11-25T10:00:00Z'),
    ];
    const d = learnDurations(set, [], events).termination;
    assert.deepEqual(d, { samples: [1.5, 2, 2.5], source: 'SuccessfulDelete → SuccessfulCreate events of 1 pod, ±0.5 s; 1 left out, created only after a lower ordinal was Ready' });
    const parallel = { ...set, spec: { ...set.spec, podManagementPolicy: 'Parallel' } } as StatefulSet;
    assert.deepEqual(learnDurations(parallel, [], events.slice(0, 4)).termination.samples, [11.5, 12, 12.5, 1.5, 2, 2.5], 'Parallel creations wait for nothing');
  });

  it('takes what a watch saw go first, and says so', () => {
    const events = [event('SuccessfulDelete', 'delete', 'web-2', '2026-11-25T10:01:00Z'), event('SuccessfulCreate', 'create', 'web-2', '2026-11-25T10:01:03Z')];
    const d = learnDurations(set, [], events, [{ pod: 'web-1', seconds: 4 }]).termination;
    assert.deepEqual(d, { samples: [3.5, 4, 4.5, 2.5, 3, 3.5], source: 'deletion → gone of 1 pod watched and SuccessfulDelete → SuccessfulCreate events of 1 pod, ±0.5 s' });
  });

  it('falls back to the grace period, and says it is an upper bound', () => {
    const d = learnDurations(set, [], [event('SuccessfulCreate', 'create', 'web-0', '2026-11-25T10:00:00Z')]);
    assert.deepEqual(d.termination.samples, [12]);
    assert.equal(d.termination.upperBound, true);
    assert.match(d.termination.source, /^the grace period \(12 s\), an upper bound/);
  });
});
