// Expansion times learned from the Events a cluster's storage records on the claims: Resizing → the first
// VolumeResizeSuccessful or FileSystemResizeSuccessful after it, the latest resize of each claim.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeEvent, PersistentVolumeClaim } from '../../src/api/types.js';
import { learnExpansion } from '../../src/sim/learned-expansion.js';

const claim = (name: string) => ({ metadata: { name, namespace: 'default' }, spec: {} }) as PersistentVolumeClaim;

const event = (claimName: string, reason: string, last: string, first = last, kind = 'PersistentVolumeClaim'): KubeEvent =>
  ({ metadata: { name: `${claimName}.${reason}` }, involvedObject: { kind, name: claimName }, reason, firstTimestamp: first, lastTimestamp: last }) as unknown as KubeEvent;

describe('learnExpansion', () => {
  it('measures each claim from Resizing to its first resize success after it, ±0.5 s', () => {
    const learned = learnExpansion(
      [claim('data-db-0'), claim('data-db-1'), claim('data-db-2')],
      [
        // data-db-0 grew twice: the latest resize (Resizing bumped at 10:20:00) succeeded at 10:20:40
        event('data-db-0', 'Resizing', '2026-11-25T10:20:00Z', '2026-11-25T10:00:00Z'),
        event('data-db-0', 'VolumeResizeSuccessful', '2026-11-25T10:20:40Z', '2026-11-25T10:00:30Z'),
        // data-db-1: the kubelet finished it (offline expansion)
        event('data-db-1', 'Resizing', '2026-11-25T10:00:00Z'),
        event('data-db-1', 'FileSystemResizeSuccessful', '2026-11-25T10:01:00Z'),
        // data-db-2: still resizing, nothing to measure; another set's claim and a pod's event are not ours
        event('data-db-2', 'Resizing', '2026-11-25T10:30:00Z'),
        event('data-other-0', 'Resizing', '2026-11-25T10:00:00Z'),
        event('data-other-0', 'VolumeResizeSuccessful', '2026-11-25T10:00:05Z'),
        event('data-db-2', 'VolumeResizeSuccessful', '2026-11-25T10:40:00Z', '2026-11-25T10:40:00Z', 'Pod'),
      ],
    );
    assert.deepEqual(learned, { samples: [39.5, 40, 40.5, 59.5, 60, 60.5], source: 'Resizing → VolumeResizeSuccessful events of 2 claims, ±0.5 s' });
  });

  it('without such Events: the simulator\'s default, said so', () => {
    assert.deepEqual(learnExpansion([claim('data-db-0')], []), { samples: [10], source: "the simulator's default (10 s): no Resizing → VolumeResizeSuccessful events to learn from" });
  });
});
