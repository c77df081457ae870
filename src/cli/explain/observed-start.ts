// What a live cluster holds of one set, as the start of a forecast's runs (sim/start-state.ts): the set, its
// pods, revisions and claims as they are, the cluster's StorageClasses (how its claims can grow) and, for a
// set that respects them, its namespace's PodDisruptionBudgets, so that no run has to create the set first;
// and, for a set with claims, how long its claims took to grow.

import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { isForbidden } from '../../api/errors.js';
import type { Instant, KubeEvent, KubeObject, Node, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import { claimOrdinal, claimTemplates } from '../../controller/model/claim-identity.js';
import type { LearnedSeconds } from '../../sim/learned-durations.js';
import type { StartState } from '../../sim/simulation.js';
import { respectsBudgets } from '../../controller/model/spec.js';
import { movesByZone } from '../../runtime/node-zones.js';
import { setHistory } from '../rollout/rollout-history.js';

/** The cluster's StorageClasses; none when the user may not list them (the simulated API server then refuses to grow a claim, for want of its class). */
async function storageClassesOf(client: ClusterClient): Promise<KubeObject[]> {
  try {
    return (await client.list(Resources.storageClasses, undefined)).items;
  } catch (e) {
    if (isForbidden(e)) return [];
    throw e;
  }
}

export interface ObservedStart {
  from: StartState;
  /** Claims' expansion times, for a set with claim templates (sim/learned-expansion.ts). */
  expansion?: LearnedSeconds;
}

/**
 * A set that moves by zone (rollingUpdate.topologyKey): the Nodes its pods run on, as scenario Node objects
 * (name and labels; a node the cluster no longer has, or that the user may not read, without labels), so
 * that each run's kubelet runs them and the pods keep their zones. Empty for any other set.
 */
export async function podNodes(client: ClusterClient, set: StatefulSet, pods: readonly Pod[]): Promise<KubeObject[]> {
  const names = [...new Set(pods.flatMap((p) => (p.spec?.nodeName ? [p.spec.nodeName] : [])))].sort();
  if (!movesByZone(set) || names.length === 0) return [];
  let labels = new Map<string, Record<string, string>>();
  try {
    labels = new Map((await client.list<Node>(Resources.nodes, undefined)).items.map((n) => [n.metadata.name ?? '', n.metadata.labels ?? {}]));
  } catch (e) {
    if (!isForbidden(e)) throw e;
  }
  return names.map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: labels.get(name) ?? {} } }));
}

/** `set` (stored under `resource`) with `pods`, its revisions and claims, observed at `now`; pods on `nodes` stay there. */
export async function observedStart(client: ClusterClient, resource: Resource, set: StatefulSet, pods: readonly Pod[], now: Instant, nodes: readonly KubeObject[] = []): Promise<ObservedStart> {
  const namespace = set.metadata.namespace ?? 'default';
  const templates = claimTemplates(set);
  const claims =
    templates.length === 0
      ? []
      : (await client.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, namespace)).items.filter((c) => templates.some((t) => claimOrdinal(set, t, c.metadata.name ?? '') !== undefined));
  const [{ observedState }, { learnExpansion }] = await Promise.all([import('../../sim/start-state.js'), import('../../sim/learned-expansion.js')]);
  const expansion = templates.length > 0 ? learnExpansion(claims, (await client.list<KubeEvent>(Resources.events, namespace)).items) : undefined;
  const from = observedState(
    [
      ...(templates.length > 0 ? (await storageClassesOf(client)).map((object) => ({ resource: Resources.storageClasses, object })) : []),
      { resource, object: set },
      ...(await setHistory(client, set)).map((object) => ({ resource: Resources.controllerRevisions, object })),
      ...claims.map((object) => ({ resource: Resources.persistentVolumeClaims, object })),
      ...pods.map((object) => ({ resource: Resources.pods, object })),
      // a budget counts only these pods in the runs (the set's): one that also selects other pods allows less there
      ...(respectsBudgets(set) ? (await client.list(Resources.podDisruptionBudgets, namespace)).items.map((object) => ({ resource: Resources.podDisruptionBudgets, object })) : []),
    ],
    now,
    new Set(nodes.map((n) => n.metadata.name ?? '')),
  );
  return { from, ...(expansion ? { expansion } : {}) };
}
