// Deterministic counts of the work a run does, by layer: how many planner calls, API requests, stored-object
// copies, watch deliveries, kubelet evaluations... a rollout costs. The same commit gives the same counts on
// any machine at any load, so a test can guard how cost grows with size (test/sim/cost-guard.test.ts) where a
// timing cannot. Every component takes them as an optional dependency and counts with `counters?.count(…)`:
// without counters that is one undefined check.

/** Each counter, `layer.what`; the doc comment says what one unit is. */
export const WORK_COUNTERS = {
  'planner.calls': 'planStatefulSet calls (one per sync that reached the planner)',
  'planner.podsObserved': "pods in the planner's input, summed over its calls (the set's replica index and orphans)",
  'planner.objectsListed': 'objects a sync listed from the informer caches beside the replica index (orphan pods, revisions, claims)',
  'controller.writes': 'writes the controller sent, Events apart',
  'controller.eventWrites': 'Event creates and patches the controller sent',
  'api.requests': 'requests the in-memory API server answered, every client',
  'api.writes': 'writes that changed a stored object (a new resourceVersion)',
  'api.copies': 'whole-object copies the in-memory API server made (reads, writes and their answers)',
  'api.gcExamined': 'objects the garbage collector examined',
  'watch.deliveries': 'watch events delivered to a watcher (informers, kubelet, disruption controller)',
  'kubelet.syncs': "the simulated kubelet's pod syncs",
  'kubelet.renders': 'pod statuses the simulated kubelet rendered',
  'kubelet.heldRequests': "pods' held requests the simulated kubelet summed for resize admission",
  'informer.objectsRead': 'objects read from the informer caches by lists and index lookups (the replica index apart)',
  'expectations.examined': 'pending expectations and waiting keys the controller examined',
  'sim.podsChecked': "pods the simulator's own checks read (convergence, budget breaches)",
  'sim.checkerInput': "pods handed to the planner's deletion checker (the set's, per deletion the controller makes)",
} as const;

export type WorkCounter = keyof typeof WORK_COUNTERS;

export type WorkCounts = Record<WorkCounter, number>;

export const COUNTER_NAMES = Object.keys(WORK_COUNTERS) as WorkCounter[];

const zero = (): WorkCounts => Object.fromEntries(COUNTER_NAMES.map((k) => [k, 0])) as WorkCounts;

export class WorkCounters {
  private readonly counts = zero();

  count(name: WorkCounter, n = 1): void {
    this.counts[name] += n;
  }

  /** The counts so far (a copy). */
  snapshot(): WorkCounts {
    return { ...this.counts };
  }
}

/** What was counted between two snapshots. */
export function countsBetween(before: WorkCounts, after: WorkCounts): WorkCounts {
  return Object.fromEntries(COUNTER_NAMES.map((k) => [k, after[k] - before[k]])) as WorkCounts;
}
