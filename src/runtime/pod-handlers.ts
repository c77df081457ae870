// Which sets a pod event concerns (upstream §3.1): a controlled pod → its owner; an orphan → every set
// whose selector matches it, so the set can adopt it. Pure functions over the set caches.

import { selectorMatches } from '../api/labels.js';
import type { LabelSelector, Pod } from '../api/types.js';
import { controllerRefOf, type SetTargets } from './set-targets.js';

const isEmptySelector = (sel: LabelSelector | undefined): boolean =>
  sel === undefined || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);

/** Keys of the sets an orphan pod could belong to; an empty selector matches no orphan. */
// upstream: stateful_set.go getStatefulSetsForPod / StatefulSetLister.GetPodStatefulSets
export function setsMatchingOrphan(targets: SetTargets, pod: Pod): string[] {
  return targets
    .setsIn(pod.metadata.namespace)
    .filter(({ set }) => !isEmptySelector(set.spec.selector) && selectorMatches(set.spec.selector, pod.metadata.labels))
    .map(({ key }) => key);
}

/** upstream: stateful_set.go addPod (a terminating pod is handled as a deletion). */
export function keysForPodAdd(targets: SetTargets, pod: Pod): string[] {
  if (pod.metadata.deletionTimestamp) return keysForPodDelete(targets, pod);
  const ref = controllerRefOf(pod);
  if (ref !== undefined) {
    const key = targets.resolve(pod.metadata.namespace, ref);
    return key === undefined ? [] : [key];
  }
  return setsMatchingOrphan(targets, pod);
}

const sameLabels = (a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean => {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => a?.[k] === b?.[k]);
};

/** upstream: stateful_set.go updatePod (same resourceVersion = a resync: nothing to do). */
export function keysForPodUpdate(targets: SetTargets, oldPod: Pod, curPod: Pod): string[] {
  if (oldPod.metadata.resourceVersion === curPod.metadata.resourceVersion) return [];
  const ns = curPod.metadata.namespace;
  const oldRef = controllerRefOf(oldPod);
  const curRef = controllerRefOf(curPod);
  const refChanged = oldRef?.uid !== curRef?.uid;
  const keys: string[] = [];
  if (refChanged && oldRef !== undefined) keys.push(...keysOf(targets.resolve(ns, oldRef)));
  if (curRef !== undefined) return unique([...keys, ...keysOf(targets.resolve(ns, curRef))]);
  if (refChanged || !sameLabels(oldPod.metadata.labels, curPod.metadata.labels)) keys.push(...setsMatchingOrphan(targets, curPod));
  return unique(keys);
}

/** upstream: stateful_set.go deletePod (tombstones carry the last known pod). */
export function keysForPodDelete(targets: SetTargets, pod: Pod): string[] {
  return keysOf(targets.resolve(pod.metadata.namespace, controllerRefOf(pod)));
}

const keysOf = (key: string | undefined): string[] => (key === undefined ? [] : [key]);
const unique = (keys: string[]): string[] => [...new Set(keys)];
