// The single-file kubectl plugin: scripts/bundle.mjs builds it, and it runs on its own, under the name
// kubectl looks for, away from the repository.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'kubectl-ordinal-'));

describe('npm run bundle', () => {
  it('builds an executable CommonJS file that works as `kubectl-ordinal` outside the repository', () => {
    const outfile = join(dir, 'kubectl-ordinal.cjs');
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'bundle.mjs'), '--outfile', outfile], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    assert.ok((statSync(outfile).mode & 0o111) !== 0, 'executable');
    const plugin = join(dir, 'kubectl-ordinal');
    copyFileSync(outfile, plugin);
    const run = (...args: string[]) => spawnSync(process.execPath, [plugin, ...args], { encoding: 'utf8', cwd: dir, env: { ...process.env, NO_COLOR: '1' } });

    const help = run('--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: kubectl ordinal /);
    for (const cmd of ['rollout', 'why', 'plan', 'validate', 'manifests', 'simulate']) assert.match(help.stdout, new RegExp(`\\n  ${cmd}\\b`));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    assert.equal(run('--version').stdout.trim(), pkg.version);

    const manifest = join(dir, 'bad.yaml');
    writeFileSync(manifest, 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec: {replicas: -1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}\n');
    const validate = run('validate', manifest);
    assert.equal(validate.status, 1);
    assert.match(validate.stdout, /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/);

    const demo = run('demo', '--speed', '0', '--report', join(dir, 'demo.html'));
    assert.equal(demo.status, 0, demo.stderr);
    assert.match(demo.stdout, /^Ordinal demo: .* on the simulated cluster/);
    assert.ok(statSync(join(dir, 'demo.html')).size > 0, 'the demo wrote its report');

    const status = run('rollout', 'status', 'web', '--kubeconfig', join(dir, 'missing-kubeconfig'));
    assert.equal(status.status, 1);
    assert.match(status.stderr, /^error: cannot load kubeconfig: /);

    // Enough runs for worker threads, which the bundle starts on itself.
    const wide = join(dir, 'wide.yaml');
    writeFileSync(wide, 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec: {replicas: 25, podManagementPolicy: Parallel, updateStrategy: {rollingUpdate: {maxUnavailable: 25}}, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}\n');
    const forecast = run('forecast', '-f', wide, '--image', 'c=j', '--runs', '40', '--no-candidates', '-o', 'json');
    assert.equal(forecast.status, 0, forecast.stderr);
    // up to 40 runs (enough to start workers), fewer once the band holds still: every run made converges
    const [current] = (JSON.parse(forecast.stdout) as { settings: Array<{ runs: number; converged: number }> }).settings;
    assert.ok(current !== undefined && current.runs >= 8 && current.converged === current.runs, forecast.stdout);
  });
});
