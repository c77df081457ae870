// `npm test` ends with one summary of what was skipped and why (scripts/skip-summary-reporter.mjs), so a
// run without a control plane says so once, with the count, instead of only beside every test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runTests = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
// Without NODE_TEST_CONTEXT, which would make the nested runner report to this one instead of printing.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT'));

describe('the skip summary of scripts/run-tests.mjs', () => {
  it('counts each reason once, most frequent first, and says nothing when nothing was skipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-skips-'));
    try {
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
      assert.doesNotMatch(clean.stdout, /skipped \d+ test/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
