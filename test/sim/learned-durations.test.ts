// Durations learned from what the cluster records: creation → Ready of the set's pods, and the controller's
// SuccessfulDelete → SuccessfulCreate events of the same pod, else the grace period.
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

  it('falls back to the grace period, and says it is an upper bound', () => {
    const d = learnDurations(set, [], [event('SuccessfulCreate', 'create', 'web-0', '2026-11-25T10:00:00Z')]);
    assert.deepEqual(d.termination.samples, [12]);
    assert.match(d.termination.source, /^the grace period \(12 s\), an upper bound/);
  });
});
