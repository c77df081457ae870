// A rollout that breaks at one ordinal, for the onFailure: Rollback tests: the set `web` converges on app:v1,
// then rolls to app:v2, which fails (ImagePullBackOff or CrashLoopBackOff) on web-k only; the controller
// aborts and brings every pod back. `wayBack` reads what happened from the run's records and summary.

import { runScenario, type RunResult } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { PodRecord, StatusRecord } from '../../src/sim/timeline.js';

export interface RollbackCase {
  replicas: number;
  /** The ordinal app:v2 fails on. */
  ordinal: number;
  fault: 'ImagePullBackOff' | 'CrashLoopBackOff';
  policy: 'OrderedReady' | 'Parallel';
  strategy: 'RollingUpdate' | 'EnforcedRollingUpdate';
  maxUnavailable: number | string;
  startSeconds?: number;
  terminationSeconds?: number;
  minReadySeconds?: number;
  deadlineSeconds?: number;
}

const defaults = { startSeconds: 5, terminationSeconds: 2, minReadySeconds: 3, deadlineSeconds: 60 };

export const caseName = (c: RollbackCase): string =>
  `${c.fault} at web-${c.ordinal} of ${c.replicas}, ${c.policy}, ${c.strategy}, maxUnavailable ${c.maxUnavailable}`;

export function rollbackScenario(c: RollbackCase): string {
  const o = { ...defaults, ...c };
  const block = o.strategy === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate';
  return `kind: Scenario
name: ${JSON.stringify(caseName(c))}
seed: 1
endSeconds: 100000
cluster:
  podStartSeconds: ${o.startSeconds}
  podTerminationSeconds: ${o.terminationSeconds}
  images:
    "app:v2": {behavior: ${o.fault}, pods: [web-${o.ordinal}]}
objects:
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: ${o.replicas}
      minReadySeconds: ${o.minReadySeconds}
      progressDeadlineSeconds: ${o.deadlineSeconds}
      podManagementPolicy: ${o.policy}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:v1"}]}
      updateStrategy: {type: ${o.strategy}, ${block}: {maxUnavailable: ${JSON.stringify(o.maxUnavailable)}, onFailure: Rollback}}
steps:
  - waitFor: Converged
    timeoutSeconds: 20000
  - setImage: {name: web, container: app, image: "app:v2"}
  - waitFor: {statefulset: web, condition: RolloutAborted}
    timeoutSeconds: 20000
  - waitFor: Converged
    timeoutSeconds: 20000
`;
}

/** maxUnavailable as the controller resolves it: a percentage of replicas rounded down, at least 1. */
export function budgetOf(c: RollbackCase): number {
  if (typeof c.maxUnavailable === 'number') return c.maxUnavailable;
  return Math.max(1, Math.floor((Number.parseInt(c.maxUnavailable, 10) * c.replicas) / 100));
}

export interface WayBack {
  result: RunResult;
  /** The broken pod's creation on app:v2. */
  failedAt: number;
  /** The first status that recorded the abort. */
  abortedAt: number;
  /** Every pod available on the last good revision again (the simulator's convergence). */
  healthyAt: number;
  /** Pods not on the last good revision when the abort was recorded. */
  moved: number;
  /** Batches of the way back: one pod each under OrderedReady (created one at a time), else of maxUnavailable. */
  batches: number;
  /** batches × (termination + start + minReadySeconds). */
  perBatch: number;
  lowestAvailable: number;
  good: string;
  bad: string;
}

export async function runRollback(c: RollbackCase): Promise<WayBack> {
  const o = { ...defaults, ...c };
  const result = await runScenario(parseScenario(rollbackScenario(c), caseName(c)));
  const rollout = result.summary.rollouts.find((r) => r.name === 'web');
  const final = result.summary.sets['default/web'] ?? result.summary.sets['web'];
  const bad = final?.updateRevision ?? '';
  const good = final?.currentRevision ?? '';
  const failed = result.records.find((r): r is PodRecord => r.type === 'pod' && r.event === 'Created' && r.name === `web-${c.ordinal}` && r.revision === bad);
  const abort = result.records.find((r): r is StatusRecord => r.type === 'status' && r.status.abortedRevision !== undefined);
  const moved = c.replicas - (abort?.status.currentReplicas ?? 0);
  const batches = c.policy === 'OrderedReady' ? moved : Math.ceil(moved / budgetOf(c));
  return {
    result,
    failedAt: failed?.t ?? Number.NaN,
    abortedAt: rollout?.aborted?.at ?? Number.NaN,
    healthyAt: rollout?.convergedAt ?? Number.NaN,
    moved,
    batches,
    perBatch: o.terminationSeconds + o.startSeconds + o.minReadySeconds,
    lowestAvailable: rollout?.aborted?.lowestAvailable.replicas ?? Number.NaN,
    good,
    bad,
  };
}
