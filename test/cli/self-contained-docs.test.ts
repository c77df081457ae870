// Nothing in the repository — what a user reads (README, docs, examples, deploy manifests, Dockerfile) and
// what a contributor reads (source, tests, benchmarks, scripts) — refers to a file outside it: no developer
// specifications or seed documents that a clone does not contain.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = ['README.md', 'Dockerfile', 'package.json', 'eslint.config.js'];
const DIRS = ['docs', 'examples', 'deploy', 'src', 'test', 'bench', 'scripts', '.ci'];
/** This file names the patterns it looks for. */
const SELF = join('test', 'cli', 'self-contained-docs.test.ts');

const OUTSIDE: { pattern: RegExp; what: string }[] = [
  { pattern: /\.\.\/shared/, what: '../shared' },
  { pattern: /shared\/spec/, what: 'shared/spec' },
  { pattern: /shared\/seeds/, what: 'shared/seeds' },
  { pattern: /seeds\//, what: 'seeds/' },
  // the developer specifications by name, and the seed documents by number
  { pattern: /\b(scenario|style|product|upstream-statefulset)\.md\b/, what: 'a developer specification' },
  { pattern: /\bseeds? 0\d\d\b/, what: 'a seed document' },
];

function repositoryFiles(): string[] {
  const out = [...FILES];
  for (const dir of DIRS) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true })) {
      const path = join(dir, String(entry));
      if (path !== SELF && statSync(join(ROOT, path)).isFile()) out.push(path);
    }
  }
  return out.sort();
}

describe('the repository', () => {
  it('refers to no file outside it', () => {
    const files = repositoryFiles();
    assert.ok(files.some((f) => f.startsWith('deploy/')) && files.some((f) => f.startsWith('examples/')) && files.some((f) => f.startsWith('src/')));
    const found: string[] = [];
    for (const file of files) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const { pattern, what } of OUTSIDE) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });
});
