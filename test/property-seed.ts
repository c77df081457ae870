// Every fast-check property runs through checkProperty, so each run is reproducible: the seed comes from
// ORDINAL_PROPERTY_SEED when set, else from the commit checked out and the test file (the same commit
// always draws the same cases, so a CI run is red or green for its commit, never by chance), and a failure
// prints it, fast-check's path and the command that replays it. `npm run fuzz` draws new seeds instead
// (scripts/fuzz.mjs). ORDINAL_PROPERTY_RUNS overrides numRuns, e.g. to hunt for rare failures with many runs.

import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

export const SEED_VARIABLE = 'ORDINAL_PROPERTY_SEED';
export const RUNS_VARIABLE = 'ORDINAL_PROPERTY_RUNS';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

function integerFrom(variable: string, min: number, max: number): number | undefined {
  const raw = process.env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${variable} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The test file this process runs (node --test starts one process per file), relative to the repository. */
function testFile(): string {
  const file = process.argv.find((a) => a.endsWith('.test.ts'));
  return file === undefined ? 'FILE' : relative(REPOSITORY, file);
}

/** The commit checked out, or '' outside a git checkout (an unpacked tarball). */
function headCommit(): string {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : '';
}

/** A 32-bit seed from text (FNV-1a), as fast-check takes. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash | 0;
}

/** The seed of every property in this test process (fast-check seeds are 32-bit integers). */
export const propertySeed: number = integerFrom(SEED_VARIABLE, -(2 ** 31), 2 ** 31 - 1) ?? seedOf(`${headCommit()}:${testFile()}`);

const runsOverride = integerFrom(RUNS_VARIABLE, 1, 10_000_000);

/** The command that replays this process's properties with the same seed. */
export function replayCommand(seed: number, file: string): string {
  return `${SEED_VARIABLE}=${seed} node --import tsx --test ${file}`;
}

/** Throws the failure of a finished check: the seed, the path and the replay command. */
function report<Ts>(details: fc.RunDetails<Ts>): void {
  if (!details.failed) return;
  const header = `property failed with seed ${details.seed}, path ${JSON.stringify(details.counterexamplePath)}; replay: ${replayCommand(propertySeed, testFile())}`;
  const error = details.errorInstance;
  const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
  throw new Error(`${header}\n${fc.defaultReportMessage(details) ?? ''}\n${reason}`, { cause: error });
}

/** fc.assert with the process's seed; a failure names the seed, the path and the replay command. */
export function checkProperty<Ts>(property: fc.IProperty<Ts>, opts: { numRuns: number }): void {
  report(fc.check(property, { seed: propertySeed, numRuns: runsOverride ?? opts.numRuns }));
}

/** checkProperty for an fc.asyncProperty. */
export async function checkAsyncProperty<Ts>(property: fc.IAsyncProperty<Ts>, opts: { numRuns: number }): Promise<void> {
  report(await fc.check(property, { seed: propertySeed, numRuns: runsOverride ?? opts.numRuns }));
}
