// One view of a set's replicas, kept current from what changed: the set's pods by ordinal with their replica
// records (replica.ts: pod facts, claims, in-place move, availability) and the classes every phase of a sync
// asks about — by revision, terminating, down, in need of repair, not yet available — so a sync reads the
// pods that matter instead of every pod. The runtime keeps
// one per set from its informers' deltas (client-go's indexers are the anchor); `why`, `plan`, the tests and
// the simulator's checks build one from a list of pods. Both answer every query the same way: the planner
// is a pure function of (index, claims, revisions, now).
//
// Classes are kept for one *shape* of the set (what the classes are relative to: its name, namespace,
// selector, claim templates, minReadySeconds, retention policy, how its claims and pods move): a sync with
// another shape rebuilds them.

import { selectorRequirements, requirementMatches } from '../../api/labels.js';
import type { Instant, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import { claimNameFor, claimOrdinal, claimsFollowRetention, claimTemplates } from '../model/claim-identity.js';
import { identityMatches, storageMatches } from '../model/identity.js';
import { OrdinalSet } from '../model/ordinal-set.js';
import { minReadySecondsOf, podUpdatePolicyOf, retentionPolicyOf, slotCountOf, startOrdinal } from '../model/spec.js';
import { TimedSet } from '../model/timed-set.js';
import { PodFactsCache, type PodFacts } from './pod-facts.js';
import { replicaRules, toReplica, type Replica, type ReplicaRules } from './replica.js';

/** What the classes of a set's pods are relative to. */
function shapeKey(set: StatefulSet): string {
  const { uid, name, namespace } = set.metadata;
  const policy = retentionPolicyOf(set);
  // whether a claim's owner references are right depends on the ordinal range only when scale-down deletes claims
  const range = policy.whenScaled === 'Delete' ? [startOrdinal(set), slotCountOf(set)] : null;
  return JSON.stringify([
    name ?? '',
    namespace ?? '',
    uid ?? '',
    set.spec.selector ?? null,
    claimTemplates(set).map((t) => t.metadata?.name ?? ''),
    minReadySecondsOf(set),
    policy,
    range,
    set.spec.volumeClaimUpdatePolicy ?? null,
    podUpdatePolicyOf(set),
  ]);
}

/** The set's selector compiled once per shape; a nil or invalid selector matches nothing (as selectorMatches). */
function selects(set: StatefulSet): (labels: Readonly<Record<string, string>> | undefined) => boolean {
  try {
    const reqs = selectorRequirements(set.spec.selector);
    if (reqs === null) return () => false;
    return (labels) => reqs.every((r) => requirementMatches(r, labels ?? {}));
  } catch {
    return () => false;
  }
}

interface Shape {
  key: string;
  set: StatefulSet;
  rules: ReplicaRules;
  matches: (labels: Readonly<Record<string, string>> | undefined) => boolean;
}

export class ReplicaIndex {
  private readonly facts: PodFactsCache;
  /** Every pod given, by name. */
  private readonly pods = new Map<string, PodFacts>();
  /** Claims whose names a claim template of the set produces, by name. */
  private readonly claims = new Map<string, PersistentVolumeClaim>();
  private shape: Shape | undefined;

  // --- classes, for the shape ---
  /** The replica of each ordinal: of two pods whose names carry one ordinal, the later name (as upstream). */
  private readonly members = new Map<number, Replica>();
  /** Members that lost their ordinal to a later name (upstream keeps them only outside the range). */
  private shadowed: PodFacts[] = [];
  /** Pods that do not match the selector or are not named for the set: released, never counted. */
  private readonly released = new Map<string, PodFacts>();
  /** Pods named for the set whose ordinal is no int32: claimed, but in no slot (upstream's partition skips them). */
  private readonly unslotted = new Map<string, PodFacts>();
  private readonly all = new OrdinalSet();
  private readonly terminatingSet = new OrdinalSet();
  /** Terminating, or not Running and Ready. */
  private readonly downSet = new OrdinalSet();
  private readonly notRunningReadySet = new OrdinalSet();
  /** Phase Pending. */
  private readonly pendingSet = new OrdinalSet();
  /** Phase Failed or Succeeded (replaced by the replica pass). */
  private readonly finishedSet = new OrdinalSet();
  /** Identity, storage or claim owner references to repair. */
  private readonly repairSet = new OrdinalSet();
  private readonly byRevision = new Map<string, OrdinalSet>();
  /** Not Running and Ready and not terminating, by revision (the down pods a rolling update may replace). */
  private readonly notReadyByRevision = new Map<string, OrdinalSet>();
  /**
   * Running and Ready replicas (terminating ones included) that may not be available at some instant, by when
   * they are (replica.ts availableFrom: minReadySeconds, claims settling; +∞ while a claim expands or the pod
   * moves in place).
   */
  private readonly availability = new TimedSet();
  /** Running and Ready but not counted ready (a claim expanding). */
  private readonly notCountedReadySet = new OrdinalSet();
  /** Moving in place (podUpdatePolicy). */
  private readonly movingSet = new OrdinalSet();
  /** inPlaceUpdateStrategy: a readiness gate whose condition is not True (absent, or False: draining). */
  private readonly gateSet = new OrdinalSet();
  /** The latest creation or Ready transition of each member (apps/v1's progress mark). */
  private readonly progress = new TimedSet();

  constructor(facts = new PodFactsCache()) {
    this.facts = facts;
  }

  /** An index of `pods` and `claims` for `set`, built at once (tests, `why`, `plan`, the simulator's checks). */
  static of(set: StatefulSet, pods: readonly Pod[], claims: readonly PersistentVolumeClaim[] = [], facts?: PodFactsCache): ReplicaIndex {
    const index = new ReplicaIndex(facts);
    for (const pod of pods) index.putPod(pod);
    for (const claim of claims) index.putClaim(claim);
    index.forSet(set);
    return index;
  }

  // --- maintenance: the runtime calls these from informer deltas ---

  putPod(pod: Pod): void {
    const name = pod.metadata.name ?? '';
    const before = this.pods.get(name);
    const after = this.facts.of(pod);
    if (before === after) return;
    this.pods.set(name, after);
    if (this.shape === undefined) return;
    if (before !== undefined) this.unclassify(before);
    this.classify(after);
  }

  removePod(pod: Pod): void {
    const name = pod.metadata.name ?? '';
    const before = this.pods.get(name);
    if (before === undefined) return;
    this.pods.delete(name);
    if (this.shape !== undefined) this.unclassify(before);
  }

  putClaim(claim: PersistentVolumeClaim): void {
    const name = claim.metadata.name ?? '';
    this.claims.set(name, claim);
    this.reclassifyClaimOwner(name);
  }

  removeClaim(claim: PersistentVolumeClaim): void {
    const name = claim.metadata.name ?? '';
    if (this.claims.delete(name)) this.reclassifyClaimOwner(name);
  }

  /** The index for `set`'s shape, rebuilding the classes when the shape changed. Returns itself. */
  forSet(set: StatefulSet): this {
    const key = shapeKey(set);
    if (this.shape?.key === key) {
      this.shape.set = set;
      return this;
    }
    this.shape = { key, set, rules: replicaRules(set), matches: selects(set) };
    this.clearClasses();
    // by name, so that of two pods carrying one ordinal the later name wins, as upstream's partition
    for (const f of [...this.pods.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) this.classify(f);
    return this;
  }

  // --- queries ---

  /** The set's selector, compiled once per shape: whether it selects these labels. */
  selects(labels: Readonly<Record<string, string>> | undefined): boolean {
    return this.shape?.matches(labels) ?? false;
  }

  get claimsByName(): ReadonlyMap<string, PersistentVolumeClaim> {
    return this.claims;
  }

  /** Pods to release (owned but no longer matching); in name order. */
  releasable(): PodFacts[] {
    return [...this.released.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Every pod of the index, released ones included (to rebuild it with more pods). */
  allPods(): Pod[] {
    return [...this.pods.values()].map((f) => f.pod);
  }

  /** Claimed pods that no slot holds or counts: shadowed ones and ones whose ordinal is no int32. */
  unslottedMembers(): PodFacts[] {
    return [...this.shadowed, ...this.unslotted.values()];
  }

  /** The revisions a claimed pod is on: the live revisions, which history truncation keeps. */
  liveRevisions(): Set<string> {
    return new Set([...this.byRevision.keys(), ...this.unslottedMembers().map((f) => f.revision)]);
  }

  /** The replica of `ordinal` (its record), if a pod holds it. */
  member(ordinal: number): Replica | undefined {
    return this.members.get(ordinal);
  }

  /** Members that lost their ordinal to a later name, in name order. */
  shadowedMembers(): readonly PodFacts[] {
    return this.shadowed;
  }

  /** Ordinals with a pod. */
  get ordinals(): OrdinalSet {
    return this.all;
  }

  get terminating(): OrdinalSet {
    return this.terminatingSet;
  }

  /** Terminating, or not Running and Ready: unavailable whatever the time. */
  get down(): OrdinalSet {
    return this.downSet;
  }

  /** Phase Pending. */
  get pending(): OrdinalSet {
    return this.pendingSet;
  }

  /** Phase Failed or Succeeded. */
  get finished(): OrdinalSet {
    return this.finishedSet;
  }

  /** Not Running and Ready (terminating or not). */
  get notRunningReady(): OrdinalSet {
    return this.notRunningReadySet;
  }

  /** Identity, storage or claim owner references to repair. */
  get needsRepair(): OrdinalSet {
    return this.repairSet;
  }

  /** Ordinals of the pods labelled with `revision`. */
  onRevision(revision: string): OrdinalSet {
    return this.byRevision.get(revision) ?? EMPTY;
  }

  /** Ordinals of the pods labelled with `revision` that are not Running and Ready and not terminating. */
  notReadyOn(revision: string): OrdinalSet {
    return this.notReadyByRevision.get(revision) ?? EMPTY;
  }

  /** The revisions some pod is on (live revisions for the history). */
  revisions(): string[] {
    return [...this.byRevision.keys()];
  }

  /**
   * Running and Ready replicas (terminating or not) not available at `now` (minReadySeconds, claims, an in-place
   * move), ascending: with `notRunningReady`, every replica availability() says is unavailable.
   */
  notYetAvailable(now: Instant): number[] {
    return this.availability.after(now);
  }

  /** How many Running and Ready replicas are not available at `now`. */
  countNotYetAvailable(now: Instant): number {
    return this.availability.countAfter(now);
  }

  /** The next instant a replica becomes available with no new event. */
  nextAvailableAt(now: Instant): Instant | undefined {
    return this.availability.nextAfter(now);
  }

  /** Running and Ready, but not counted ready (InPlace: a claim expanding). */
  get notCountedReady(): OrdinalSet {
    return this.notCountedReadySet;
  }

  /** Moving in place (podUpdatePolicy). */
  get moving(): OrdinalSet {
    return this.movingSet;
  }

  /** inPlaceUpdateStrategy: pods whose readiness gate's condition is not True (the controller writes it). */
  get gated(): OrdinalSet {
    return this.gateSet;
  }

  /** The latest pod creation or Ready transition among the members (apps/v1's progress mark). */
  lastProgress(): Instant | undefined {
    return this.progress.latest();
  }

  private classes(): OrdinalSet[] {
    return [this.all, this.terminatingSet, this.downSet, this.notRunningReadySet, this.pendingSet, this.finishedSet, this.repairSet, this.notCountedReadySet, this.movingSet, this.gateSet];
  }

  private clearClasses(): void {
    this.members.clear();
    this.shadowed = [];
    this.released.clear();
    this.unslotted.clear();
    for (const s of this.classes()) s.clear();
    this.byRevision.clear();
    this.notReadyByRevision.clear();
    this.availability.clear();
    this.progress.clear();
  }

  private classify(f: PodFacts): void {
    const shape = this.shape as Shape;
    // upstream ClaimPods: the selector and isMemberOf (the name's parent); the ordinal matters only for a slot
    if (f.parent !== (shape.set.metadata.name ?? '') || !shape.matches(f.pod.metadata.labels)) {
      this.released.set(f.name, f);
      return;
    }
    if (f.ordinal < 0) {
      this.unslotted.set(f.name, f);
      return;
    }
    const winner = this.members.get(f.ordinal);
    if (winner !== undefined) {
      // the later name wins the ordinal; the other is shadowed
      if (winner.name > f.name) {
        this.shadow(f);
        return;
      }
      this.unclassifyMember(winner);
      this.shadow(winner);
    }
    this.admit(f);
  }

  /** Makes `f` the member of its ordinal, with its record. */
  private admit(f: PodFacts): void {
    const r = toReplica(f, (this.shape as Shape).rules, this.claimsOf(f.ordinal));
    this.members.set(f.ordinal, r);
    this.addClasses(r);
  }

  /** The observed claims of `ordinal`, when its record reads them (InPlace). */
  private claimsOf(ordinal: number): PersistentVolumeClaim[] {
    const shape = this.shape as Shape;
    if (!shape.rules.claimsInPlace) return [];
    return claimTemplates(shape.set).flatMap((t) => this.claims.get(claimNameFor(shape.set, t, ordinal)) ?? []);
  }

  /** Shadows the pod of `f` (its facts, not a record: a record is rebuilt when it takes an ordinal back). */
  private shadow(f: PodFacts): void {
    const facts = this.pods.get(f.name) ?? f;
    this.shadowed = [...this.shadowed, facts].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  private unclassify(f: PodFacts): void {
    if (this.released.get(f.name) === f) {
      this.released.delete(f.name);
      return;
    }
    if (this.unslotted.get(f.name) === f) {
      this.unslotted.delete(f.name);
      return;
    }
    if (this.shadowed.includes(f)) {
      this.shadowed = this.shadowed.filter((x) => x !== f);
      return;
    }
    const member = this.members.get(f.ordinal);
    if (member === undefined || member.pod !== f.pod) return;
    this.unclassifyMember(member);
    this.members.delete(f.ordinal);
    // a shadowed pod of the same ordinal takes it back (the latest name among them)
    const heir = this.shadowed.filter((x) => x.ordinal === f.ordinal).at(-1);
    if (heir !== undefined) {
      this.shadowed = this.shadowed.filter((x) => x !== heir);
      this.admit(heir);
    }
  }

  private addClasses(f: Replica): void {
    const o = f.ordinal;
    this.all.add(o);
    this.terminatingSet.set(o, f.terminating);
    this.downSet.set(o, f.terminating || !f.runningReady);
    this.notRunningReadySet.set(o, !f.runningReady);
    this.pendingSet.set(o, f.phase === 'Pending');
    this.finishedSet.set(o, f.phase === 'Failed' || f.phase === 'Succeeded');
    this.repairSet.set(o, !this.healthyIdentity(f));
    addTo(this.byRevision, f.revision, o);
    if (!f.runningReady && !f.terminating) addTo(this.notReadyByRevision, f.revision, o);
    if (f.runningReady && f.availableFrom > Number.NEGATIVE_INFINITY) this.availability.set(o, f.availableFrom);
    this.notCountedReadySet.set(o, f.runningReady && !f.countsReady);
    this.movingSet.set(o, f.movingTo !== undefined && !f.terminating);
    this.gateSet.set(o, f.gate !== undefined && f.gate.status !== 'True' && !f.terminating);
    const progress = Math.max(finite(f.created), finite(f.ready ? f.readySince : undefined));
    if (progress !== Number.NEGATIVE_INFINITY) this.progress.set(o, progress);
  }

  private unclassifyMember(f: Replica): void {
    const o = f.ordinal;
    for (const s of this.classes()) s.delete(o);
    removeFrom(this.byRevision, f.revision, o);
    removeFrom(this.notReadyByRevision, f.revision, o);
    this.availability.set(o, undefined);
    this.progress.set(o, undefined);
  }

  /** Identity, storage and claim owner references as the set wants them (upstream processReplica's checks). */
  private healthyIdentity(f: PodFacts): boolean {
    const set = (this.shape as Shape).set;
    return identityMatches(set, f.pod) && storageMatches(set, f.pod) && claimsFollowRetention(set, this.claims, f.pod);
  }

  /** A claim changed: its replica's record (InPlace) and whether its pod needs repair. */
  private reclassifyClaimOwner(claimName: string): void {
    if (this.shape === undefined) return;
    const set = this.shape.set;
    for (const t of claimTemplates(set)) {
      const ordinal = claimOrdinal(set, t, claimName);
      const f = ordinal === undefined ? undefined : this.members.get(ordinal);
      if (f === undefined) continue;
      if (this.shape.rules.claimsInPlace) {
        this.unclassifyMember(f);
        this.admit(f);
      } else this.repairSet.set(f.ordinal, !this.healthyIdentity(f));
    }
  }
}

const EMPTY = new OrdinalSet();

function addTo(sets: Map<string, OrdinalSet>, key: string, o: number): void {
  let set = sets.get(key);
  if (set === undefined) sets.set(key, (set = new OrdinalSet()));
  set.add(o);
}

function removeFrom(sets: Map<string, OrdinalSet>, key: string, o: number): void {
  const set = sets.get(key);
  set?.delete(o);
  if (set !== undefined && set.size === 0) sets.delete(key);
}

/** Every pod an observed state holds: the set's index, if given, and the pods listed (orphans, then). */
export function observedPods(observed: { pods: readonly Pod[]; replicas?: ReplicaIndex }): Pod[] {
  return observed.replicas === undefined ? [...observed.pods] : [...observed.replicas.allPods(), ...observed.pods];
}
const finite = (t: Instant | undefined): number => (t !== undefined && Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY);
