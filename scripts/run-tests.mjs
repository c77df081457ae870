#!/usr/bin/env node
// Finds every *.test.ts under test/ (or the folders given) and runs them with node:test through tsx.
// Node 20's `--test` takes no globs, hence this walker. ORDINAL_E2E=0 leaves out the end-to-end files
// (test/e2e/, which need a control plane) and says so at the end: .ci/run runs them on its first Node
// version only. The other files run as many at a time as the machine has cores (they are CPU-bound and
// share nothing); the end-to-end files one at a time, as node:test's default here (they share one control plane).
import { availableParallelism } from 'node:os';
import { readdirSync, statSync } from 'node:fs';
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
const status = [run(files.filter((f) => !isE2e(f)), availableParallelism()), run(files.filter(isE2e), 1)].find((s) => s !== 0) ?? 0;
if (leftOut.length) console.log(`\nnot run: ${leftOut.length} end-to-end file${leftOut.length === 1 ? '' : 's'} under ${E2E_DIR} (ORDINAL_E2E=0)`);
process.exit(status);
