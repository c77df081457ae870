// Where the simulated kubelet binds a pod among several nodes: spread over zones, then nodes, per owner, a tie
// broken by the injected PRNG.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import { placePod, ZONE_LABEL, type SimNode } from '../../src/cluster/kubelet/placement.js';

const node = (name: string, zone?: string): SimNode => ({ name, labels: zone === undefined ? {} : { [ZONE_LABEL]: zone } });
const NODES = [node('a1', 'a'), node('a2', 'a'), node('b1', 'b'), node('c1', 'c')];

function podOf(name: string, owner = 'set-uid', terminating = false): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, uid: `uid-${name}`, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: owner, controller: true }], ...(terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { containers: [] },
  };
}

describe('placePod', () => {
  it('takes the zone with fewest pods of the same owner, then its node with fewest', () => {
    const placed = [
      { pod: podOf('db-0'), node: 'a1' },
      { pod: podOf('db-1'), node: 'b1' },
      { pod: podOf('db-2'), node: 'c1' },
    ];
    // every zone holds one pod: a2 is the one node of a tied zone without a pod
    assert.equal(placePod(podOf('db-3'), NODES, placed, () => 0), 'a2');
    // with db-3 on a2 zone a holds two: b or c, the PRNG choosing
    const more = [...placed, { pod: podOf('db-3'), node: 'a2' }];
    assert.equal(placePod(podOf('db-4'), NODES, more, () => 0), 'b1');
    assert.equal(placePod(podOf('db-4'), NODES, more, () => 0.99), 'c1');
  });

  it('leaves out other owners, terminating pods and the pod itself', () => {
    const placed = [
      { pod: podOf('other-0', 'other'), node: 'b1' },
      { pod: podOf('other-1', 'other'), node: 'c1' },
      { pod: podOf('db-0', 'set-uid', true), node: 'b1' },
      { pod: podOf('db-1'), node: 'a1' },
      { pod: podOf('db-2'), node: 'b1' },
    ];
    assert.equal(placePod(podOf('db-2'), NODES, placed, () => 0), 'b1');
  });

  it('counts a node without the zone label as a zone of its own', () => {
    const placed = [{ pod: podOf('db-0'), node: 'a1' }];
    assert.equal(placePod(podOf('db-1'), [node('a1', 'a'), node('a2', 'a'), node('bare')], placed, () => 0.99), 'bare');
  });
});
