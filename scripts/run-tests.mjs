#!/usr/bin/env node
// Finds every *.test.ts under test/ (or the folders given) and runs them with node:test through tsx.
// Node 20's `--test` takes no globs, hence this walker.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

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
const files = (roots.length ? roots : ['test']).flatMap((r) => (statSync(r).isDirectory() ? walk(r, []) : [r]));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The spec reporter for every test, then one summary of what was skipped and why (skip-summary-reporter.mjs).
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${new URL('./skip-summary-reporter.mjs', import.meta.url).href}`, '--test-reporter-destination=stdout'];
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...reporters, ...flags, ...files], {
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
