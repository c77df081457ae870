// scripts/run-tests.mjs runs the end-to-end files two at a time, and a file marked `// run-tests: alone`
// after them with nothing beside it (it compares wall times). Each file here records when it starts and
// ends in one log; the two ordinary files wait for each other, so they pass only if they run together.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runTests = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
const nodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['NODE_TEST_CONTEXT', 'ORDINAL_E2E', 'ORDINAL_E2E_CONCURRENCY'].includes(k)));

/** A test file that logs its start, waits until `partner` has started (if given), and logs its end. */
const recorder = (name: string, partner?: string, alone = false): string => `${alone ? '// run-tests: alone (test)\n' : ''}import { it } from 'node:test';
import { appendFileSync, readFileSync } from 'node:fs';
const log = process.env.SCHEDULE_LOG;
const seen = () => readFileSync(log, 'utf8');
it('${name}', async () => {
  appendFileSync(log, 'start ${name}\\n');
  ${partner ? `for (let i = 0; i < 600 && !seen().includes('start ${partner}'); i++) await new Promise((r) => setTimeout(r, 100));` : ''}
  appendFileSync(log, 'end ${name}\\n');
});
`;

describe('the end-to-end schedule of scripts/run-tests.mjs', () => {
  it('runs two end-to-end files at once, and a file marked alone after them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-schedule-'));
    try {
      symlinkSync(nodeModules, join(dir, 'node_modules'));
      mkdirSync(join(dir, 'test', 'e2e'), { recursive: true });
      const log = join(dir, 'schedule.log');
      writeFileSync(log, '');
      writeFileSync(join(dir, 'test/e2e/a.test.mjs'), recorder('a', 'b'));
      writeFileSync(join(dir, 'test/e2e/b.test.mjs'), recorder('b', 'a'));
      writeFileSync(join(dir, 'test/e2e/c.test.mjs'), recorder('c', undefined, true));
      const files = ['a', 'c', 'b'].map((n) => `test/e2e/${n}.test.mjs`);
      const res = spawnSync(process.execPath, [runTests, ...files], { cwd: dir, encoding: 'utf8', env: { ...env, SCHEDULE_LOG: log } });
      assert.equal(res.status, 0, res.stdout + res.stderr);
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      const at = (l: string) => lines.indexOf(l);
      assert.ok(Math.max(at('start a'), at('start b')) < Math.min(at('end a'), at('end b')), `a and b ran together: ${lines.join(', ')}`);
      assert.deepEqual(lines.slice(-2), ['start c', 'end c'], `c ran after a and b, alone: ${lines.join(', ')}`);

      const bad = spawnSync(process.execPath, [runTests, ...files], { cwd: dir, encoding: 'utf8', env: { ...env, ORDINAL_E2E_CONCURRENCY: 'two' } });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /ORDINAL_E2E_CONCURRENCY must be a positive integer, not "two"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
