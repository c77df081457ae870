#!/usr/bin/env node
// Finds every *.test.ts under test/ (or the folders given) and runs them with node:test through tsx.
// Node 20's `--test` takes no globs, hence this walker. ORDINAL_E2E=0 leaves out the end-to-end files
// (test/e2e/, which need a control plane) and says so at the end: .ci/run runs them on its first Node
// version only. The other files run as many at a time as the machine has cores (they are CPU-bound and
// share nothing). The end-to-end files mostly wait on the control plane (pods, kube-controller-manager's
// resyncs, leases), so two run at a time on one control plane (ORDINAL_E2E_CONCURRENCY; what one test needs
// cluster-wide to itself it takes with test/e2e/exclusive.ts); a file that compares wall times says
// `// run-tests: alone` in its first lines and runs after them, with nothing beside it.
import { availableParallelism } from 'node:os';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawnSync } from 'node:child_process';

const E2E_DIR = join('test', 'e2e') + sep;

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const roots = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
const found = (roots.length ? roots : ['test']).flatMap((r) => (statSync(r).isDirectory() ? walk(r, []) : [r]));
const isE2e = (file) => join(file).startsWith(E2E_DIR);
const leftOut = process.env.ORDINAL_E2E === '0' ? found.filter(isE2e) : [];
const files = found.filter((f) => !leftOut.includes(f));
if (files.length === 0) {
  console.error(leftOut.length ? `no test files found but the end-to-end files ORDINAL_E2E=0 leaves out` : 'no test files found');
  process.exit(1);
}
// The spec reporter for every test, then one summary of what was skipped and why (skip-summary-reporter.mjs).
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${new URL('./skip-summary-reporter.mjs', import.meta.url).href}`, '--test-reporter-destination=stdout'];
const run = (group, concurrency) =>
  group.length === 0 ? 0 : (spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...reporters, ...flags, ...group], { stdio: 'inherit' }).status ?? 1);
const ALONE = /^\/\/ run-tests: alone\b/m;
const runsAlone = (file) => ALONE.test(readFileSync(file, 'utf8').slice(0, 2000));
const e2e = files.filter(isE2e);
const e2eConcurrency = Number(process.env.ORDINAL_E2E_CONCURRENCY ?? 2);
if (!Number.isInteger(e2eConcurrency) || e2eConcurrency < 1) {
  console.error(`ORDINAL_E2E_CONCURRENCY must be a positive integer, not ${JSON.stringify(process.env.ORDINAL_E2E_CONCURRENCY)}`);
  process.exit(1);
}
const groups = [
  [files.filter((f) => !isE2e(f)), availableParallelism()],
  [e2e.filter((f) => !runsAlone(f)), e2eConcurrency],
  [e2e.filter(runsAlone), 1],
];
const status = groups.map(([group, concurrency]) => run(group, concurrency)).find((s) => s !== 0) ?? 0;
if (leftOut.length) console.log(`\nnot run: ${leftOut.length} end-to-end file${leftOut.length === 1 ? '' : 's'} under ${E2E_DIR} (ORDINAL_E2E=0)`);
process.exit(status);
