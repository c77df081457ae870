// Update deletions the planner marks `eviction` (rollingUpdate.respectPodDisruptionBudgets) go through
// pods/eviction. A PodDisruptionBudget's 429 is a refusal: the batch and the later ones stop as after any
// failure and the plan's optimistic status is undone, but the sync is done (EvictionRefused, an info line,
// ordinal_evictions_total{result="refused"}) and comes back after the refusal's Retry-After or 5 s, with no
// error backoff. A pod that two budgets select (500) is a failure like any other: FailedDelete, backoff.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import { DisruptionBudgetRefusal, MultipleBudgetsError } from '../../src/api/errors.js';
import type { KubeEvent, Pod, StatefulSet } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/plan-types.js';
import { observedPods } from '../../src/controller/replica-index.js';
import { createEventRecorder } from '../../src/runtime/event-recorder.js';
import { REFUSAL_REQUEUE_MS } from '../../src/runtime/eviction-refusals.js';
import type { Logger } from '../../src/runtime/logging-port.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { BASE_DELAY_MS } from '../../src/runtime/rate-limiter.js';
import type { ReconcileOutcome } from '../../src/runtime/reconcile.js';
import { StatefulSetController } from '../../src/runtime/statefulset-controller.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } } },
  status: { replicas: 1, currentReplicas: 1 },
};
const webPod: Pod = { metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } };
const events = (verb: string, name: string) => ({
  succeeded: { type: 'Normal' as const, reason: `Successful${verb}`, message: `${verb.toLowerCase()} Pod ${name} in StatefulSet web successful` },
  failed: { type: 'Warning' as const, reason: `Failed${verb}`, message: `${verb.toLowerCase()} Pod ${name} in StatefulSet web failed error: ` },
});

/** While web-0 is there: evict it (batch 0) and create web-9 (batch 1); the status it reports stays as stored (no write, no resync). */
const evictingPlanner: Planner = {
  plan(observed): Plan {
    const pod = observedPods(observed).find((p) => p.metadata.name === 'web-0' && p.metadata.deletionTimestamp === undefined);
    const actions: Action[] =
      pod === undefined
        ? []
        : [
            { kind: 'deletePod', batch: 0, name: 'web-0', uid: pod.metadata.uid ?? '', ordinal: 0, cause: 'update', eviction: true, outcome: events('Delete', 'web-0') },
            { kind: 'createPod', batch: 1, ordinal: 9, pod: { ...webPod, metadata: { ...webPod.metadata, name: 'web-9' } }, outcome: events('Create', 'web-9') },
          ];
    const metrics = { maxUnavailable: 1, unavailabilityViolation: false, forcedReplacements: 0, safetyHalt: false, enforcedRollingUpdateStarted: false };
    return { status: observed.set.status ?? { replicas: 0 }, statusChanged: false, actions, blockers: [], events: [], metrics };
  },
};

function setup() {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
  const cluster = new FakeCluster();
  const metrics = createControllerMetrics();
  const logs: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const log = (level: string) => (fields: Record<string, unknown>, msg?: string) => void logs.push({ level, msg: msg ?? '', fields });
  const logger: Logger = { debug: () => {}, info: log('info'), warn: log('warn'), error: log('error') };
  const outcomes: [number, ReconcileOutcome][] = [];
  const controller = new StatefulSetController({
    client: cluster,
    timers: clock,
    features: defaultFeatures(),
    target: 'native',
    metrics,
    events: createEventRecorder({ client: cluster, clock }),
    logger,
    random: () => 0,
    planner: evictingPlanner,
    onReconcile: (_key, o) => outcomes.push([clock.now(), o]),
  });
  cluster.seed(Resources.statefulSets, set);
  cluster.seed(Resources.pods, webPod);
  const counter = async (name: string, labels: Record<string, string> = {}) =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
  const recorded = async () => (await cluster.list<KubeEvent>(Resources.events, 'default')).items.map((e) => [e.type, e.reason, e.message]);
  return { clock, cluster, controller, outcomes, logs, counter, recorded };
}

const refusal = (retryAfterSeconds = 0) =>
  new DisruptionBudgetRefusal("Cannot evict pod as it would violate the pod's disruption budget.", [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }], retryAfterSeconds);

describe('executing evictions', () => {
  it('evicts (not deletes) a deletion marked eviction, with the pod\'s uid as precondition', async () => {
    const { clock, cluster, controller } = setup();
    await controller.start();
    await clock.run({ until: clock.now() + 100 });
    const removal = cluster.writes().filter((c) => c.resource === 'pods' && c.verb !== 'create');
    assert.deepEqual(removal.map((c) => [c.verb, c.name, (c.body as { uid?: string } | undefined)?.uid]), [['evict', 'web-0', 'uid-2']]);
    await controller.stop();
  });

  it('takes a budget\'s 429 as a refusal: later batches stop, EvictionRefused, an info line, a short requeue without backoff', async () => {
    const { clock, cluster, controller, outcomes, logs, counter, recorded } = setup();
    cluster.failNext('evict', refusal());
    await controller.start();
    const t0 = clock.now();
    await clock.run({ until: t0 + 100 });
    assert.deepEqual(outcomes.map(([t, o]) => [t - t0, o]), [[0, { kind: 'done', wakeAt: t0 + REFUSAL_REQUEUE_MS }]]);
    assert.equal(cluster.peek(Resources.pods, 'default', 'web-9'), undefined, 'the later batch did not run');
    assert.deepEqual(await recorded(), [['Normal', 'EvictionRefused', 'evict Pod web-0 in StatefulSet web refused: The disruption budget web needs 1 healthy pods and has 1 currently']]);
    const syncLogs = logs.filter((l) => l.fields['key'] !== undefined);
    assert.deepEqual(syncLogs.map((l) => [l.level, l.msg, l.fields['pod'], l.fields['err']]), [['info', 'eviction refused by a PodDisruptionBudget, requeuing', 'web-0', 'The disruption budget web needs 1 healthy pods and has 1 currently']]);
    assert.deepEqual([await counter('ordinal_evictions_total', { result: 'refused' }), await counter('ordinal_reconcile_total', { result: 'success' }), await counter('workqueue_retries_total')], [1, 1, 0]);

    await clock.run({ until: t0 + REFUSAL_REQUEUE_MS + 100 });
    assert.equal(outcomes[1]?.[0], t0 + REFUSAL_REQUEUE_MS, 'back after 5 s');
    assert.ok(cluster.peek(Resources.pods, 'default', 'web-9') !== undefined && cluster.peek(Resources.pods, 'default', 'web-0') === undefined, 'evicted, then the next batch ran');
    assert.equal(await counter('ordinal_evictions_total', { result: 'evicted' }), 1);
    await controller.stop();
  });

  it('comes back after the Retry-After a refusal suggests (a budget whose status is behind its spec: 10 s)', async () => {
    const { clock, cluster, controller, outcomes } = setup();
    cluster.failNext('evict', refusal(10));
    await controller.start();
    const t0 = clock.now();
    await clock.run({ until: t0 + 100 });
    assert.deepEqual(outcomes[0]?.[1], { kind: 'done', wakeAt: t0 + 10_000 });
    await controller.stop();
  });

  it('takes the 500 of a pod two budgets select as a failure: FailedDelete with the API\'s message, a warning, the error backoff', async () => {
    const { clock, cluster, controller, outcomes, logs, counter, recorded } = setup();
    cluster.failNext('evict', new MultipleBudgetsError());
    await controller.start();
    const t0 = clock.now();
    await clock.run({ until: t0 + 100 });
    assert.equal(outcomes[0]?.[1].kind, 'retry');
    assert.equal(outcomes[1]?.[0], t0 + BASE_DELAY_MS, 'the per-item backoff, as for any failed write');
    assert.deepEqual((await recorded())[0], ['Warning', 'FailedDelete', 'delete Pod web-0 in StatefulSet web failed error: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.']);
    assert.deepEqual(logs.filter((l) => l.fields['key'] !== undefined).map((l) => l.level)[0], 'warn');
    assert.equal(await counter('ordinal_evictions_total', { result: 'failed' }), 1);
    await controller.stop();
  });
});
