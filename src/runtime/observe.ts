// The planner's input, read from the informer caches (never from the API): what upstream's sync gathers
// from its listers before calling UpdateStatefulSet.

import { defaultStatefulSet } from '../api/defaults.js';
import { defaultFeatures, type Features } from '../api/features.js';
import { cloneJson } from '../api/validation/json.js';
import { selectorMatches } from '../api/labels.js';
import type { ControllerRevision, KubeObject, Node, PersistentVolumeClaim, Pod, PodDisruptionBudget, StatefulSet, StorageClass } from '../api/types.js';
import { respectsBudgets } from '../controller/disruption-budget.js';
import { budgetsOf } from './disruption-budgets.js';
import type { InFlightDisruptions } from './in-flight-disruptions.js';
import { movesByZone, nodeLabelsOf } from './node-zones.js';
import type { AnalysisResult, ObservedState } from '../controller/plan-types.js';
import type { Informer } from './informer.js';
import type { ReplicaIndexes } from './replica-indexes.js';
import type { DurationLearner } from './duration-learner.js';
import type { ObservedDurations } from '../controller/learned-durations.js';
import { controllerRefOf } from './set-targets.js';

export interface Caches {
  pods: Informer<Pod>;
  claims: Informer<PersistentVolumeClaim>;
  revisions: Informer<ControllerRevision>;
  /** Cluster-scoped; watched where InPlace sets may exist (apps.ordinal.dev/v1). */
  storageClasses?: Informer<StorageClass>;
  /** Watched where sets may respect PodDisruptionBudgets (apps.ordinal.dev/v1). */
  podDisruptionBudgets?: Informer<PodDisruptionBudget>;
  /** Cluster-scoped; watched where sets may move by zone (rollingUpdate.topologyKey, apps.ordinal.dev/v1). */
  nodes?: Informer<Node>;
}

/**
 * Pods and revisions by controller: the owner's UID, or `orphan/<namespace>` for objects without one (the
 * adoption candidates), so a sync reads its own objects instead of listing the namespace.
 */
export const CONTROLLER_INDEX = 'controller';
export const ownerValue = (uid: string | undefined): string => (uid === undefined ? 'uid?' : `uid/${uid}`);
export const controllerIndex = (obj: KubeObject): readonly string[] => {
  const ref = controllerRefOf(obj);
  return [ref === undefined ? `orphan/${obj.metadata.namespace ?? ''}` : ownerValue(ref.uid)];
};

/** Controlled by the set, or by no controller at all (an adoption candidate), sorted by name. */
function ownedOrOrphan<T extends Pod | ControllerRevision>(informer: Informer<T>, set: StatefulSet, orphans: (obj: T) => boolean): T[] {
  informer.addIndex(CONTROLLER_INDEX, controllerIndex);
  const ns = set.metadata.namespace ?? '';
  const owned = informer.byIndex(CONTROLLER_INDEX, ownerValue(set.metadata.uid)).filter((o) => (o.metadata.namespace ?? '') === ns);
  const candidates = informer.byIndex(CONTROLLER_INDEX, `orphan/${ns}`).filter(orphans);
  return mergeByName(owned, candidates);
}

/** Pods of the set's namespace without a controller: the adoption candidates. */
function orphans(informer: Informer<Pod>, set: StatefulSet): Pod[] {
  informer.addIndex(CONTROLLER_INDEX, controllerIndex);
  return informer.byIndex(CONTROLLER_INDEX, `orphan/${set.metadata.namespace ?? ''}`);
}

/** Merges two lists sorted by name (one namespace) into one. */
function mergeByName<T extends KubeObject>(a: T[], b: T[]): T[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i]!.metadata.name ?? '') <= (b[j]!.metadata.name ?? '') ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Claim names the set's templates produce: `<template>-<set>-<ordinal>`. */
const claimPrefixes = (set: StatefulSet): string[] =>
  (set.spec.volumeClaimTemplates ?? []).map((t) => `${t.metadata.name ?? ''}-${set.metadata.name ?? ''}-`);

/**
 * Defaulted copies of observed sets, kept by one controller (never module state). Cached objects are never
 * mutated, so the defaulted copy of one cached set is reused by every sync until the set changes: the
 * planner's memoised revision work (api/revision/hash.ts) is keyed by its identity. A status write makes a new
 * cached object with the same spec: its defaulted spec is the previous one's (same UID, same spec text), so
 * the template keeps its identity and the planner's template memo hits.
 */
export class SetDefaults {
  private readonly bySet = new WeakMap<StatefulSet, { features: Features; set: StatefulSet }>();
  private readonly byUid = new Map<string, { features: Features; specJson: string; spec: StatefulSet['spec'] }>();

  of(stored: StatefulSet, features: Features): StatefulSet {
    const known = this.bySet.get(stored);
    if (known !== undefined && known.features === features) return known.set;
    const set = this.reuseSpec(stored, features) ?? defaultStatefulSet(stored, features);
    this.bySet.set(stored, { features, set });
    return set;
  }

  /** Drops what is kept for a set that is gone. */
  forget(uid: string | undefined): void {
    if (uid !== undefined) this.byUid.delete(uid);
  }

  private reuseSpec(stored: StatefulSet, features: Features): StatefulSet | undefined {
    const uid = stored.metadata?.uid;
    if (typeof uid !== 'string' || uid === '') return undefined;
    const specJson = JSON.stringify(stored.spec ?? null);
    const prev = this.byUid.get(uid);
    if (prev !== undefined && prev.features === features && prev.specJson === specJson) {
      // defaulting changes only the spec; the rest is copied as defaultStatefulSet copies it (key order kept)
      const out = cloneJson({ ...stored, spec: null });
      return Object.assign(out, { spec: prev.spec }) as StatefulSet;
    }
    const set = defaultStatefulSet(stored, features);
    this.byUid.set(uid, { features, specJson, spec: set.spec });
    return set;
  }
}

/** What a controller keeps between syncs to observe a set cheaply: its defaulted copies and replica indexes. */
export interface ObserveMemo {
  defaults: SetDefaults;
  indexes?: ReplicaIndexes;
  /** The set's pods' durations as learned from the pod informer (SlowerThanForecast, `progressDeadlineSeconds: auto`). */
  durations?: DurationLearner;
  /** The HTTP checks of staged rollouts' analysis steps made so far (analysis-prober.ts). */
  analysis?: { results(set: StatefulSet): readonly AnalysisResult[] };
  /** The process's pod disruptions under PodDisruptionBudgets that the caches do not show yet, for every set. */
  disruptions?: InFlightDisruptions;
}

const withDurations = (durations: ObservedDurations | undefined): { durations?: ObservedDurations } => (durations === undefined ? {} : { durations });

const withResults = (results: readonly AnalysisResult[] | undefined): { analysisResults?: readonly AnalysisResult[] } =>
  results === undefined || results.length === 0 ? {} : { analysisResults: results };

/**
 * The set is defaulted here because a CRD stores the pod template as written (kube-apiserver applies core
 * pod defaults only to apps/v1): without this, the revision hash of the same template would differ between
 * apps/v1 and apps.ordinal.dev/v1 and moving a set between them would roll its pods. Idempotent on apps/v1.
 */
// upstream: stateful_set.go sync (getPodsForStatefulSet, ListControllerRevisions, the PVC lister)
export function observe(stored: StatefulSet, caches: Caches, features: Features = defaultFeatures(), memo: ObserveMemo = { defaults: new SetDefaults() }): ObservedState {
  const set = memo.defaults.of(stored, features);
  const indexes = memo.indexes;
  const ns = set.metadata.namespace ?? '';
  const prefixes = claimPrefixes(set);
  // with the controller's indexes, the set's own pods and claims are its index; the pods listed are the orphans
  const replicas = indexes?.forSet(set);
  return {
    set,
    ...(replicas === undefined
      ? {
          pods: ownedOrOrphan(caches.pods, set, () => true),
          claims: prefixes.length === 0 ? [] : caches.claims.list(ns, (c) => prefixes.some((p) => c.metadata.name?.startsWith(p))),
        }
      : { pods: orphans(caches.pods, set), claims: [], replicas }),
    revisions: ownedOrOrphan(caches.revisions, set, (r) => selectorMatches(set.spec.selector, r.metadata.labels)),
    ...(set.spec.volumeClaimUpdatePolicy === 'InPlace' && caches.storageClasses ? { storageClasses: caches.storageClasses.list() } : {}),
    ...withDurations(memo.durations?.of(set)),
    ...withResults(memo.analysis?.results(stored)),
    ...(respectsBudgets(set) && caches.podDisruptionBudgets ? { disruptionBudgets: budgetsOf(set, caches.podDisruptionBudgets, caches.pods, memo.disruptions) } : {}),
    ...(movesByZone(set) && caches.nodes ? { nodeLabels: nodeLabelsOf(caches.nodes) } : {}),
  };
}
