// Builds the simulated world of one run: a virtual clock, the in-memory API server, one simulated kubelet,
// kube-controller-manager's disruption controller (PodDisruptionBudget status) and the StatefulSet controller (the same runtime code as `ordinal controller`), all on the same clock and
// with randomness derived from the scenario's seed.

import type { ClusterClient } from '../api/client.js';
import type { Features } from '../api/features.js';
import type { Instant } from '../api/types.js';
import { DisruptionController } from '../cluster/disruption/disruption-controller.js';
import { createKubelet, type Kubelet, type SimNode } from '../cluster/kubelet/index.js';
import { Resources } from '../api/client.js';
import { StorageActor } from '../cluster/storage/storage-actor.js';
import { createMemoryCluster, type MemoryCluster } from '../cluster/memory/index.js';
import { createStatefulSetController, newPlanner } from '../runtime/statefulset-controller-factory.js';
import type { Planner } from '../runtime/planner-port.js';
import type { WorkCounters } from '../runtime/work-counters.js';
import { createEventRecorder, type RecordedEvent } from '../runtime/event-recorder.js';
import { createControllerMetrics, type ControllerMetrics } from '../runtime/metrics.js';
import type { AnalysisProbe, AnalysisResult, Plan } from '../controller/model/plan-types.js';
import type { ObservedState } from '../controller/replica/observed-state.js';
import type { StatefulSet } from '../api/types.js';
import { AnalysisEndpoints } from './analysis-endpoints.js';
import { randomFor } from './scenario-random.js';
import { recordingClient, newCounter, type ApiCallCounter, type SentWrite } from './recording-client.js';
import type { Scenario } from './scenario-types.js';
import { createVirtualClock, type VirtualClock } from './virtual-clock.js';
import { checkedPlanner, type Found } from './violations.js';

/** Virtual time starts here (a fixed instant, so timestamps in the objects are the same every run). */
export const SIM_EPOCH = Date.UTC(2026, 0, 1, 0, 0, 0);
export const CONTROLLER_ACTOR = 'ordinal-controller';
export const USER_ACTOR = 'user';
export const NODE_NAME = 'sim-node-1';
/** Who writes PodDisruptionBudgets' status. */
export const DISRUPTION_ACTOR = 'disruption-controller';

/** The scenario's Node objects: the simulated kubelet runs them all (else the one node NODE_NAME). */
export function scenarioNodes(scenario: Scenario): SimNode[] {
  return scenario.objects.filter((o) => o.resource === Resources.nodes).map((o) => ({ name: o.object.metadata.name ?? '', labels: o.object.metadata.labels ?? {} }));
}

export interface WorldHooks {
  onSend(write: SentWrite): void;
  onEvent(event: RecordedEvent): void;
  /** An analysis check of a staged rollout came back. */
  onAnalysis?(set: StatefulSet, probe: AnalysisProbe, result: AnalysisResult): void;
  /** Replaces the real planner (the benchmark wraps it to measure its CPU time). */
  planner?: Planner;
  /** Invariant violations in a plan the controller computed; undefined: plans are not checked. */
  onPlanViolation?: (found: Found[], now: number) => void;
  /** Each plan and the state it was computed from (the controller's view, as late as its informers). */
  onPlanned?: (observed: ObservedState, plan: Plan) => void;
  /** Counts every layer's work (the cost guard, `ordinal bench`). */
  counters?: WorkCounters;
}

export interface World {
  clock: VirtualClock;
  cluster: MemoryCluster;
  user: ClusterClient;
  kubelet: Kubelet;
  /** Keeps PodDisruptionBudgets' status, as kube-controller-manager's disruption controller does. */
  disruption: DisruptionController;
  /** The simulated storage, when the scenario has `cluster.storage`. */
  storage?: StorageActor;
  /** What staged rollouts' analysis checks are answered (`cluster.analysisEndpoints`, `endpoint` steps; `cluster.metrics`). */
  endpoints: AnalysisEndpoints;
  metrics: ControllerMetrics;
  /** Every call the controller made, across restarts. */
  apiCalls: ApiCallCounter;
  startController(): Promise<void>;
  stopController(): Promise<void>;
}

type Controller = ReturnType<typeof createStatefulSetController>;

/** What the simulated network answers to analysis checks and preUpdate hooks (cluster.analysisEndpoints, .metrics, .preUpdateHookSeconds). */
function analysisEndpoints(scenario: Scenario, clock: VirtualClock): AnalysisEndpoints {
  const seconds = scenario.cluster.preUpdateHookSeconds;
  const hooks = seconds === undefined ? undefined : { seconds, seed: scenario.seed, now: () => clock.now() };
  return new AnalysisEndpoints(scenario.cluster.analysisEndpoints, scenario.cluster.metrics, () => clock.now(), hooks);
}

/** `start`: the instant virtual time starts at (default SIM_EPOCH). */
export function buildWorld(scenario: Scenario, features: Features, hooks: WorldHooks, start: Instant = SIM_EPOCH): World {
  const clock = createVirtualClock({ start, stepBudget: 50_000_000 });
  const { maxObjects } = scenario.cluster;
  const counters = hooks.counters;
  const cluster = createMemoryCluster({ timers: clock, features, random: randomFor(scenario.seed, 'cluster'), ...(maxObjects ? { maxObjects } : {}), ...(counters ? { counters } : {}) });
  const nodes = scenarioNodes(scenario);
  const kubelet = createKubelet({
    client: cluster.client('kubelet'),
    timers: clock,
    nodeName: NODE_NAME,
    config: { ...scenario.cluster, seed: scenario.seed },
    ...(nodes.length > 0 ? { nodes: { list: nodes, random: randomFor(scenario.seed, 'scheduler') } } : {}),
    ...(counters ? { counters } : {}),
  });
  const disruption = new DisruptionController({ client: cluster.client(DISRUPTION_ACTOR), timers: clock, random: randomFor(scenario.seed, 'disruption') });
  const { storage: storageConfig } = scenario.cluster;
  const storage = storageConfig && new StorageActor({ client: cluster.client('storage'), timers: clock, random: randomFor(scenario.seed, 'storage'), config: { ...storageConfig, seed: scenario.seed } });
  const metrics = createControllerMetrics();
  const endpoints = analysisEndpoints(scenario, clock);
  cluster.onWrite((w) => endpoints.sawWrite(w));
  const apiCalls = newCounter();
  const controllerClient = recordingClient(cluster.client(CONTROLLER_ACTOR, scenario.faults), apiCalls, countedSends(hooks.onSend, counters));
  const planner = worldPlanner(hooks);
  let controller: Controller | undefined;
  let generation = 0;
  return {
    clock,
    cluster,
    user: cluster.client(USER_ACTOR),
    kubelet,
    disruption,
    ...(storage ? { storage } : {}),
    endpoints,
    metrics,
    apiCalls,
    async startController() {
      const events = createEventRecorder({ client: controllerClient, clock, onDropped: (type) => metrics.eventDropped(type) });
      events.onRecord(hooks.onEvent);
      controller = createStatefulSetController({
        client: controllerClient,
        timers: clock,
        features,
        target: scenario.controller.target,
        workers: 1,
        metrics,
        events,
        random: randomFor(scenario.seed, `controller-${generation++}`),
        planner,
        probePort: endpoints.port,
        ...(hooks.onAnalysis ? { onAnalysisResult: hooks.onAnalysis } : {}),
        ...(counters ? { counters } : {}),
      });
      await controller.start();
    },
    async stopController() {
      await controller?.stop({ drain: false });
      controller = undefined;
    },
  };
}

/** The controller's planner: the hooks' (or the real one), counted, checked and observed as the hooks ask. */
function worldPlanner(hooks: WorldHooks): Planner {
  const base = countedPlanner(hooks.planner ?? newPlanner(), hooks.counters);
  const checked = hooks.onPlanViolation ? checkedPlanner(base, hooks.onPlanViolation) : base;
  const onPlanned = hooks.onPlanned;
  if (onPlanned === undefined) return checked;
  return {
    ...checked,
    plan(observed, now, features) {
      const plan = checked.plan(observed, now, features);
      onPlanned(observed, plan);
      return plan;
    },
  };
}

/** The planner as the controller calls it, counting its calls and the size of its input. */
function countedPlanner(planner: Planner, counters: WorkCounters | undefined): Planner {
  if (counters === undefined) return planner;
  return {
    ...planner,
    plan(observed, now, features) {
      counters.count('planner.calls');
      counters.count('planner.podsObserved', (observed.replicas?.allPods().length ?? 0) + observed.pods.length);
      counters.count('planner.objectsListed', observed.pods.length + observed.revisions.length + observed.claims.length);
      return planner.plan(observed, now, features);
    },
  };
}

/** The controller's writes as sent, counted (Events apart). */
function countedSends(onSend: (w: SentWrite) => void, counters: WorkCounters | undefined): (w: SentWrite) => void {
  if (counters === undefined) return onSend;
  return (w) => {
    counters.count(w.resource === Resources.events ? 'controller.eventWrites' : 'controller.writes');
    onSend(w);
  };
}
