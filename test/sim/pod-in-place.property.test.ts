// Property (podUpdatePolicy InPlaceIfPossible): over random sizes, policies, partitions, budgets and image
// start times, an image-only rollout (or one that also resizes the container's cpu through pods/resize)
// deletes no pod, ends with every pod at or above the partition on the new
// image and revision (the others untouched), and at no instant has more than maxUnavailable replicas
// restarting or down — a replica counts from the moment its image is patched (its container has not
// reported the new image, or the new cpu, yet) until it is Running and Ready again. Judged from the stored pods alone, not
// from the controller's annotation. Cases are drawn with the process's property seed (test/property-seed.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Resources } from '../../src/api/client.js';
import type { Pod } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { propertySeed } from '../property-seed.js';

const cases = fc.record({
  replicas: fc.integer({ min: 1, max: 6 }),
  maxUnavailable: fc.integer({ min: 1, max: 3 }),
  partition: fc.integer({ min: 0, max: 3 }),
  parallel: fc.boolean(),
  podStart: fc.integer({ min: 1, max: 5 }),
  newImageStart: fc.integer({ min: 0, max: 8 }),
  resize: fc.boolean(),
});

type Case = typeof cases extends fc.Arbitrary<infer T> ? T : never;
const resources = (cpu: string) => `{requests: {cpu: ${cpu}, memory: 64Mi}, limits: {cpu: "2", memory: 64Mi}}`;
const scenario = (c: Case) => `kind: Scenario
cluster: {podStartSeconds: ${c.podStart}, images: {"db:2": {startSeconds: ${c.newImageStart}}}, allocatable: {cpu: "64", memory: 64Gi}}
objects:
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: ${c.replicas}
      podManagementPolicy: ${c.parallel ? 'Parallel' : 'OrderedReady'}
      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${c.maxUnavailable}, partition: ${c.partition}, podUpdatePolicy: InPlaceIfPossible}}
      selector: {matchLabels: {app: db}}
      template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: "db:1", resources: ${resources('100m')}}]}}
steps:
  - waitFor: Converged
  - ${c.resize ? `patch: {kind: StatefulSet, name: db, merge: {spec: {template: {spec: {containers: [{name: c, image: "db:2", resources: ${resources('500m')}}]}}}}}` : 'setImage: {name: db, container: c, image: "db:2"}'}
  - waitFor: Converged
    timeoutSeconds: 600
`;

const cpuRequest = (resources: unknown): unknown => (resources as { requests?: { cpu?: unknown } } | undefined)?.requests?.cpu;

/** Restarting or down: missing, terminating, not Running and Ready, or its container not yet on its spec's image and cpu. */
function down(pod: Pod | undefined): boolean {
  if (pod === undefined || pod.metadata.deletionTimestamp) return true;
  const ready = pod.status?.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  const status = pod.status?.containerStatuses?.find((s) => s.name === 'c');
  const spec = pod.spec.containers[0];
  return !ready || status?.image !== spec?.image || cpuRequest(status?.['resources']) !== cpuRequest(spec?.['resources']);
}

describe('podUpdatePolicy InPlaceIfPossible (property)', () => {
  it(`rolls images in place, never more than maxUnavailable replicas restarting or down (seed ${propertySeed})`, async () => {
    for (const c of fc.sample(cases, { seed: propertySeed, numRuns: 12 })) {
      const what = JSON.stringify(c);
      const sim = new Simulation(parseScenario(scenario(c)));
      const pods = new Map<string, Pod>();
      let rolling = false;
      let worst = 0;
      sim.world.cluster.onWrite((w) => {
        if (w.resource.plural !== 'pods') return;
        if (w.change === 'DELETED') pods.delete(w.name);
        else pods.set(w.name, w.object as Pod);
        const slots = Array.from({ length: c.replicas }, (_, i) => pods.get(`db-${i}`));
        if (!rolling) rolling = slots.some((p) => p !== undefined && p.spec.containers[0]?.image === 'db:2');
        if (rolling) worst = Math.max(worst, slots.filter(down).length);
      });
      await sim.start();
      await sim.runSteps();
      const stored = (await sim.world.user.list<Pod>(Resources.pods, 'default')).items;
      await sim.finish();
      assert.equal(sim.failed, false, `${what}: ${JSON.stringify(sim.records.filter((r) => r.type === 'failure'))}`);
      assert.ok(worst <= c.maxUnavailable, `${what}: ${worst} replicas restarting or down at once`);
      const deletions = sim.records.filter((r) => r.type === 'action' && r.verb === 'delete' && r.resource === 'pods');
      assert.deepEqual(deletions, [], `${what}: no pod deleted`);
      const images = stored.map((p) => `${p.metadata.name ?? ''} ${p.spec.containers[0]?.image ?? ''} ${String(cpuRequest(p.status?.containerStatuses?.[0]?.['resources']))}`).sort();
      const cpu = c.resize ? '500m' : '100m';
      const expected = Array.from({ length: c.replicas }, (_, i) => `db-${i} ${i < c.partition ? 'db:1 100m' : `db:2 ${cpu}`}`);
      assert.deepEqual(images, expected, `${what}: pods at or above the partition on the new image, the others untouched`);
    }
  });
});
