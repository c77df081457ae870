// `npm test` ends with one summary of what was skipped and why (scripts/skip-summary-reporter.mjs), so a
// run without a control plane says so once, with the count, instead of only beside every test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runTests = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
// Without NODE_TEST_CONTEXT, which would make the nested runner report to this one instead of printing.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT' && k !== 'ORDINAL_E2E'));

function inTempDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-skips-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the skip summary of scripts/run-tests.mjs', () => {
  it('counts each reason once, most frequent first, and says nothing when nothing was skipped', () => {
    inTempDir((dir) => {
      const file = join(dir, 'skips.test.mjs');
      writeFileSync(
        file,
        `import { it } from 'node:test';
it('a', (t) => t.skip('no control plane (x)'));
it('b', (t) => t.skip('no control plane (x)'));
it('c', { skip: 'needs podman' }, () => {});
it('d', () => {});
`,
      );
      const res = spawnSync(process.execPath, [runTests, file], { encoding: 'utf8', env });
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stdout, /\nskipped 3 tests:\n +2 × no control plane \(x\)\n +1 × needs podman\n/);
      writeFileSync(file, `import { it } from 'node:test';\nit('d', () => {});\n`);
      const clean = spawnSync(process.execPath, [runTests, file], { encoding: 'utf8', env });
      assert.equal(clean.status, 0, clean.stderr);
      assert.doesNotMatch(clean.stdout, /skipped \d+ (test|suite)/);
    });
  });

  it('counts skipped tests as node:test does, and lists a skipped suite apart', () => {
    inTempDir((dir) => {
      const file = join(dir, 'suites.test.mjs');
      writeFileSync(
        file,
        `import { describe, it } from 'node:test';
describe('needs an image', { skip: 'no image' }, () => { it('x', () => {}); it('y', () => {}); });
describe('runs', () => { it('a', (t) => t.skip('no control plane')); it('b', () => {}); });
`,
      );
      const res = spawnSync(process.execPath, [runTests, file], { encoding: 'utf8', env });
      assert.equal(res.status, 0, res.stderr);
      const nodeCount = /ℹ skipped (\d+)/.exec(res.stdout)?.[1];
      assert.equal(nodeCount, '1', res.stdout);
      assert.match(res.stdout, new RegExp(`\\nskipped ${nodeCount} test:\\n +1 × no control plane\\n`));
      assert.match(res.stdout, /\nskipped 1 suite, whose tests did not run:\n +1 × no image\n/);
    });
  });

  it('ORDINAL_E2E=0 leaves out the files under test/e2e/ and says so at the end', () => {
    inTempDir((dir) => {
      // A checkout's layout: test/ and test/e2e/ under the working directory, tsx in its node_modules.
      mkdirSync(join(dir, 'test', 'e2e'), { recursive: true });
      symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'));
      writeFileSync(join(dir, 'test', 'unit.test.ts'), `import { it } from 'node:test';\nit('unit', () => {});\n`);
      writeFileSync(join(dir, 'test', 'e2e', 'cluster.test.ts'), `import { it } from 'node:test';\nit('on a cluster', () => {});\n`);
      const run = (extra: NodeJS.ProcessEnv) => spawnSync(process.execPath, [runTests], { encoding: 'utf8', cwd: dir, env: { ...env, ...extra } });
      const all = run({});
      assert.equal(all.status, 0, all.stderr);
      assert.match(all.stdout, /on a cluster/);
      const withoutE2e = run({ ORDINAL_E2E: '0' });
      assert.equal(withoutE2e.status, 0, withoutE2e.stderr);
      assert.match(withoutE2e.stdout, /✔ unit/);
      assert.doesNotMatch(withoutE2e.stdout, /on a cluster/);
      assert.match(withoutE2e.stdout, /\nnot run: 1 end-to-end file under test\/e2e\/ \(ORDINAL_E2E=0\)\n$/);
    });
  });
});
