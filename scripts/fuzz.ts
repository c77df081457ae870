// `npm run fuzz [-- --minutes N] [--runs N] [FILE...]`: explores new seeds of the property tests for as long
// as asked. `npm test` and CI draw each file's cases from the commit (test/property-seed.ts), the same on
// every run; this runs every property test file (those that import test/property-seed.ts, end-to-end ones
// only when named) again and again, each time with a fresh random seed, and stops at the first failure
// with the command that replays it.

import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { replayCommand, RUNS_VARIABLE, SEED_VARIABLE } from '../test/property-seed.js';

const USAGE = 'usage: npm run fuzz -- [--minutes N] [--runs N] [FILE...]';

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.test.ts') ? [path] : [];
    });
}

const USES_SEED = /import \{[^}]*\b(checkProperty|propertySeed)\b[^}]*\} from '\.\.\/property-seed\.js'/;

/** The unit test files with properties: they draw their cases with the property seed. */
const propertyFiles = (): string[] => walk('test').filter((f) => !f.startsWith(join('test', 'e2e')) && USES_SEED.test(readFileSync(f, 'utf8')));

function positive(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag} must be a number >= 0, got ${JSON.stringify(text)}\n${USAGE}`);
  return n;
}

function main(): number {
  const { values, positionals } = parseArgs({ options: { minutes: { type: 'string' }, runs: { type: 'string' } }, allowPositionals: true });
  const minutes = positive(values.minutes, 'minutes', 10);
  const runs = values.runs === undefined ? undefined : String(Math.max(1, Math.floor(positive(values.runs, 'runs', 1))));
  const files = positionals.length > 0 ? positionals : propertyFiles();
  const deadline = Date.now() + minutes * 60_000;
  let rounds = 0;
  console.log(`fuzz: ${files.length} files for ${minutes} min${runs ? `, ${runs} runs per property` : ''}`);
  do {
    rounds++;
    for (const file of files) {
      const seed = randomInt(-(2 ** 31), 2 ** 31);
      const env = { ...process.env, [SEED_VARIABLE]: String(seed), ...(runs ? { [RUNS_VARIABLE]: runs } : {}) };
      const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', file], { env, encoding: 'utf8' });
      if (res.status !== 0) {
        process.stdout.write(res.stdout + res.stderr);
        console.log(`fuzz: ${file} failed with seed ${seed} (round ${rounds}); replay: ${runs ? `${RUNS_VARIABLE}=${runs} ` : ''}${replayCommand(seed, file)}`);
        return 1;
      }
      console.log(`fuzz: round ${rounds}: ${file} passed with seed ${seed}`);
    }
  } while (Date.now() < deadline);
  console.log(`fuzz: no failure in ${rounds} rounds of ${files.length} files`);
  return 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 2;
}
