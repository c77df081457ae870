// `npx ordinal …` in a fresh clone, as the README's commands run it: npx links the clone into its cache (a
// fresh cache here) and runs the `prepare` script on the link. Once `npm ci` has built dist/, that must not
// build again (a full tsc build made the first `npx ordinal` take minutes with no output): the command runs
// the dist/ `npm ci` built, and after an edit the sources through tsx, never a build. The clone is a copy of
// what the scripts read (package.json, tsconfig, bin/, scripts/prepare.mjs, src/) with the repository's node_modules
// and a stand-in dist/ that says it ran.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ordinal-npx-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A clone whose dist/ was built (a stamp newer than every source), as `npm ci` leaves it; `build` stands in for `npm run build`. */
function clone(name: string): { path: string; stamp: () => number | undefined } {
  const path = join(dir, name);
  mkdirSync(join(path, 'scripts'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  pkg.scripts.build = "node -e \"require('fs').writeFileSync('dist/built-by-prepare', '')\"";
  writeFileSync(join(path, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const f of ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'src', 'scripts/prepare.mjs']) cpSync(join(root, f), join(path, f), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(path, 'node_modules'));
  mkdirSync(join(path, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(path, 'dist', 'cli', 'main.js'), "process.stdout.write('dist/ ran\\n');");
  // the sources as checked out, before the build
  const past = new Date(Date.now() - 60_000);
  spawnSync('find', [join(path, 'src'), '-exec', 'touch', '-d', past.toISOString(), '{}', '+']);
  writeFileSync(join(path, 'dist', '.build-stamp'), '');
  const built = new Date(Date.now() - 30_000);
  utimesSync(join(path, 'dist', '.build-stamp'), built, built);
  return { path, stamp: () => statSync(join(path, 'dist', '.build-stamp'), { throwIfNoEntry: false })?.mtimeMs };
}

/** `npx ordinal ARGS` in `cwd` with an npm cache of its own (what a first run on a machine sees). */
function npx(cwd: string, ...args: string[]) {
  const started = process.hrtime.bigint();
  const res = spawnSync('npx', ['--yes', 'ordinal', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, npm_config_cache: join(cwd, '..', `${cwd.split('/').pop()}-npm-cache`), npm_config_update_notifier: 'false' },
  });
  return { ...res, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

describe("the README's npx ordinal in a fresh clone", () => {
  it('the README runs its commands with npx ordinal', () => {
    assert.ok((readFileSync(join(root, 'README.md'), 'utf8').match(/^npx ordinal /gm) ?? []).length >= 5);
  });

  it('runs the dist/ npm ci built, without building again', (t) => {
    const c = clone('built');
    const before = c.stamp();
    const r = npx(c.path, '--version');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'dist/ ran\n');
    assert.ok(!existsSync(join(c.path, 'dist', 'built-by-prepare')), 'prepare built nothing');
    assert.equal(c.stamp(), before);
    t.diagnostic(`npx ordinal --version, first run with an empty npm cache: ${r.seconds.toFixed(1)} s`);
  });

  it('after an edit under src/, runs the sources through tsx, still without a build', () => {
    const c = clone('edited');
    writeFileSync(join(c.path, 'src', 'cli', 'edited.ts'), 'export {};\n');
    const r = npx(c.path, '--version');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/, 'the sources ran');
    assert.ok(!existsSync(join(c.path, 'dist', 'built-by-prepare')));
  });
});

describe('scripts/prepare.mjs', () => {
  const prepare = (cwd: string, npmCommand: string) =>
    spawnSync(process.execPath, [join(cwd, 'scripts', 'prepare.mjs')], { cwd, encoding: 'utf8', env: { ...process.env, npm_command: npmCommand } });

  it('builds for npm ci when dist/ is not current, and not when it is', () => {
    const c = clone('ci');
    assert.match(prepare(c.path, 'ci').stderr, /prepare: no build \(dist\/ is current\)/);
    assert.ok(!existsSync(join(c.path, 'dist', 'built-by-prepare')));
    rmSync(join(c.path, 'dist', '.build-stamp'));
    const built = prepare(c.path, 'ci');
    assert.equal(built.status, 0, built.stderr);
    assert.ok(existsSync(join(c.path, 'dist', 'built-by-prepare')), 'npm run build ran');
  });
});
