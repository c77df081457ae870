// The Dockerfile read as text: the rules hadolint and the restricted Pod Security Standard care about for
// this image. test/e2e/image.test.ts builds and runs it for real (scripts/image/build.sh).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
const stages = lines.filter((l) => /^FROM\s/i.test(l));
const runtime = text.slice(text.lastIndexOf('\nFROM '));
const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());

describe('Dockerfile', () => {
  it('is multi-stage on node:24-slim, with a build stage and a runtime stage', () => {
    assert.ok(stages.length >= 2, 'at least two stages');
    assert.match(text, /ARG BASE_IMAGE=node:24-slim\b/);
    for (const s of stages) assert.match(s, /^FROM \$\{BASE_IMAGE\}( AS \w+)?$/);
    assert.match(stages[0] ?? '', /AS build$/);
  });
  it('takes the base as BASE_IMAGE, declared before the first FROM, so every stage can use a local equivalent', () => {
    const arg = text.search(/^ARG BASE_IMAGE=/m);
    assert.ok(arg >= 0 && arg < text.search(/^FROM /m), 'a global ARG');
  });
  it('refers to nothing outside the repository: a clone is all a user has', () => {
    assert.doesNotMatch(text, /\.\.\/|\bshared\/|\bspec\/|\bseeds\b|product\.md|upstream-statefulset\.md|style\.md|scenario\.md/);
    const sources = lines.filter((l) => /^COPY\s/.test(l) && !/--from=/.test(l)).flatMap((l) => l.trim().split(/\s+/).slice(1, -1));
    for (const src of sources) assert.ok(existsSync(join(ROOT, src)), `COPY ${src}: not in the repository`);
  });
  it('installs with npm ci from the lockfile, builds, and prunes dev dependencies', () => {
    assert.match(text, /COPY package\.json package-lock\.json \.\//);
    assert.match(text, /RUN npm ci\b/);
    assert.match(text, /npm run build && npm prune --omit=dev/);
    assert.doesNotMatch(text, /npm install\b/);
  });
  it('runs the final stage as a numeric non-root user, so runAsNonRoot can verify it', () => {
    const user = /^USER\s+(\d+)(?::(\d+))?\s*$/m.exec(runtime);
    assert.ok(user, 'a numeric USER in the runtime stage');
    assert.notEqual(user[1], '0');
  });
  it('copies only build output and runtime files into the final stage, never sources or tests', () => {
    const copies = runtime.split('\n').filter((l) => l.startsWith('COPY'));
    for (const c of copies) assert.doesNotMatch(c, /\b(src|test|\.)\s+\.\/?$/, c);
    assert.ok(copies.some((c) => c.includes('/app/dist')));
  });
  it('starts the CLI with exec-form ENTRYPOINT (signals reach node directly) and defaults to `controller`', () => {
    assert.match(runtime, /^ENTRYPOINT \["node", "\/app\/bin\/ordinal\.js"\]$/m);
    assert.match(runtime, /^CMD \["controller"\]$/m);
  });
  it('needs no writable path: nothing in the runtime stage writes at start (no npm, no chmod at run time)', () => {
    assert.doesNotMatch(runtime, /^RUN\b/m, 'the runtime stage runs nothing, so the root filesystem can be read-only');
  });
  it('exposes the metrics and health ports of the manifests', () => {
    assert.match(runtime, /^EXPOSE 8080 8081$/m);
  });
  it('keeps the build context small and secrets-free through .dockerignore', () => {
    for (const p of ['.git', 'node_modules', 'dist', 'test']) assert.ok(ignored.includes(p), p);
    assert.ok(existsSync(join(ROOT, 'bin', 'ordinal.js')));
  });
});
