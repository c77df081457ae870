// A whole simulated run touches no real time and no ambient randomness: every timer global, Date.now,
// performance.now and Math.random is trapped while an example runs end to end, and any call fails the
// test with its caller. The lint bans these in src/; this also catches dependencies and indirect calls.
// The allowed calls are the virtual clock's setImmediate, which waits for promise chains to drain and
// reads no time, and the test's TypeScript loader reading the clock while it compiles a module.

import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../../src/sim/runner.js';
import { loadScenario } from '../../src/sim/scenario.js';
import type { SimulationOptions } from '../../src/sim/simulation.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'enforced-rolling-update.yaml');
const THIS_FILE = fileURLToPath(import.meta.url);
const VIRTUAL_CLOCK = join('src', 'sim', 'virtual-clock.ts');
/** The test's TypeScript loader reads the clock when it compiles a module loaded lazily (seen on Node 24); it is
 * not part of Ordinal (dist/ runs without it), so its reads are not Ordinal's. */
const TS_LOADER = join('node_modules', 'tsx', 'dist');

/** The first stack frame above `fn` outside Node's internals (the mock's own): who called the trapped function. */
function callerOf(fn: (...args: never[]) => unknown): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, fn);
  const frames = (holder.stack ?? '').split('\n').slice(1);
  return frames.find((f) => !f.includes('node:internal'))?.trim().replace(/^at /, '') ?? '(unknown)';
}

type Trapped = Record<string, (...args: never[]) => unknown>;

/** Replaces `obj[name]` for the rest of the test with a pass-through that records its caller. */
function trap(t: TestContext, calls: string[], obj: object, label: string, name: string, allow?: (caller: string) => boolean): void {
  const original = (obj as Trapped)[name]!;
  t.mock.method(obj as Trapped, name, function trapped(this: unknown, ...args: never[]) {
    const caller = callerOf(trapped);
    if (!allow?.(caller)) calls.push(`${label} from ${caller}`);
    return original.apply(this, args);
  });
}

/** Runs the example with every real-time and randomness source trapped; returns the trapped calls. */
async function runTrapped(t: TestContext, opts: SimulationOptions = {}): Promise<{ calls: string[]; exitCode: number }> {
  const scenario = loadScenario(EXAMPLE);
  const calls: string[] = [];
  trap(t, calls, globalThis, 'setTimeout', 'setTimeout');
  trap(t, calls, globalThis, 'setInterval', 'setInterval');
  trap(t, calls, globalThis, 'setImmediate', 'setImmediate', (caller) => caller.includes(VIRTUAL_CLOCK));
  trap(t, calls, Date, 'Date.now', 'now', (caller) => caller.includes(TS_LOADER));
  trap(t, calls, performance, 'performance.now', 'now');
  trap(t, calls, Math, 'Math.random', 'random');
  try {
    const { exitCode } = await runScenario(scenario, opts);
    return { calls, exitCode };
  } finally {
    t.mock.restoreAll();
  }
}

describe('real-time tripwire', () => {
  it('runs a whole example without real timers, wall time or Math.random', async (t) => {
    const { calls, exitCode } = await runTrapped(t);
    assert.equal(exitCode, 0);
    assert.deepEqual(calls, []);
  });

  it('reports a wall-clock read made anywhere during the run, with its caller', async (t) => {
    let records = 0;
    const onRecord = () => {
      if (records++ === 10) Date.now();
    };
    const { calls } = await runTrapped(t, { onRecord });
    assert.equal(calls.length, 1, calls.join('\n'));
    assert.ok(calls[0]!.startsWith('Date.now from ') && calls[0]!.includes(THIS_FILE), calls[0]);
  });
});
