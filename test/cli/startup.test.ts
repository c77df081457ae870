// Start-up cost (issue 11): commands that never talk to a cluster or run a simulation must not load the
// heavy packages — @kubernetes/client-node alone is most of a second of CPU. Each case runs the CLI in a
// child process with a loader hook that records every module it loads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatStartup, measureStartup } from '../../src/cli/commands/bench-startup.js';
import { commandsNeeded, loadProgram } from '../../src/cli/lazy-program.js';
import { buildProgram } from '../../src/cli/program.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HEAVY = ['@kubernetes/client-node', 'prom-client', 'pino'];

/** Runs `ordinal ARGS` from the sources (with KUBECONFIG text, else none); returns its exit status and the npm packages it loaded. */
function packagesLoaded(args: string[], kubeconfig?: string): { status: number | null; stdout: string; stderr: string; packages: Set<string> } {
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-startup-'));
  try {
    const out = join(dir, 'loaded.txt');
    writeFileSync(out, '');
    if (kubeconfig !== undefined) writeFileSync(join(dir, 'kubeconfig'), kubeconfig);
    const hooks = new URL('./module-trace-hooks.mjs', import.meta.url).href;
    const registrar = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}, { data: { out: ${JSON.stringify(out)} } });`;
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(registrar)}`, join(root, 'src', 'cli', 'main.ts'), ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, KUBECONFIG: join(dir, kubeconfig === undefined ? 'no-kubeconfig' : 'kubeconfig') } },
    );
    const packages = new Set(
      readFileSync(out, 'utf8')
        .split('\n')
        .flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []),
    );
    return { status: res.status, stdout: res.stdout, stderr: res.stderr, packages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const heavyIn = (packages: Set<string>): string[] => HEAVY.filter((p) => packages.has(p));

describe('start-up', () => {
  it('--version and --help load none of @kubernetes/client-node, prom-client, pino', () => {
    const version = packagesLoaded(['--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    assert.ok(version.packages.has('commander'), 'the trace records packages');
    assert.deepEqual(heavyIn(version.packages), []);
    const help = packagesLoaded(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.deepEqual(heavyIn(help.packages), []);
  });

  it('--version loads no command module; a command line loads only the command it names', () => {
    const modules = (args: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'ordinal-startup-'));
      try {
        const out = join(dir, 'loaded.txt');
        writeFileSync(out, '');
        const hooks = new URL('./module-trace-hooks.mjs', import.meta.url).href;
        const registrar = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}, { data: { out: ${JSON.stringify(out)} } });`;
        const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(registrar)}`, join(root, 'src', 'cli', 'main.ts'), ...args], { cwd: root, encoding: 'utf8' });
        assert.equal(res.status, 0, res.stderr);
        return readFileSync(out, 'utf8').split('\n').flatMap((url) => /\/src\/cli\/commands\/([a-z-]+)\.ts$/.exec(url)?.[1] ?? []);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    assert.deepEqual(modules(['--version']), []);
    assert.deepEqual(modules(['version']), ['version']);
    assert.deepEqual(modules(['help', 'why']), ['why']);
    assert.ok(modules(['--help']).includes('forecast'), 'the help lists every command');
  });

  it('the entry lists the commands program.ts builds, in its order', async () => {
    assert.deepEqual(
      (await loadProgram('ordinal', ['node', 'ordinal', '--help'])).commands.map((c) => c.name()),
      buildProgram('ordinal').commands.map((c) => c.name()),
    );
    assert.deepEqual(commandsNeeded(['forecast', 'web', '--runs', '5']), ['forecast']);
    assert.deepEqual(commandsNeeded(['-v']), []);
    assert.equal(commandsNeeded(['-v', '--help']), 'all');
    assert.equal(commandsNeeded(['no-such-command']), 'all');
  });

  it('a cluster command loads @kubernetes/client-node only for an exec plugin, an auth-provider or a proxy', () => {
    const help = packagesLoaded(['why', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.deepEqual(heavyIn(help.packages), []);
    const kubeconfig = (user: string) =>
      `clusters: [{name: k, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: ${user}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\ncurrent-context: c\n`;
    const token = packagesLoaded(['why', 'web', '--request-timeout', '1s'], kubeconfig('{token: t}'));
    assert.equal(token.status, 1, token.stderr);
    assert.match(token.stderr, /127\.0\.0\.1:1/, 'it tried to connect');
    assert.ok(!token.packages.has('@kubernetes/client-node'));
    const exec = packagesLoaded(['why', 'web', '--request-timeout', '1s'], kubeconfig('{exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/false}}'));
    assert.equal(exec.status, 1, exec.stderr);
    assert.ok(exec.packages.has('@kubernetes/client-node'));
  });
});

describe('the start-up figure of `ordinal bench`', () => {
  it('is the CPU time of `ordinal --version` as a child process', { skip: !existsSync('/proc/self/stat') && 'needs /proc' }, () => {
    const seconds = measureStartup(1);
    assert.ok(seconds !== undefined && seconds > 0, `measured ${seconds}`);
  });

  it('names the goal, and how to meet it when over', () => {
    assert.equal(formatStartup(0.18), 'start-up: ordinal --version CPU 0.18 s (goal < 0.3 s)');
    assert.match(formatStartup(0.8), /^start-up: ordinal --version CPU 0\.80 s \(goal < 0\.3 s\) — over the goal; .*npm run build/);
    assert.equal(formatStartup(undefined), 'start-up: ordinal --version CPU not measured (needs /proc) (goal < 0.3 s)');
  });
});

describe('bin/ordinal.js', () => {
  /** A tree with the real bin/ordinal.js (and bin/dist-current.js) and a stand-in for each entry point that says which one ran. */
  function tree(withSource: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-bin-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('package.json', '{"type": "module"}');
    mkdirSync(join(dir, 'bin'));
    for (const f of ['ordinal.js', 'dist-current.js']) copyFileSync(join(root, 'bin', f), join(dir, 'bin', f));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    write('dist/cli/main.js', "process.stdout.write('dist');");
    if (withSource) write('src/cli/main.ts', "const which: string = 'src'; process.stdout.write(which);");
    const run = () => {
      const res = spawnSync(process.execPath, [join(dir, 'bin', 'ordinal.js')], { encoding: 'utf8' });
      assert.equal(res.status, 0, res.stderr);
      return res.stdout;
    };
    /** Sets the mtime of `path` (and, for src/, of every folder and file under it) to `seconds` ago. */
    const age = (path: string, seconds: number) => utimesSync(join(dir, path), new Date(Date.now() - seconds * 1000), new Date(Date.now() - seconds * 1000));
    const stamp = (secondsAgo: number) => {
      write('dist/.build-stamp', '');
      age('dist/.build-stamp', secondsAgo);
    };
    const ageSource = (seconds: number) => ['src', 'src/cli', 'src/cli/main.ts'].forEach((p) => age(p, seconds));
    return { dir, write, run, stamp, ageSource, age, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }

  it('runs dist/ when there is no src/ (an installed package, the image)', () => {
    const t = tree(false);
    try {
      assert.equal(t.run(), 'dist');
    } finally {
      t.cleanup();
    }
  });

  it('in a clone runs dist/ only while no file or folder under src/ is newer than dist/.build-stamp', () => {
    const t = tree(true);
    try {
      assert.equal(t.run(), 'src', 'no stamp: never built');
      t.ageSource(60);
      t.stamp(30);
      assert.equal(t.run(), 'dist', 'built after the last edit');
      t.age('src/cli/main.ts', 10);
      assert.equal(t.run(), 'src', 'a file edited after the build');
      t.ageSource(60);
      assert.equal(t.run(), 'dist');
      t.write('src/cli/new.ts', '');
      t.age('src/cli/new.ts', 60);
      assert.equal(t.run(), 'src', 'a file added (or removed) after the build changes its folder');
    } finally {
      t.cleanup();
    }
  });
});
