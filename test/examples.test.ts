// Every scenario in examples/ runs in `npm test`: all its expects hold, no step fails and the simulator
// sees no invariant violation. One example is run twice to show the timeline is byte-identical.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../src/sim/runner.js';
import { loadScenario } from '../src/sim/scenario.js';
import { toJsonl } from '../src/sim/timeline.js';

const dir = join(import.meta.dirname, '..', 'examples');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
  .sort();

describe('examples/', () => {
  it('has a scenario for each seed story', () => {
    for (const name of ['blog-max-unavailable', 'parallel-min-ready', 'partitioned-canary', 'enforced-rolling-update', 'recreate', 'scale-up-down', 'batch-start-together']) {
      assert.ok(files.includes(`${name}.yaml`), `examples/${name}.yaml is missing`);
    }
  });

  for (const file of files) {
    it(`${file} runs with every expect holding and no violations`, async () => {
      const scenario = loadScenario(join(dir, file));
      assert.ok(scenario.steps.some((s) => s.kind === 'expect'), `${file} has no expect step`);
      const result = await runScenario(scenario);
      const failures = result.records.filter((r) => (r.type === 'expect' && !r.ok) || r.type === 'failure');
      assert.deepEqual(failures, [], `seed ${scenario.seed}`);
      assert.deepEqual(result.summary.violations, [], `seed ${scenario.seed}`);
      assert.equal(result.exitCode, 0);
    });
  }

  it('gives a byte-identical timeline when the same scenario and seed run twice', async () => {
    const scenario = () => loadScenario(join(dir, 'blog-max-unavailable.yaml'));
    const first = toJsonl((await runScenario(scenario())).records);
    const second = toJsonl((await runScenario(scenario())).records);
    assert.ok(first.length > 1000);
    assert.equal(second, first);
  });
});
