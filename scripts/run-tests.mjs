#!/usr/bin/env node
// Finds every *.test.ts under test/ (or the folders given) and runs them with node:test through tsx.
// Node 20's `--test` takes no globs, hence this walker. ORDINAL_E2E=0 leaves out the end-to-end files
// (test/e2e/, which need a control plane) and says so at the end: .ci/run runs them on its first Node
// version only.
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
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...reporters, ...flags, ...files], {
  stdio: 'inherit',
});
if (leftOut.length) console.log(`\nnot run: ${leftOut.length} end-to-end file${leftOut.length === 1 ? '' : 's'} under ${E2E_DIR} (ORDINAL_E2E=0)`);
process.exit(res.status ?? 1);
