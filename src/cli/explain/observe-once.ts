// The planner's input for one set, read once: the runtime's own informers list pods, claims and revisions
// of the set's namespace and the runtime's `observe` picks what the controller would pick, so `why` and
// `plan` see exactly what a sync would see (there is no second builder to drift from the controller's).

import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { isForbidden } from '../../api/errors.js';
import type { Features } from '../../api/features.js';
import type { ControllerRevision, KubeObject, Node, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet, StorageClass } from '../../api/types.js';
import type { ObservedState } from '../../controller/replica/observed-state.js';
import type { Timers } from '../../runtime/clock.js';
import { respectsBudgets } from '../../controller/model/spec.js';
import { Informer } from '../../runtime/informer.js';
import { noopLogger } from '../../runtime/logging-port.js';
import { observe } from '../../runtime/observe.js';
import { movesByZone } from '../../runtime/node-zones.js';

export class ObserveError extends Error {
  override name = 'ObserveError';
}

/**
 * A list error handler that turns a reflector's first failed list into a rejection: a reflector retries
 * forever, but a command should report the error (Forbidden, NotFound, no connection) and stop. The class
 * name in front of the message is noise to a user.
 */
export function failFast(resource: string, reject: (e: Error) => void): (err: unknown) => void {
  return (err) => {
    const cause = (err instanceof Error ? err.message : String(err)).replace(/^[A-Za-z]*Error: /, '');
    reject(new ObserveError(`cannot list ${resource}: ${cause}`));
  };
}

/**
 * An InPlace set's StorageClasses are read when the user may list them; without that permission the plan
 * leaves expansion to the API server, as the controller does when it does not observe them.
 */
async function readsStorageClasses(client: ClusterClient, set: StatefulSet): Promise<boolean> {
  if (set.spec.volumeClaimUpdatePolicy !== 'InPlace') return false;
  try {
    await client.list(Resources.storageClasses, undefined);
    return true;
  } catch (e) {
    if (isForbidden(e)) return false;
    throw e;
  }
}

/**
 * Lists (and briefly watches) the namespace of `set`, then stops; rejects with ObserveError if a list fails.
 * The observed set is defaulted with `features`, as the controller's is.
 */
export async function observeOnce(client: ClusterClient, timers: Timers, set: StatefulSet, features: Features): Promise<ObservedState> {
  const namespace = set.metadata.namespace ?? 'default';
  let fail: (e: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const common = { client, timers, namespaces: [namespace], random: () => 0.5, logger: noopLogger };
  const { namespaces: _, ...clusterScoped } = common;
  const reading = (resource: Resource) => ({ resource, onListError: failFast(resource.plural, (e) => fail(e)) });
  const caches = {
    pods: new Informer<Pod>({ ...common, ...reading(Resources.pods) }),
    claims: new Informer<PersistentVolumeClaim>({ ...common, ...reading(Resources.persistentVolumeClaims) }),
    revisions: new Informer<ControllerRevision>({ ...common, ...reading(Resources.controllerRevisions) }),
    // only an InPlace set's claims depend on their StorageClass, and only then is the cluster-wide read needed
    ...((await readsStorageClasses(client, set)) ? { storageClasses: new Informer<StorageClass>({ ...clusterScoped, ...reading(Resources.storageClasses) }) } : {}),
    // a set that respects PodDisruptionBudgets waits on them: without them the plan would show deletions the controller does not make
    ...(respectsBudgets(set) ? { podDisruptionBudgets: new Informer<PodDisruptionBudget>({ ...common, ...reading(Resources.podDisruptionBudgets) }) } : {}),
    // a set that moves by zone reads its pods' zones from their nodes: without them every pod's zone would be unknown
    ...(movesByZone(set) ? { nodes: new Informer<Node>({ ...clusterScoped, ...reading(Resources.nodes) }) } : {}),
  };
  const optional = [caches.storageClasses, caches.podDisruptionBudgets, caches.nodes].filter((i) => i !== undefined);
  const all = [caches.pods, caches.claims, caches.revisions, ...optional] as Informer<KubeObject>[];
  try {
    for (const informer of all) informer.start();
    await Promise.race([Promise.all(all.map((i) => i.waitForSync())), failed]);
    return observe(set, caches, features);
  } finally {
    for (const informer of all) informer.stop();
  }
}
