// `podStartSeconds` / `podTerminationSeconds` as `{samples: […]}`: each pod draws one sample, from the run's
// seed and its UID, so a run is reproducible and different seeds spread the draws differently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { ScenarioError } from '../../src/sim/scenario-fields.js';
import { toJsonl, type TimelineRecord } from '../../src/sim/timeline.js';

const scenario = (seed: number, start = '{samples: [2, 9]}') => `kind: Scenario
seed: ${seed}
cluster: {podStartSeconds: ${start}}
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 12
      podManagementPolicy: Parallel
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "app:1"}]}
steps:
  - waitFor: Converged
`;

/** Seconds from each pod's creation to its Ready, by pod name. */
function startTimes(records: TimelineRecord[]): Map<string, number> {
  const created = new Map<string, number>();
  const out = new Map<string, number>();
  for (const r of records) {
    if (r.type !== 'pod') continue;
    if (r.event === 'Created') created.set(r.name, r.t);
    if (r.event === 'Ready') out.set(r.name, r.t - (created.get(r.name) ?? NaN));
  }
  return out;
}

describe('duration samples', () => {
  it('each pod starts in one of the samples; the same seed repeats the run, another seed draws differently', async () => {
    const a = await runScenario(parseScenario(scenario(1)));
    const times = [...startTimes(a.records).values()];
    assert.equal(times.length, 12);
    assert.deepEqual(new Set(times), new Set([2, 9]), `${times}`);
    const again = await runScenario(parseScenario(scenario(1)));
    assert.equal(toJsonl(again.records), toJsonl(a.records));
    const others = await Promise.all([2, 3, 4].map(async (seed) => [...startTimes((await runScenario(parseScenario(scenario(seed)))).records).values()].join()));
    assert.ok(others.some((t) => t !== times.join()), 'another seed gives other draws');
  });

  it('refuses empty, negative and unknown sample fields with their paths', () => {
    const issues = (start: string) => {
      try {
        parseScenario(scenario(1, start));
        return [];
      } catch (e) {
        return (e as ScenarioError).issues.map((i) => `${i.path}: ${i.message}`);
      }
    };
    assert.deepEqual(issues('{samples: []}'), ['cluster.podStartSeconds.samples: must not be empty']);
    assert.deepEqual(issues('{samples: [1, -2]}'), ['cluster.podStartSeconds.samples[1]: must be >= 0, got -2']);
    assert.match(issues('{samples: [1], mean: 3}').join(), /cluster\.podStartSeconds\.mean: unknown field/);
  });
});
