import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/ordinal.js', 'controller', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('ordinal controller flag errors', () => {
  it('exits 2 naming the flag for an invalid value, before contacting any cluster', () => {
    const res = run('--target=pods', '--kubeconfig=/nonexistent/kubeconfig');
    assert.equal(res.status, 2, res.stderr);
    assert.match(res.stderr, /error: --kubeconfig=\/nonexistent\/kubeconfig: no such file/);
  });
  it('exits 2 for an unknown flag, as for its own validation errors', () => {
    const res = run('--no-such-flag');
    assert.equal(res.status, 2, res.stderr);
    assert.match(res.stderr, /^error: unknown flag: --no-such-flag$/m);
  });
});
