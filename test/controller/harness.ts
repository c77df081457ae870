// A tiny in-memory world for multi-sync planner tests: it applies a Plan's actions to pods, claims and
// revisions (optionally failing some, with the executor's stop-after-a-failed-batch rule), writes the
// settled status, checks the invariants after every sync, and lets tests play the kubelet.

import assert from 'node:assert/strict';
import type { Features } from '../../src/api/features.js';
import { Labels, PodAnnotations, toTimestamp, type ControllerRevision, type Instant, type PersistentVolumeClaim, type Pod, type StatefulSet } from '../../src/api/types.js';
import { checkPlan, noDuplicateOrdinal } from '../../src/controller/checks/invariants.js';
import { planStatefulSet } from '../../src/controller/plan/plan-statefulset.js';
import type { ObservedDurations } from '../../src/controller/model/learned-durations.js';
import type { Action, AnalysisResult, ObservedDisruptionBudget, Plan } from '../../src/controller/model/plan-types.js';
import type { ObservedState } from '../../src/controller/replica/observed-state.js';
import { podOrdinal, podRevision } from '../../src/controller/model/pod-state.js';
import { settleStatus } from '../../src/runtime/settle-status.js';
import { features as defaultFeatures, SECOND, T0 } from './fixtures.js';

export interface HarnessOptions {
  features?: Features;
  /** Created pods become Running and Ready immediately. */
  autoReady?: boolean;
  /** Terminating pods vanish right after the sync that deleted them. */
  autoDelete?: boolean;
  now?: Instant;
}

export class Harness {
  set: StatefulSet;
  readonly pods = new Map<string, Pod>();
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly revisions = new Map<string, ControllerRevision>();
  now: Instant;
  readonly features: Features;
  readonly plans: Plan[] = [];
  /** Every action that was applied, in order. */
  readonly applied: Action[] = [];
  /** What the runtime would have learned of the set's pods (SlowerThanForecast, `progressDeadlineSeconds: auto`). */
  durations: ObservedDurations | undefined;
  /** The PodDisruptionBudgets the runtime would observe, over the pods as they are (respectPodDisruptionBudgets). */
  budgets: ((pods: Pod[]) => ObservedDisruptionBudget[]) | undefined;
  /** The HTTP checks the runtime made (analysis steps, preUpdate hooks). */
  analysisResults: AnalysisResult[] = [];
  private seq = 0;

  constructor(
    set: StatefulSet,
    readonly opts: HarnessOptions = {},
  ) {
    this.set = structuredClone(set);
    this.now = opts.now ?? T0;
    this.features = opts.features ?? defaultFeatures;
  }

  observed(): ObservedState {
    const pods = [...this.pods.values()].map((p) => structuredClone(p));
    return {
      set: structuredClone(this.set),
      pods,
      claims: [...this.claims.values()].map((c) => structuredClone(c)),
      revisions: [...this.revisions.values()].map((r) => structuredClone(r)),
      ...(this.durations ? { durations: this.durations } : {}),
      ...(this.budgets ? { disruptionBudgets: this.budgets(pods) } : {}),
      ...(this.analysisResults.length > 0 ? { analysisResults: [...this.analysisResults] } : {}),
    };
  }

  /** One sync: plan, apply (failing `fail` actions and every later batch), write the status, check invariants. */
  sync(fail: (a: Action) => boolean = () => false): Plan {
    const observed = this.observed();
    const plan = planStatefulSet(observed, this.now, this.features);
    assert.deepEqual(checkPlan(observed, plan, this.now, this.features), [], 'plan invariants');
    const executed = this.execute(plan, fail);
    const status = settleStatus(plan, executed);
    if (status !== undefined) this.set = { ...this.set, status };
    assert.deepEqual(noDuplicateOrdinal([...this.pods.values()]), [], 'no duplicate ordinal');
    if (this.opts.autoDelete) this.finishTerminating();
    this.plans.push(plan);
    return plan;
  }

  private execute(plan: Plan, fail: (a: Action) => boolean): Set<Action> {
    const executed = new Set<Action>();
    let failedBatch: number | undefined;
    for (const a of plan.actions) {
      const blocked = failedBatch !== undefined && a.batch > failedBatch && a.kind !== 'deleteRevision';
      if (blocked) continue;
      if (fail(a)) {
        // as the executor: a failure that does not stop the sync leaves later batches running
        if (a.continuesOnFailure !== true) failedBatch ??= a.batch;
        continue;
      }
      this.apply(a);
      executed.add(a);
    }
    return executed;
  }

  private apply(a: Action): void {
    this.applied.push(a);
    switch (a.kind) {
      case 'createRevision': {
        // The API server stamps a created object's creationTimestamp.
        const revision = this.owned(structuredClone(a.revision));
        revision.metadata.creationTimestamp = toTimestamp(this.now);
        this.revisions.set(a.revision.metadata.name ?? '', revision);
        return;
      }
      case 'updateRevision':
      case 'adoptRevision':
        this.revisions.set(a.revision.metadata.name ?? '', this.owned(structuredClone(a.revision)));
        return;
      case 'deleteRevision':
        this.revisions.delete(a.name);
        return;
      case 'createClaim':
      case 'updateClaim':
        this.claims.set(a.claim.metadata.name ?? '', { ...structuredClone(a.claim), metadata: { ...a.claim.metadata, uid: a.claim.metadata.uid ?? `uid-claim-${++this.seq}` } });
        return;
      case 'createPod':
        this.pods.set(a.pod.metadata.name ?? '', this.created(a.pod));
        return;
      case 'updatePod': {
        const old = this.pods.get(a.pod.metadata.name ?? '');
        this.pods.set(a.pod.metadata.name ?? '', { ...structuredClone(a.pod), status: old?.status ?? {} });
        return;
      }
      case 'deletePod':
        return this.terminate(a.name);
      case 'adoptPod':
      case 'releasePod':
        return this.setOwner(a.pod, a.kind === 'adoptPod');
      case 'relabelPod': {
        const live = this.pods.get(a.name);
        if (live) live.metadata.labels = { ...live.metadata.labels, [Labels.revisionHash]: a.revision };
        if (live && a.clearsInPlaceUpdate) delete live.metadata.annotations?.[PodAnnotations.inPlaceUpdateRevision];
        return;
      }
      case 'annotatePod': {
        const live = this.pods.get(a.name);
        if (live?.metadata.uid !== a.uid) return;
        const merged = (map: Record<string, string> | undefined, patch: Record<string, string | null> = {}) =>
          Object.fromEntries(Object.entries({ ...map, ...patch }).filter((e): e is [string, string] => e[1] !== null));
        live.metadata.annotations = merged(live.metadata.annotations, a.annotations);
        live.metadata.labels = merged(live.metadata.labels, a.labels);
        return;
      }
      case 'patchPod': {
        const live = this.pods.get(a.name);
        if (live?.metadata.uid !== a.uid) return;
        const merged = (map: Record<string, string> | undefined, patch: Record<string, string | null>) =>
          Object.fromEntries(Object.entries({ ...map, ...patch }).filter((e): e is [string, string] => e[1] !== null));
        live.metadata.labels = merged(live.metadata.labels, a.patch.metadata.labels);
        live.metadata.annotations = merged(live.metadata.annotations, a.patch.metadata.annotations);
        live.spec.containers = structuredClone(a.patch.spec.containers);
        if (a.resize !== undefined) live.spec.containers = structuredClone(a.resize.spec.containers);
        return;
      }
      case 'setPodCondition': {
        // pods/status: the condition replaced, the others kept; the kubelet then recomputes Ready from the gates
        const live = this.pods.get(a.name);
        if (live?.metadata.uid !== a.uid) return;
        const others = (live.status?.conditions ?? []).filter((c) => c.type !== a.condition.type);
        // its containers are ready when Ready is True, or False only for the gates
        const ready = others.find((c) => c.type === 'Ready');
        const containersReady = ready?.status === 'True' || ready?.reason === GATES_NOT_READY;
        const conditions = others.map((c) => (c.type === 'Ready' && containersReady ? { type: 'Ready', status: 'True' as const, lastTransitionTime: c.status === 'True' ? c.lastTransitionTime : toTimestamp(this.now) } : c));
        live.status = gatedStatus(live, { ...live.status, conditions: [...conditions, structuredClone(a.condition)] }, this.now);
        return;
      }
      case 'patchClaim': {
        // server-side apply of the fields the controller owns onto the live claim
        const live = this.claims.get(a.name);
        if (!live) return;
        const spec = { ...live.spec, ...a.claim.spec, resources: { ...live.spec.resources, ...a.claim.spec.resources } };
        const metadata = { ...live.metadata, labels: { ...live.metadata.labels, ...a.claim.metadata.labels }, annotations: { ...live.metadata.annotations, ...a.claim.metadata.annotations } };
        this.claims.set(a.name, { ...live, metadata, spec });
        return;
      }
    }
  }

  private owned<T extends ControllerRevision>(rev: T): T {
    const ref = { apiVersion: this.set.apiVersion ?? 'apps/v1', kind: 'StatefulSet', name: this.set.metadata.name ?? '', uid: this.set.metadata.uid ?? '', controller: true };
    const others = (rev.metadata.ownerReferences ?? []).filter((r) => r.controller !== true);
    return { ...rev, metadata: { ...rev.metadata, ownerReferences: [...others, ref] } };
  }

  private setOwner(pod: Pod, adopt: boolean): void {
    const live = this.pods.get(pod.metadata.name ?? '');
    if (!live) return;
    const others = (live.metadata.ownerReferences ?? []).filter((r) => r.uid !== this.set.metadata.uid);
    const ref = { apiVersion: this.set.apiVersion ?? 'apps/v1', kind: 'StatefulSet', name: this.set.metadata.name ?? '', uid: this.set.metadata.uid ?? '', controller: true };
    live.metadata.ownerReferences = adopt ? [...others, ref] : others;
  }

  private created(template: Pod): Pod {
    const pod = structuredClone(template);
    pod.metadata.uid = `uid-pod-${++this.seq}`;
    pod.metadata.creationTimestamp = toTimestamp(this.now);
    pod.status = { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: toTimestamp(this.now) }] };
    if (this.opts.autoReady) return this.withReady(pod, this.now);
    return pod;
  }

  private withReady(pod: Pod, since: Instant): Pod {
    return { ...pod, status: gatedStatus(pod, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: toTimestamp(since) }] }, this.now) };
  }

  private terminate(name: string): void {
    const pod = this.pods.get(name);
    if (pod && !pod.metadata.deletionTimestamp) pod.metadata.deletionTimestamp = toTimestamp(this.now);
  }

  /** A user deletes the pod (it becomes terminating). */
  deletePod(name: string): void {
    this.terminate(name);
  }

  // --- the kubelet's side ---

  /** Pod becomes Running and Ready at `since` (default now). */
  ready(name: string, since: Instant = this.now): void {
    const pod = this.must(name);
    this.pods.set(name, this.withReady(pod, since));
  }

  /** Pod is Running but not Ready (e.g. CrashLoopBackOff). */
  notReady(name: string, waiting?: string): void {
    const pod = this.must(name);
    pod.status = gatedStatus(pod, {
      phase: waiting === 'ImagePullBackOff' ? 'Pending' : 'Running',
      conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: toTimestamp(this.now) }],
      containerStatuses: [{ name: 'app', ready: false, restartCount: 1, ...(waiting ? { state: { waiting: { reason: waiting } } } : {}) }],
    }, this.now);
  }

  /**
   * The kubelet reports the pod's containers running with `resources` (default: their spec's, a resize done
   * without restart: Ready), and `pending` as the PodResizePending condition since now.
   */
  reportsResources(name: string, opts: { resources?: unknown; pending?: { reason: string; message: string } } = {}): void {
    const pod = this.must(name);
    const at = toTimestamp(this.now);
    const pending = opts.pending ? [{ type: 'PodResizePending', status: 'True' as const, lastTransitionTime: at, ...opts.pending }] : [];
    pod.status = gatedStatus(pod, {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }, ...pending],
      containerStatuses: pod.spec.containers.map((c) => ({ name: c.name, image: c.image ?? '', ready: true, restartCount: 0, state: { running: {} }, resources: opts.resources ?? c['resources'] })),
    }, this.now);
  }

  /** The kubelet restarted the pod's containers on their spec's images (in place); Ready again only if `ready`. */
  runsSpecImages(name: string, ready = false): void {
    const pod = this.must(name);
    pod.status = gatedStatus(pod, {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: toTimestamp(this.now) }],
      containerStatuses: pod.spec.containers.map((c) => ({ name: c.name, image: c.image ?? '', ready, restartCount: 1, state: ready ? { running: {} } : { waiting: { reason: 'ContainerCreating' } } })),
    }, this.now);
  }

  phase(name: string, phase: 'Failed' | 'Succeeded' | 'Pending'): void {
    const pod = this.must(name);
    pod.status = { ...pod.status, phase };
  }

  /** Removes terminating pods (all, or the named ones). */
  finishTerminating(...names: string[]): void {
    for (const [name, pod] of this.pods) {
      if (pod.metadata.deletionTimestamp && (names.length === 0 || names.includes(name))) this.pods.delete(name);
    }
  }

  /** Makes every existing non-terminating pod Running and Ready (since now) unless it already is. */
  readyAll(): void {
    for (const [name, pod] of this.pods) {
      // containers ready: Ready, or not Ready only for its readiness gates (which the controller owns)
      const ready = pod.status?.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && (c.status === 'True' || c.reason === GATES_NOT_READY));
      if (!pod.metadata.deletionTimestamp && !ready) this.ready(name);
    }
  }

  private unreadyCount(): number {
    return [...this.pods.values()].filter((p) => !(p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && (c.status === 'True' || c.reason === GATES_NOT_READY)))).length;
  }

  advance(ms: number): void {
    this.now += ms;
  }

  /** Replaces the spec (bumping generation), like `kubectl apply`. */
  update(mutate: (set: StatefulSet) => void): void {
    const next = structuredClone(this.set);
    mutate(next);
    next.metadata.generation = (next.metadata.generation ?? 1) + 1;
    this.set = next;
  }

  setImage(image: string): void {
    this.update((s) => {
      const c = s.spec.template.spec.containers[0];
      if (c) c.image = image;
    });
  }

  must(name: string): Pod {
    const pod = this.pods.get(name);
    assert.ok(pod, `pod ${name} exists`);
    return pod;
  }

  /** Sorted ordinals of existing pods (terminating included). */
  ordinals(): number[] {
    return [...this.pods.values()].map(podOrdinal).sort((a, b) => a - b);
  }

  terminatingOrdinals(): number[] {
    return [...this.pods.values()].filter((p) => p.metadata.deletionTimestamp).map(podOrdinal).sort((a, b) => a - b);
  }

  revisionOf(name: string): string {
    return podRevision(this.must(name));
  }

  /** Syncs (readying new pods and removing terminating ones between syncs) until a sync plans nothing. */
  converge(maxSyncs = 200): number {
    for (let i = 1; i <= maxSyncs; i++) {
      const settled = this.terminatingOrdinals().length === 0 && this.unreadyCount() === 0;
      const plan = this.sync();
      const podWrites = plan.actions.filter((a) => a.kind === 'createPod' || a.kind === 'deletePod').length;
      this.finishTerminating();
      this.readyAll();
      this.advance(SECOND);
      const availableAt = plan.blockers.flatMap((b) => (b.kind === 'podNotAvailable' && b.availableAt < Number.MAX_SAFE_INTEGER ? [b.availableAt] : []));
      if (availableAt.length > 0) this.now = Math.max(this.now, Math.min(...availableAt));
      else if (settled && podWrites === 0 && !plan.statusChanged) return i;
    }
    throw new Error(`did not converge in ${maxSyncs} syncs`);
  }
}

/** `syncs` syncs as the kubelet would answer: terminating pods go, new pods get Ready unless `broken` names why not. */
export function runSyncs(h: Harness, syncs: number, broken: (name: string) => string | undefined = () => undefined): Plan[] {
  const plans: Plan[] = [];
  for (let i = 0; i < syncs; i++) {
    plans.push(h.sync());
    h.finishTerminating();
    for (const [name, pod] of h.pods) {
      if (pod.status?.phase !== 'Pending' || pod.metadata.deletionTimestamp) continue;
      const why = broken(name);
      if (why === undefined) h.ready(name);
      else h.notReady(name, why);
    }
    h.advance(SECOND);
  }
  return plans;
}

const GATES_NOT_READY = 'ReadinessGatesNotReady';

/**
 * The status the kubelet reports, given one whose Ready says whether the containers are ready: the
 * controller's readiness-gate conditions kept from the pod's status, and Ready False while a readiness gate's
 * condition is not True (as the real kubelet computes it).
 */
function gatedStatus(pod: Pod, status: NonNullable<Pod['status']>, now: number): NonNullable<Pod['status']> {
  const gates = (pod.spec.readinessGates ?? []).map((g) => g.conditionType);
  if (gates.length === 0) return status;
  const kept = (pod.status?.conditions ?? []).filter((c) => gates.includes(c.type) && !(status.conditions ?? []).some((x) => x.type === c.type));
  const conditions = [...(status.conditions ?? []), ...kept];
  const met = gates.every((g) => conditions.some((c) => c.type === g && c.status === 'True'));
  const ready = conditions.find((c) => c.type === 'Ready');
  if (met || ready?.status !== 'True') return { ...status, conditions };
  return { ...status, conditions: conditions.map((c) => (c.type === 'Ready' ? { type: 'Ready', status: 'False' as const, reason: GATES_NOT_READY, lastTransitionTime: toTimestamp(now) } : c)) };
}
