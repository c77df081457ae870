// Every fast-check property runs through checkProperty, so each run is reproducible: the seed comes from
// ORDINAL_PROPERTY_SEED when set (else a fresh one, the only ambient randomness in the tests), and a
// failure prints it, fast-check's path and the command that replays it. ORDINAL_PROPERTY_RUNS overrides
// numRuns, e.g. to hunt for rare failures with many runs.

import fc from 'fast-check';

export const SEED_VARIABLE = 'ORDINAL_PROPERTY_SEED';
export const RUNS_VARIABLE = 'ORDINAL_PROPERTY_RUNS';

function integerFrom(variable: string, min: number, max: number): number | undefined {
  const raw = process.env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${variable} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The seed of every property in this test process (fast-check seeds are 32-bit integers). */
export const propertySeed: number = integerFrom(SEED_VARIABLE, -(2 ** 31), 2 ** 31 - 1) ?? Math.floor(Math.random() * 2 ** 31);

const runsOverride = integerFrom(RUNS_VARIABLE, 1, 10_000_000);

/** The command that replays this process's properties with the same seed. */
function replayCommand(): string {
  const file = process.argv.find((a) => a.endsWith('.test.ts')) ?? 'FILE';
  return `${SEED_VARIABLE}=${propertySeed} node --import tsx --test ${file}`;
}

/** fc.assert with the process's seed; a failure names the seed, the path and the replay command. */
export function checkProperty<Ts>(property: fc.IProperty<Ts>, opts: { numRuns: number }): void {
  const details = fc.check(property, { seed: propertySeed, numRuns: runsOverride ?? opts.numRuns });
  if (!details.failed) return;
  const header = `property failed with seed ${details.seed}, path ${JSON.stringify(details.counterexamplePath)}; replay: ${replayCommand()}`;
  const error = details.errorInstance;
  const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
  throw new Error(`${header}\n${fc.defaultReportMessage(details) ?? ''}\n${reason}`, { cause: error });
}
