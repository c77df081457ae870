// Where the simulated kubelet binds a pod when it runs several nodes: roughly what kube-scheduler's default
// topology spread does for a workload's pods (the default constraints spread them over zones, then over
// nodes): the zone holding fewest pods of the same owner, then its node holding fewest, a tie broken by the
// injected PRNG so a seed gives the same placement every run.
// upstream: pkg/scheduler/framework/plugins/podtopologyspread (systemDefaultConstraints)

import { controllerRefOf } from '../../api/controller-ref.js';
import type { Pod } from '../../api/types.js';
import type { Random } from '../../runtime/random.js';

/** The label the spread reads, as the scheduler's default constraints do. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** A node the kubelet runs: its name and labels (its zone: ZONE_LABEL; a node without it is a zone of its own). */
export interface SimNode {
  name: string;
  labels: Readonly<Record<string, string>>;
}

const zoneOf = (node: SimNode): string => node.labels[ZONE_LABEL] ?? `node:${node.name}`;

/**
 * The node for `pod`, given where the other pods are (each with the node it runs on or is being bound to);
 * pods of the same controller (or, without one, every pod without one) count, terminating ones do not.
 */
export function placePod(pod: Pod, nodes: readonly SimNode[], placed: Iterable<{ pod: Pod; node: string }>, random: Random): string {
  const owner = controllerRefOf(pod)?.uid;
  const perNode = new Map<string, number>();
  for (const p of placed) {
    if (p.pod.metadata.uid === pod.metadata.uid || p.pod.metadata.deletionTimestamp !== undefined || controllerRefOf(p.pod)?.uid !== owner) continue;
    perNode.set(p.node, (perNode.get(p.node) ?? 0) + 1);
  }
  const perZone = new Map<string, number>();
  for (const n of nodes) perZone.set(zoneOf(n), (perZone.get(zoneOf(n)) ?? 0) + (perNode.get(n.name) ?? 0));
  const cost = (n: SimNode): [number, number] => [perZone.get(zoneOf(n)) ?? 0, perNode.get(n.name) ?? 0];
  let best: SimNode[] = [];
  for (const n of nodes) {
    const [z, c] = cost(n);
    const [bz, bc] = best[0] === undefined ? [Infinity, Infinity] : cost(best[0]);
    if (z < bz || (z === bz && c < bc)) best = [n];
    else if (z === bz && c === bc) best.push(n);
  }
  const chosen = best[Math.min(best.length - 1, Math.floor(random() * best.length))];
  if (chosen === undefined) throw new Error('placePod: no node to place a pod on');
  return chosen.name;
}
