#!/usr/bin/env node
// Finds every *.test.ts under test/ (or the folders given) and runs them with node:test through tsx.
// Node 20's `--test` takes no globs, hence this walker. ORDINAL_E2E=0 leaves out the end-to-end files
// (test/e2e/, which need a control plane) and says so at the end: .ci/run runs them on its first Node
// version only. The other files run as many at a time as the machine has cores (they are CPU-bound and
// share nothing). The end-to-end files mostly wait on the control plane (pods, kube-controller-manager's
// resyncs, leases), so they run beside those, two at a time on one control plane (ORDINAL_E2E_CONCURRENCY;
// what one test needs cluster-wide to itself it takes with test/e2e/exclusive.ts), and the other files'
// output is held until they end so the two reports do not interleave. A file that compares wall times says
// `// run-tests: alone` in its first lines and runs last, with nothing beside it.
import { availableParallelism } from 'node:os';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawn } from 'node:child_process';

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
/** Runs one group of files; `held`: its output is printed when it ends, because another group prints meanwhile. */
function run(group, concurrency, held = false) {
  if (group.length === 0) return Promise.resolve(0);
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...reporters, ...flags, ...group];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const out = [];
    const err = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => err.push(d));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      process.stderr.write(Buffer.concat(err));
      resolve(code ?? 1);
    });
  });
}
const ALONE = /^\/\/ run-tests: alone\b/m;
const runsAlone = (file) => ALONE.test(readFileSync(file, 'utf8').slice(0, 2000));
const e2e = files.filter(isE2e);
const e2eConcurrency = Number(process.env.ORDINAL_E2E_CONCURRENCY ?? 2);
if (!Number.isInteger(e2eConcurrency) || e2eConcurrency < 1) {
  console.error(`ORDINAL_E2E_CONCURRENCY must be a positive integer, not ${JSON.stringify(process.env.ORDINAL_E2E_CONCURRENCY)}`);
  process.exit(1);
}
const beside = e2e.filter((f) => !runsAlone(f));
const statuses = await Promise.all([run(files.filter((f) => !isE2e(f)), availableParallelism(), beside.length > 0), run(beside, e2eConcurrency)]);
statuses.push(await run(e2e.filter(runsAlone), 1));
const status = statuses.find((s) => s !== 0) ?? 0;
if (leftOut.length) console.log(`\nnot run: ${leftOut.length} end-to-end file${leftOut.length === 1 ? '' : 's'} under ${E2E_DIR} (ORDINAL_E2E=0)`);
process.exit(status);
