// The project's files name no package registry's host: users and contributors are told "the npm
// registry", "the Go module proxy" or "Debian's packages". The hosts are assembled from parts so this
// file does not name them either.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const hosts = [
  ['proxy', 'golang', 'org'],
  ['sum', 'golang', 'org'],
  ['registry', 'npmjs', 'org'],
  ['registry', 'yarnpkg', 'com'],
  ['deb', 'debian', 'org'],
  ['security', 'debian', 'org'],
  ['pypi', 'org'],
].map((parts) => parts.join('.'));

describe('repository hygiene', () => {
  it('names no package registry host in any tracked file', () => {
    const args = ['grep', '-nIF', ...hosts.flatMap((h) => ['-e', h]), '--', '.', ':!package-lock.json'];
    let found = '';
    try {
      found = execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    } catch (error) {
      // git grep exits 1 when nothing matches; anything else is a real failure.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    assert.equal(found, '', `registry hosts named in:\n${found}`);
  });
});
