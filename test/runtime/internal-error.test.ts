// A planner bug is not a normal result: the sync logs it with its stack, counts it
// (ordinal_reconcile_panics_total), records FailedPlanning and retries with the queue's per-item backoff.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { KubeEvent, Pod, StatefulSet } from '../../src/api/types.js';
import { crashPlan } from '../../src/controller/plan/validity.js';
import { createEventRecorder } from '../../src/runtime/event-recorder.js';
import type { Logger } from '../../src/runtime/logging-port.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import type { Planner } from '../../src/runtime/planner-port.js';
import { BASE_DELAY_MS } from '../../src/runtime/rate-limiter.js';
import { StatefulSetController } from '../../src/runtime/statefulset-controller.js';
import type { ReconcileOutcome } from '../../src/runtime/reconcile.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { FakeCluster } from './fake-cluster.js';
import { standInPlanner } from './stand-in-planner.js';

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } } },
};

/** Reports a planner bug (as planStatefulSet's catch does) on the first `failures` syncs, then plans normally. */
function explodingPlanner(failures: number): Planner {
  const { planner } = standInPlanner();
  let left = failures;
  return {
    ...planner,
    plan: (observed, now, features) =>
      left-- > 0 ? crashPlan(observed, new TypeError("Cannot read properties of undefined (reading 'metadata')")) : planner.plan(observed, now, features),
  };
}

function setup(planner: Planner) {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) });
  const cluster = new FakeCluster();
  const metrics = createControllerMetrics();
  const errors: Record<string, unknown>[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: (fields, msg) => errors.push({ ...fields, msg }) };
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
    planner,
    onReconcile: (_key, o) => outcomes.push([clock.now(), o]),
  });
  return { clock, cluster, metrics, controller, errors, outcomes };
}

async function counter(metrics: ReturnType<typeof createControllerMetrics>, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
  return value?.value ?? 0;
}

describe('statefulset controller: internal planner errors', () => {
  it('logs each with its stack, counts it, records FailedPlanning and retries with exponential backoff until it passes', async () => {
    const { clock, cluster, metrics, controller, errors, outcomes } = setup(explodingPlanner(3));
    cluster.seed(Resources.statefulSets, set);
    await controller.start();
    const t0 = clock.now();
    await clock.run({ until: t0 + 1000 });

    const kinds = outcomes.map(([, o]) => o.kind);
    assert.deepEqual(kinds.slice(0, 4), ['internalError', 'internalError', 'internalError', 'done']);
    // the queue's per-item rate limiter: 5 ms, 10 ms, 20 ms
    const times = outcomes.slice(0, 4).map(([t]) => t - t0);
    assert.deepEqual(times, [0, BASE_DELAY_MS, 3 * BASE_DELAY_MS, 7 * BASE_DELAY_MS]);

    assert.equal(errors.length, 3);
    for (const e of errors) {
      assert.equal(e.msg, 'internal error in the planner, requeuing');
      assert.equal(e.key, 'default/web');
      assert.match(String(e.err), /Cannot read properties of undefined \(reading 'metadata'\)/);
      assert.match(String(e.stack), /TypeError: Cannot read properties[^\n]*\n\s+at /);
    }
    assert.equal(await counter(metrics, 'ordinal_reconcile_panics_total'), 3);
    assert.equal(await counter(metrics, 'ordinal_reconcile_total', { result: 'error' }), 3);
    assert.equal(await counter(metrics, 'workqueue_retries_total', { name: 'statefulset' }), 3);

    const reasons = (await cluster.list<KubeEvent>(Resources.events, 'default')).items.map((e) => e.reason);
    assert.ok(reasons.includes('FailedPlanning'), reasons.join(','));
    const pods = (await cluster.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.name);
    assert.deepEqual(pods, ['web-0'], 'the sync that passed created the pod');
    await controller.stop();
  });

  it('treats a sync that throws the same way', async () => {
    const { planner } = standInPlanner();
    const throwing: Planner = {
      ...planner,
      plan: () => {
        throw new RangeError('planner port broke its contract');
      },
    };
    const { clock, cluster, metrics, controller, errors, outcomes } = setup(throwing);
    cluster.seed(Resources.statefulSets, set);
    await controller.start();
    await clock.run({ until: clock.now() + 100 });
    assert.ok(outcomes.length > 1 && outcomes.every(([, o]) => o.kind === 'internalError'));
    assert.equal(await counter(metrics, 'ordinal_reconcile_panics_total'), outcomes.length);
    assert.match(String(errors[0]?.stack), /RangeError: planner port broke its contract\n\s+at /);
    await controller.stop({ drain: false });
  });
});
