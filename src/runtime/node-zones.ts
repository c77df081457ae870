// Nodes for sets with rollingUpdate.topologyKey: the planner reads a pod's zone from the labels of its node,
// which the controller watches (cluster-scoped, list and watch only) and hands over in the observed state; a
// node whose labels change brings the sets that move by zone back to sync.

import type { Node, StatefulSet } from '../api/types.js';
import { deepEqual } from '../api/validation/json.js';
import type { Informer } from './informer.js';
import type { SetTargets } from './set-targets.js';

/** Whether the set's rolling update moves one zone at a time. */
export const movesByZone = (set: StatefulSet): boolean => (set.spec.updateStrategy?.rollingUpdate?.topologyKey ?? '') !== '';

/** Every observed node's labels, by node name. */
export function nodeLabelsOf(nodes: Informer<Node>): Map<string, Readonly<Record<string, string>>> {
  return new Map(nodes.list().map((n) => [n.metadata.name ?? '', n.metadata.labels ?? {}]));
}

/** Keys of every set that moves by zone: a node's zone may be any pod's. */
export function keysForNode(targets: SetTargets): string[] {
  return targets
    .setsIn(undefined)
    .filter(({ set }) => movesByZone(set))
    .map(({ key }) => key);
}

/** Only a change of labels matters (a node's status changes every few seconds). */
export const nodeLabelsChanged = (a: Node, b: Node): boolean => !deepEqual(a.metadata.labels ?? {}, b.metadata.labels ?? {});
