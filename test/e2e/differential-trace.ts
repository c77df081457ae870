// Runs one differential story in its own namespace (whichever controller owns apps/v1 StatefulSets at the
// time) and records a trace that can be compared across controllers:
//
// - Operation batches. The controller's pod operations are creations (a new pod uid) and deletions (a
//   deletionTimestamp appears, or a pod vanishes without one), each written `+web-3 <revision>` /
//   `-web-3 <revision>`. TIMING RULE: operations observed less than BATCH_GAP_MS apart are one batch, and
//   within a batch order is free (a batch is compared as a sorted set). The simulated kubelet takes
//   POD_SECONDS to start or stop a pod, far longer than BATCH_GAP_MS, so operations a controller can only
//   take after seeing an earlier one's effect always land in a later batch; what one sync does (and what
//   two syncs triggered by the same kubelet tick do) lands in the same batch. Batches never span a step.
// - After each step settles: the whole status as written, and whether the set converged or went quiet
//   without converging (a stuck story); conditions on a line of their own (type, status and reason; their
//   times and messages are the clock's and the wording's), which differential.test.ts compares by its rule.
// - At the end: the ControllerRevisions (name and number), the claims, and the Events' reasons with their
//   type (counts and messages are left out: client-go's correlator folds more than ten similar events into
//   a "combined" one, and a delete repeated from a stale cache records a second event, so both depend on
//   timing; the totals are printed with the progress lines for a human to compare). A Warning whose error is
//   a 409 Conflict is left out too (printed instead): kube-controller-manager updates pods read from its
//   cache, so whether it loses a race with the kubelet's status write is timing, and it retries.
import { Resources } from '../../src/api/client.js';
import type { ControllerRevision, KubeEvent, KubeObject, StatefulSet } from '../../src/api/types.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { modifyObject } from './cluster-session.js';
import { describeStep, IMAGES, SET_NAME, storySet, type Step, type Story } from './differential-stories.js';
import { startKubelet } from './namespaced-kubelet.js';
import { NamespaceObserver, type PodEvent } from './observer.js';
import { pause, waitUntil } from './wait.js';

/** Pod start and termination time of the simulated kubelet. */
export const POD_SECONDS = 1.5;
/** Operations closer together than this are one batch (see the timing rule above). */
export const BATCH_GAP_MS = 600;
/** A converged set must stay unchanged this long before the next step. */
const CONVERGED_QUIET_MS = 1500;

/** The API server's message for a 409 Conflict on an update. */
const CONFLICT = 'the object has been modified';

/** The prefix of a trace's conditions line. */
export const CONDITIONS = 'conditions: ';

export interface Trace {
  /** One line per step header, batch, status and final fact; compared line by line. */
  lines: string[];
  /** The namespace's pod events as the story's watch saw them (for timing measurements). */
  podEvents: PodEvent[];
  /** When each step (creation included) was written, in the same clock as `podEvents`. */
  stepTimes: number[];
}

/** The story's own requests (its kubelet, watches and steps), told apart from the controller's in an audit log. */
export const STORY_USER_AGENT = 'ordinal-e2e-story';

/** Progress on stderr, so a slow phase shows which story it waits for. */
function progress(ns: string, message: string): void {
  process.stderr.write(`[differential ${new Date().toISOString().slice(11, 19)}] ${ns}: ${message}\n`);
}

/**
 * Runs `story` in `ns` with a client of its own: a client's connections are capped (64 sockets), and each
 * story holds three watches open, so stories sharing one client would starve each other.
 */
export async function runStory(kubeconfig: string, ns: string, story: Story): Promise<Trace> {
  const client = createKubeClient({ kubeconfig, qps: 0, timers: realTimers(), random: Math.random, tuning: { userAgent: STORY_USER_AGENT } });
  try {
    return await runStoryWith(client, ns, story);
  } finally {
    client.close();
  }
}

async function runStoryWith(client: KubeClient, ns: string, story: Story): Promise<Trace> {
  const observer = new NamespaceObserver(client, ns, Resources.statefulSets);
  await observer.start();
  const kubelet = await startKubelet(client, ns, { podStartSeconds: POD_SECONDS, podTerminationSeconds: POD_SECONDS, images: IMAGES });
  const byHand = new Set<string>();
  const lines: string[] = [];
  const stepTimes: number[] = [Date.now()];
  try {
    const mrs = story.shape.minReadySeconds ?? 0;
    // Longest a controller may legitimately sit idle with work pending: a pod starting, a pod stopping,
    // then minReadySeconds, plus sync latency on a loaded machine.
    const stuckQuietMs = (2 * POD_SECONDS + mrs) * 1000 + 3000;
    let generation = (await client.create<StatefulSet>(Resources.statefulSets, { ...storySet(story.shape), metadata: { name: SET_NAME, namespace: ns } })).metadata.generation ?? 0;
    let from = 0;
    const steps: (Step | undefined)[] = [undefined, ...story.steps];
    for (const step of steps) {
      if (step) {
        stepTimes.push(Date.now());
        const written = await apply(client, ns, observer, step, byHand);
        if (typeof written === 'number') generation = written;
        lines.push(`== ${describeStep(step)}${typeof written === 'string' ? ` (${written})` : ''}`);
      } else {
        lines.push('== create');
      }
      const began = Date.now();
      const outcome = await settle(observer, generation, stuckQuietMs);
      progress(ns, `${lines.at(-1)} settled (${outcome}) in ${((Date.now() - began) / 1000).toFixed(1)}s`);
      const upTo = observer.podEvents.length;
      lines.push(...batches(observer.podEvents.slice(from, upTo), byHand));
      from = upTo;
      const { conditions, ...status } = observer.set(SET_NAME)?.status ?? {};
      lines.push(`status (${outcome}): ${stable(status)}`);
      lines.push(`${CONDITIONS}${conditions?.map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).join(', ') || '-'}`);
    }
    // events and the garbage collector trail the last status write; a controller's events go through its own
    // rate-limited client, so on a loaded machine they may come seconds after the pods they tell of
    await eventsFor(client, ns, observer.podEvents, byHand);
    await pause(2000);
    lines.push(...(await finalFacts(client, ns)));
    return { lines, podEvents: observer.podEvents, stepTimes };
  } finally {
    observer.stop();
    await kubelet.stop();
  }
}

/** Applies a step; returns the generation it wrote, or a note when it wrote no spec. */
async function apply(client: KubeClient, ns: string, observer: NamespaceObserver, step: Step, byHand: Set<string>): Promise<number | string | undefined> {
  const change = (mutate: (s: StatefulSet) => void) =>
    modifyObject<StatefulSet>(client, Resources.statefulSets, ns, SET_NAME, mutate).then((s) => s.metadata.generation);
  switch (step.do) {
    case 'image':
      return change((s) => void (s.spec.template.spec!.containers[0]!.image = step.image));
    case 'scale':
      return change((s) => void (s.spec.replicas = step.replicas));
    case 'partition':
      return change((s) => {
        s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { ...s.spec.updateStrategy?.rollingUpdate, partition: step.partition } };
      });
    case 'patch':
      return (await client.patch<StatefulSet>(Resources.statefulSets, ns, SET_NAME, { spec: step.spec })).metadata.generation;
    case 'deletePod': {
      const start = observer.set(SET_NAME)?.spec.ordinals?.start ?? 0;
      const pod = observer.pod(`${SET_NAME}-${start + step.ordinal}`);
      if (!pod) return 'no such pod';
      byHand.add(pod.metadata.uid ?? '');
      await client.delete(Resources.pods, ns, pod.metadata.name ?? '');
      return `${pod.metadata.name} deleted`;
    }
  }
}

/**
 * Waits until the set has observed `generation` and then either converged and stayed unchanged for
 * CONVERGED_QUIET_MS, or stayed unchanged for `stuckQuietMs` without converging.
 */
async function settle(observer: NamespaceObserver, generation: number, stuckQuietMs: number): Promise<'converged' | 'stuck'> {
  const activity = () => observer.podEvents.length + observer.statuses(SET_NAME).length;
  let seen = activity();
  let since = Date.now();
  let outcome: 'converged' | 'stuck' = 'stuck';
  await waitUntil(`${SET_NAME} in ${observer.namespace} to settle`, 120_000, () => {
    if (activity() !== seen) {
      seen = activity();
      since = Date.now();
    }
    const set = observer.set(SET_NAME);
    if ((set?.status?.observedGeneration ?? 0) < generation) return `observedGeneration ${set?.status?.observedGeneration} < ${generation}`;
    const quiet = Date.now() - since;
    const converged = observer.converged(SET_NAME);
    if (converged === true && quiet >= CONVERGED_QUIET_MS) outcome = 'converged';
    else if (quiet >= stuckQuietMs) outcome = 'stuck';
    else return converged === true ? 'converged, waiting for quiet' : converged;
    return true;
  });
  return outcome;
}

/** A batch of operations with when its first and last were observed. */
export interface TimedBatch {
  start: number;
  end: number;
  ops: string[];
}

/** The controller's pod operations in `events`, grouped into batches by the timing rule. */
export function batches(events: readonly PodEvent[], byHand: ReadonlySet<string>): string[] {
  return timedBatches(events, byHand).map(batchLine);
}

export const batchLine = (b: TimedBatch): string => `batch { ${[...b.ops].sort().join(', ')} }`;

/** The batches with their times (see `batches`). */
export function timedBatches(events: readonly PodEvent[], byHand: ReadonlySet<string>): TimedBatch[] {
  const ops: { at: number; text: string }[] = [];
  const terminating = new Set<string>();
  for (const e of events) {
    if (byHand.has(e.uid) && e.type !== 'Created') continue;
    if (e.type === 'Created') ops.push({ at: e.at, text: `+${e.name} ${e.revision}` });
    else if (e.type === 'Terminating') {
      terminating.add(e.uid);
      ops.push({ at: e.at, text: `-${e.name} ${e.revision}` });
    } else if (e.type === 'Deleted' && !terminating.has(e.uid)) ops.push({ at: e.at, text: `-${e.name} ${e.revision} (no grace)` });
  }
  const out: TimedBatch[] = [];
  for (const op of ops) {
    const current = out.at(-1);
    if (current === undefined || op.at - current.end >= BATCH_GAP_MS) out.push({ start: op.at, end: op.at, ops: [op.text] });
    else {
      current.ops.push(op.text);
      current.end = op.at;
    }
  }
  return out;
}

/**
 * Real batches that are one batch of `guide` (the same operations, made at one instant in virtual time)
 * observed split on a loaded machine — consecutive, their union exactly the guide's batch, and no pod of the
 * set becoming Ready (`readyAt`) between the first piece and the last, so no piece can have waited for
 * another's outcome — as that one batch. (A time window was not enough: throttled by its client's rate limit
 * beside ten other sets, the controller once committed one batch's creations 1.5 s apart.) Anything else is
 * left as it was, so a real difference still shows.
 */
export function mergeSplitBatches(real: readonly TimedBatch[], guide: readonly TimedBatch[], readyAt: readonly number[]): TimedBatch[] {
  const wanted = guide.map((g) => [...g.ops].sort().join('\n'));
  const readyBetween = (from: number, to: number): boolean => readyAt.some((t) => t > from && t <= to);
  const out: TimedBatch[] = [];
  for (let i = 0; i < real.length; i++) {
    const first = real[i] as TimedBatch;
    let merged: TimedBatch | undefined;
    if (wanted.includes([...first.ops].sort().join('\n'))) {
      out.push(first);
      continue;
    }
    for (let k = i + 1, ops = [...first.ops]; k < real.length && !readyBetween(first.start, (real[k] as TimedBatch).start); k++) {
      ops = [...ops, ...(real[k] as TimedBatch).ops];
      if (wanted.includes([...ops].sort().join('\n'))) {
        merged = { start: first.start, end: (real[k] as TimedBatch).end, ops };
        i = k;
        break;
      }
    }
    out.push(merged ?? first);
  }
  return out;
}

/** JSON with sorted keys, so field order never counts as a difference. */
export function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Waits (up to 30 s) until the set's events tell of the pod creations and deletions its controller made. */
async function eventsFor(client: KubeClient, ns: string, podEvents: readonly PodEvent[], byHand: ReadonlySet<string>): Promise<void> {
  const wanted = new Set<string>();
  if (podEvents.some((e) => e.type === 'Created')) wanted.add('SuccessfulCreate');
  if (podEvents.some((e) => e.type === 'Terminating' && !byHand.has(e.uid))) wanted.add('SuccessfulDelete');
  if (wanted.size === 0) return;
  await waitUntil(`events of ${SET_NAME} in ${ns}`, 30_000, async () => {
    const seen = new Set((await client.list<KubeEvent>(Resources.events, ns)).items.filter((e) => e.involvedObject?.kind === 'StatefulSet').map((e) => e.reason ?? ''));
    const missing = [...wanted].filter((r) => !seen.has(r));
    return missing.length === 0 || `no ${missing.join(', ')} event yet`;
  }).catch(() => undefined); // the comparison then names what is missing
}

async function finalFacts(client: KubeClient, ns: string): Promise<string[]> {
  const revisions = (await client.list<ControllerRevision>(Resources.controllerRevisions, ns)).items
    .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))
    .map((r) => `${r.metadata.name} #${r.revision}`);
  const claims = (await client.list<KubeObject>(Resources.persistentVolumeClaims, ns)).items
    .map((c) => `${c.metadata.name}${c.metadata.deletionTimestamp ? ' (deleting)' : ''} owners=${(c.metadata.ownerReferences ?? []).map((o) => `${o.kind}/${o.name}`).join('+') || '-'}`)
    .sort();
  const reasons = new Map<string, number>();
  for (const e of (await client.list<KubeEvent>(Resources.events, ns)).items) {
    if (e.involvedObject?.kind !== 'StatefulSet') continue;
    if (e.type === 'Warning' && e.message?.includes(CONFLICT)) {
      progress(ns, `not compared (an optimistic-concurrency race): ${e.reason} ${e.message}`);
      continue;
    }
    const key = `${e.type ?? ''} ${e.reason ?? ''}`;
    reasons.set(key, (reasons.get(key) ?? 0) + (e.count ?? 1));
  }
  const sorted = [...reasons].sort(([a], [b]) => a.localeCompare(b));
  progress(ns, `event totals: ${sorted.map(([k, n]) => `${k} ×${n}`).join(', ') || '-'}`);
  return [`revisions: ${revisions.join(', ')}`, `claims: ${claims.join(', ') || '-'}`, `events: ${sorted.map(([k]) => k).join(', ') || '-'}`];
}
