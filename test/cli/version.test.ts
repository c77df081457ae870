// `ordinal version`: the plugin convention (`kubectl ordinal version`), in text, JSON and YAML.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

function ordinal(...args: string[]): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('ordinal version', () => {
  it('prints the package version and the Node.js version in each format', () => {
    assert.equal(ordinal('version'), `Ordinal version: ${version}\nNode.js version: ${process.version}\n`);
    const expected = { ordinalVersion: version, nodeVersion: process.version };
    assert.deepEqual(JSON.parse(ordinal('version', '-o', 'json')), expected);
    assert.deepEqual(parse(ordinal('version', '-o', 'yaml')), expected);
  });
});
