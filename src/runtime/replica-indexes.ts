// One replica index (controller/replica-index.ts) per StatefulSet, kept current from the pod and claim
// informers' deltas, as client-go keeps an indexer beside its cache: a sync hands the planner its set's index
// instead of listing the set's pods. An index is built from the caches the first time its set syncs; from
// then on every delta reaches it. Its handlers are registered before the informers start.

import type { KubeObject, PersistentVolumeClaim, Pod, StatefulSet } from '../api/types.js';
import { claimOrdinal, claimTemplates } from '../controller/model/claim-identity.js';
import { PodFactsCache } from '../controller/replica/pod-facts.js';
import { ReplicaIndex } from '../controller/replica/replica-index.js';
import type { Informer } from './informer.js';
import { CONTROLLER_INDEX, controllerIndex, ownerValue } from './observe.js';
import { controllerRefOf } from './set-targets.js';

interface Entry {
  index: ReplicaIndex;
  namespace: string;
  /** The set as it last synced: which claims are its own. */
  set: StatefulSet;
}

const ownsClaim = (set: StatefulSet, name: string): boolean => claimTemplates(set).some((t) => claimOrdinal(set, t, name) !== undefined);

export class ReplicaIndexes {
  /** By the set's UID (pods name their controller by UID). */
  private readonly bySet = new Map<string, Entry>();
  /** One cache of pod facts for every index: a pod object's facts are worked out once. */
  private readonly facts = new PodFactsCache();

  constructor(
    private readonly pods: Informer<Pod>,
    private readonly claims: Informer<PersistentVolumeClaim>,
  ) {}

  /** Routes the informers' deltas to the indexes; call before the informers start. Returns the removers. */
  register(): (() => void)[] {
    this.pods.addIndex(CONTROLLER_INDEX, controllerIndex);
    const pod = (p: Pod) => this.bySet.get(controllerRefOf(p)?.uid ?? '')?.index;
    const claimed = (c: PersistentVolumeClaim): ReplicaIndex[] => {
      const name = c.metadata.name ?? '';
      const ns = c.metadata.namespace ?? '';
      return [...this.bySet.values()].filter((e) => e.namespace === ns && ownsClaim(e.set, name)).map((e) => e.index);
    };
    return [
      this.pods.addHandler({
        onAdd: (p) => pod(p)?.putPod(p),
        onUpdate: (a, b) => {
          const before = pod(a);
          const after = pod(b);
          // a pod whose controller changed moves between indexes
          if (before !== after) before?.removePod(a);
          after?.putPod(b);
        },
        onDelete: (p) => pod(p)?.removePod(p),
      }),
      this.claims.addHandler({
        onAdd: (c) => claimed(c).forEach((i) => i.putClaim(c)),
        onUpdate: (_a, b) => claimed(b).forEach((i) => i.putClaim(b)),
        onDelete: (c) => claimed(c).forEach((i) => i.removeClaim(c)),
      }),
    ];
  }

  /** The index of `set` (defaulted), built from the caches the first time. */
  forSet(set: StatefulSet): ReplicaIndex {
    const uid = set.metadata.uid ?? '';
    const known = this.bySet.get(uid);
    if (known !== undefined) {
      known.set = set;
      return known.index.forSet(set);
    }
    const namespace = set.metadata.namespace ?? '';
    const owned = this.pods.byIndex(CONTROLLER_INDEX, ownerValue(uid)).filter((p) => (p.metadata.namespace ?? '') === namespace);
    const claims = claimTemplates(set).length === 0 ? [] : this.claims.list(namespace, (c) => ownsClaim(set, c.metadata.name ?? ''));
    const index = ReplicaIndex.of(set, owned, claims, this.facts);
    this.bySet.set(uid, { index, namespace, set });
    return index;
  }

  /** Drops the index of a set that is gone. */
  forget(set: KubeObject): void {
    this.bySet.delete(set.metadata.uid ?? '');
  }
}
