// Every scenario in examples/ runs in `npm test`: all its expects hold, no step fails, the simulator sees no
// invariant violation, and its timeline is byte for byte examples/golden/NAME.jsonl, so a behaviour change
// shows up as a diff in review. `npm run golden` writes the goldens, each in a fresh process; here every
// example runs once, one after another in a single process, so a result that depended on caches warmed by
// an earlier run would not match.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario, type RunResult } from '../src/sim/runner.js';
import { loadScenario } from '../src/sim/scenario.js';
import { toJsonl } from '../src/sim/timeline.js';

const dir = join(import.meta.dirname, '..', 'examples');
const goldenDir = join(dir, 'golden');
const REGENERATE = 'if the change is intended, run `npm run golden` and review the diff of examples/golden/';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
  .sort();
const nameOf = (file: string) => file.replace(/\.ya?ml$/, '');

/** Each example runs once; its tests share the result. */
const runs = new Map<string, Promise<RunResult>>();
const run = (file: string) => {
  if (!runs.has(file)) runs.set(file, runScenario(loadScenario(join(dir, file))));
  return runs.get(file)!;
};

/** Undefined when equal; else where the first difference is, with both lines. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  const a = actual.replace(/\n$/, '').split('\n');
  const e = expected.replace(/\n$/, '').split('\n');
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) i++;
  const show = (lines: string[]) => (i < lines.length ? lines[i] : '(end of timeline)');
  return `first difference at line ${i + 1}:\n  golden: ${show(e)}\n  actual: ${show(a)}`;
}

describe('examples/', () => {
  it('has a scenario for each seed story', () => {
    for (const name of ['blog-max-unavailable', 'parallel-min-ready', 'partitioned-canary', 'enforced-rolling-update', 'recreate', 'scale-up-down', 'batch-start-together']) {
      assert.ok(files.includes(`${name}.yaml`), `examples/${name}.yaml is missing`);
    }
  });

  it('has a golden timeline for each example and none for an example that is gone', () => {
    const goldens = readdirSync(goldenDir).filter((f) => f.endsWith('.jsonl')).sort();
    assert.deepEqual(goldens, files.map((f) => `${nameOf(f)}.jsonl`), REGENERATE);
  });

  for (const file of files) {
    it(`${file} runs with every expect holding and no violations`, async () => {
      const scenario = loadScenario(join(dir, file));
      assert.ok(scenario.steps.some((s) => s.kind === 'expect'), `${file} has no expect step`);
      const result = await run(file);
      const failures = result.records.filter((r) => (r.type === 'expect' && !r.ok) || r.type === 'failure');
      assert.deepEqual(failures, [], `seed ${scenario.seed}`);
      assert.deepEqual(result.summary.violations, [], `seed ${scenario.seed}`);
      assert.equal(result.exitCode, 0);
    });

    it(`${file} gives its golden timeline byte for byte`, async () => {
      const golden = join(goldenDir, `${nameOf(file)}.jsonl`);
      assert.ok(existsSync(golden), `examples/golden/${nameOf(file)}.jsonl is missing; run \`npm run golden\``);
      const difference = firstDifference(toJsonl((await run(file)).records), readFileSync(golden, 'utf8'));
      if (difference !== undefined) assert.fail(`${file}: the timeline differs from examples/golden/${nameOf(file)}.jsonl, ${difference}\n${REGENERATE}`);
    });
  }
});

describe('firstDifference', () => {
  it('names the first line that differs, with both versions', () => {
    assert.equal(firstDifference('a\nb\n', 'a\nb\n'), undefined);
    assert.equal(firstDifference('a\nx\nc\n', 'a\nb\nc\n'), 'first difference at line 2:\n  golden: b\n  actual: x');
    assert.equal(firstDifference('a\n', 'a\nb\n'), 'first difference at line 2:\n  golden: b\n  actual: (end of timeline)');
  });
});
