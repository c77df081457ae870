// The requests each node's pods hold (resize.ts heldRequests), kept up to date as the kubelet's pods come,
// change and go, so admitting a resize reads one total instead of summing every other pod on the node.
// Requests are whole millicores and bytes (scaledQuantity rounds up), so adding and subtracting is exact.

import type { PodRequests } from '../../api/pod-resources.js';
import type { Pod } from '../../api/types.js';
import type { WorkCounters } from '../../runtime/work-counters.js';
import { heldRequests } from './resize.js';

interface Held extends PodRequests {
  node: string;
}

/** Failed and Succeeded pods never run again (restartPolicy aside): they hold nothing. */
export const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

export class NodeRequests {
  private readonly byPod = new Map<string, Held>();
  private readonly byNode = new Map<string, PodRequests>();

  constructor(private readonly counters?: WorkCounters) {}

  /** The pod (by UID) now is `pod`: a pod bound to a node and not terminal holds its requests there. */
  set(uid: string, pod: Pod): void {
    this.remove(uid);
    const node = pod.spec?.nodeName;
    if (!node || isTerminal(pod)) return;
    this.counters?.count('kubelet.heldRequests');
    const held = { ...heldRequests(pod), node };
    this.byPod.set(uid, held);
    const total = this.byNode.get(node) ?? { cpuMilli: 0, memoryBytes: 0 };
    this.byNode.set(node, { cpuMilli: total.cpuMilli + held.cpuMilli, memoryBytes: total.memoryBytes + held.memoryBytes });
  }

  /** The pod is gone: its requests are free. */
  remove(uid: string): void {
    const held = this.byPod.get(uid);
    if (held === undefined) return;
    this.byPod.delete(uid);
    const total = this.byNode.get(held.node) ?? { cpuMilli: 0, memoryBytes: 0 };
    this.byNode.set(held.node, { cpuMilli: total.cpuMilli - held.cpuMilli, memoryBytes: total.memoryBytes - held.memoryBytes });
  }

  /** What the other pods on `node` hold, apart from the pod `uid`. */
  others(node: string, uid: string): PodRequests {
    const total = this.byNode.get(node) ?? { cpuMilli: 0, memoryBytes: 0 };
    const own = this.byPod.get(uid);
    if (own === undefined || own.node !== node) return { ...total };
    return { cpuMilli: total.cpuMilli - own.cpuMilli, memoryBytes: total.memoryBytes - own.memoryBytes };
  }
}
