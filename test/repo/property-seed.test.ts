// Property tests are reproducible: without ORDINAL_PROPERTY_SEED a test file draws its cases from the commit
// checked out (so CI on one commit is always the same run, and a red run replays), while `npm run fuzz`
// draws fresh seeds and prints the command that replays a failure.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNS_VARIABLE, SEED_VARIABLE, seedOf } from '../property-seed.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const fuzz = join(REPOSITORY, 'scripts', 'fuzz.ts');
// Without the variables this runner may have (a nested node:test reports to its parent without NODE_TEST_CONTEXT removed).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => ![SEED_VARIABLE, RUNS_VARIABLE, 'NODE_TEST_CONTEXT'].includes(k)));
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY, encoding: 'utf8' }).stdout.trim();

/** A property test file in a fresh directory: `body` may use `fc`, `checkProperty` and `propertySeed`. */
function propertyFile(body: string): { file: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-property-'));
  const file = join(dir, 'p.test.ts');
  const seedModule = new URL('../property-seed.ts', import.meta.url).href;
  writeFileSync(file, `import fc from '${import.meta.resolve('fast-check')}';\nimport { checkProperty, propertySeed } from '${seedModule}';\nimport { it } from 'node:test';\n${body}\n`);
  return { file, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const node = (args: string[], extra: Record<string, string> = {}) => spawnSync(process.execPath, args, { cwd: REPOSITORY, encoding: 'utf8', env: { ...env, ...extra } });
const printedSeed = (out: string): number => Number(/seed=(-?\d+)/.exec(out)?.[1]);

describe('property seeds', () => {
  it('come from the commit and the test file, the same on every run, unless ORDINAL_PROPERTY_SEED names one', () => {
    const p = propertyFile(`it('prints', () => console.log(\`seed=\${propertySeed}\`));\nvoid fc; void checkProperty;`);
    try {
      const runs = [node(['--import', 'tsx', '--test', p.file]), node(['--import', 'tsx', '--test', p.file])];
      for (const r of runs) assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.deepEqual(runs.map((r) => printedSeed(r.stdout)), [0, 1].map(() => seedOf(`${head}:${relative(REPOSITORY, p.file)}`)));
      assert.equal(printedSeed(node(['--import', 'tsx', '--test', p.file], { [SEED_VARIABLE]: '42' }).stdout), 42);
    } finally {
      p.done();
    }
  });

  it('npm run fuzz draws new seeds, stops at a failure with its replay command, and that command fails again', () => {
    const p = propertyFile(`it('is small', () => checkProperty(fc.property(fc.integer(), (n) => n < 1000), { numRuns: 200 }));`);
    try {
      const found = node(['--import', 'tsx', fuzz, '--minutes', '0', p.file]);
      assert.equal(found.status, 1, found.stdout + found.stderr);
      const replay = /^fuzz: .* replay: (ORDINAL_PROPERTY_SEED=(-?\d+) node --import tsx --test (\S+))$/m.exec(found.stdout);
      assert.ok(replay, found.stdout);
      assert.equal(replay[3], p.file);
      const again = node(['--import', 'tsx', '--test', p.file], { [SEED_VARIABLE]: replay[2] ?? '' });
      assert.equal(again.status, 1);
      assert.match(again.stdout, new RegExp(`property failed with seed ${replay[2]},`));
    } finally {
      p.done();
    }
  });

  it('npm run fuzz passes when every seed it draws in the time given passes', () => {
    const p = propertyFile(`it('holds', () => checkProperty(fc.property(fc.integer(), (n) => n === n), { numRuns: 10 }));`);
    try {
      const res = node(['--import', 'tsx', fuzz, '--minutes', '0', p.file]);
      assert.equal(res.status, 0, res.stdout + res.stderr);
      assert.match(res.stdout, /^fuzz: round 1: \S+ passed with seed -?\d+$/m);
      assert.match(res.stdout, /^fuzz: no failure in 1 rounds of 1 files$/m);
    } finally {
      p.done();
    }
  });
});
