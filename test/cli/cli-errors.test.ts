// A server that cannot be used is reported as kubectl reports it — one line on stderr naming the server and
// the cause, exit 1 — by bin/kubectl-ordinal.js from the clone and by the single-file bundle alike. The API
// servers here are small local HTTPS servers with a self-signed certificate made by openssl at test time.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidArgumentError } from 'commander';
import { parseRequestTimeout } from '../../src/cli/kube-context.js';
import { sendStatus } from '../kube/fake-apiserver.js';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ordinal-cli-errors-'));
const STS_PATH = '/apis/apps/v1/namespaces/default/statefulsets/web';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The two ways the plugin is run: from the clone (tsx) and as the installed single-file bundle. */
const variants = {
  bin: [join(root, 'bin', 'kubectl-ordinal.js')],
  bundle: [join(dir, 'kubectl-ordinal')],
};

function run(variant: keyof typeof variants, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...variants[variant], ...args],
      { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '' } },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Runs `args` both ways, concurrently; the in-process servers keep answering meanwhile. */
async function runBoth(args: string[]): Promise<[string, Run][]> {
  const names = Object.keys(variants) as (keyof typeof variants)[];
  const runs = await Promise.all(names.map((v) => run(v, args)));
  return names.map((v, i) => [v, runs[i] as Run]);
}

function assertOneErrorLine(variant: string, r: Run, expected: RegExp | string): void {
  const what = `${variant}: exit ${r.code}, stdout ${JSON.stringify(r.stdout)}, stderr ${JSON.stringify(r.stderr)}`;
  assert.equal(r.code, 1, what);
  assert.equal(r.stdout, '', what);
  assert.equal(r.stderr.split('\n').length, 2, `one line: ${what}`);
  if (typeof expected === 'string') assert.equal(r.stderr, `${expected}\n`, what);
  else assert.match(r.stderr.trimEnd(), expected, what);
}

function kubeconfig(name: string, server: string, tls: 'ca' | 'system-roots'): string {
  const file = join(dir, `${name}.kubeconfig`);
  const cluster = tls === 'ca' ? `\n    certificate-authority: ${join(dir, 'server.crt')}` : '';
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: ${server}${cluster}
users:
- name: u
  user: {token: t0ken}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`,
  );
  return file;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** One HTTPS API server for the status-code cases; each test sets the handler. */
let handler: Handler = (_req, res) => sendStatus(res, 404, 'NotFound', 'no handler');
let server: Server;
let serverUrl = '';
const requests: string[] = [];
const sockets = new Set<Socket>();

before(async () => {
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'server.key'), '-out', join(dir, 'server.crt'),
  ], { stdio: 'ignore' });
  server = createServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')) }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('secureConnection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const outfile = join(dir, 'kubectl-ordinal.cjs');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'bundle.mjs'), '--outfile', outfile], { encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  copyFileSync(outfile, join(dir, 'kubectl-ordinal'));
});

after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('kubectl ordinal against a server it cannot use', () => {
  it('a refused connection: every command prints `error: Get "URL": … connection refused` and exits 1', async () => {
    const kc = kubeconfig('refused', 'https://127.0.0.1:1', 'system-roots');
    const commands = [['rollout', 'status'], ['rollout', 'history'], ['rollout', 'undo'], ['rollout', 'restart'], ['why'], ['plan']];
    for (const cmd of commands) {
      for (const [variant, r] of await runBoth([...cmd, 'web', '--kubeconfig', kc])) {
        // A bare name is looked up under both APIs at once; either request's failure is reported.
        assertOneErrorLine(
          `${variant} ${cmd.join(' ')}`,
          r,
          /^error: Get "https:\/\/127\.0\.0\.1:1\/apis\/apps(\.ordinal\.dev)?\/v1\/namespaces\/default\/statefulsets\/web": dial tcp 127\.0\.0\.1:1: connect: connection refused$/,
        );
      }
    }
  });

  it('an unknown host', async () => {
    const kc = kubeconfig('unknown-host', 'https://ordinal-no-such-host.invalid:6443', 'system-roots');
    for (const [variant, r] of await runBoth(['rollout', 'status', 'sts/web', '--kubeconfig', kc])) {
      // Without a resolver at all the lookup fails with EAI_AGAIN instead of "no such host".
      assertOneErrorLine(
        variant,
        r,
        /^error: Get "https:\/\/ordinal-no-such-host\.invalid:6443\/apis\/apps\/v1\/namespaces\/default\/statefulsets\/web": (dial tcp: lookup ordinal-no-such-host\.invalid: no such host|.*EAI_AGAIN.*)$/,
      );
    }
  });

  it('a server certificate the client does not trust', async () => {
    const kc = kubeconfig('untrusted', serverUrl, 'system-roots');
    for (const [variant, r] of await runBoth(['rollout', 'status', 'sts/web', '--kubeconfig', kc])) {
      // Node 24 appends its own hint (`; if the root CA is installed locally, try running Node.js with --use-system-ca`)
      const expected = `error: Get "${serverUrl}${STS_PATH}": tls: failed to verify certificate: self-signed certificate`;
      assertOneErrorLine(variant, r, new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(; if the root CA is installed locally, try running Node\\.js with --use-system-ca)?$`));
    }
  });

  it('401: "You must be logged in to the server"', async () => {
    handler = (_req, res) => sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
    const kc = kubeconfig('ok', serverUrl, 'ca');
    for (const [variant, r] of await runBoth(['rollout', 'status', 'sts/web', '--kubeconfig', kc])) {
      assertOneErrorLine(variant, r, 'error: You must be logged in to the server (Unauthorized)');
    }
  });

  it("403: the server's message", async () => {
    const message = 'statefulsets.apps "web" is forbidden: User "alice" cannot get resource "statefulsets" in API group "apps" in the namespace "default"';
    handler = (_req, res) => sendStatus(res, 403, 'Forbidden', message);
    const kc = kubeconfig('ok', serverUrl, 'ca');
    for (const [variant, r] of await runBoth(['rollout', 'history', 'statefulset.apps/web', '--kubeconfig', kc])) {
      assertOneErrorLine(variant, r, `Error from server (Forbidden): ${message}`);
    }
  });

  it('404 of the resource', async () => {
    handler = (_req, res) => sendStatus(res, 404, 'NotFound', 'statefulsets.apps "web" not found', { details: { name: 'web', group: 'apps', kind: 'statefulsets' } });
    const kc = kubeconfig('ok', serverUrl, 'ca');
    for (const [variant, r] of await runBoth(['rollout', 'status', 'sts/web', '--kubeconfig', kc])) {
      assertOneErrorLine(variant, r, 'Error from server (NotFound): statefulsets.apps "web" not found');
    }
  });

  it('500: reported at once, not retried (kubectl retries a 5xx only when the server sends Retry-After)', async () => {
    handler = (_req, res) => sendStatus(res, 500, 'InternalError', 'etcdserver: request timed out');
    requests.length = 0;
    const kc = kubeconfig('ok', serverUrl, 'ca');
    for (const [variant, r] of await runBoth(['why', 'sts/web', '--kubeconfig', kc])) {
      assertOneErrorLine(variant, r, 'Error from server (InternalError): etcdserver: request timed out');
    }
    assert.deepEqual(requests, [`GET ${STS_PATH}`, `GET ${STS_PATH}`], 'one request per run');
  });

  it('a server that never answers: --request-timeout gives up with a timeout error', async () => {
    handler = () => {}; // holds the request open
    const kc = kubeconfig('ok', serverUrl, 'ca');
    for (const [variant, r] of await runBoth(['rollout', 'status', 'sts/web', '--kubeconfig', kc, '--request-timeout', '1s'])) {
      assertOneErrorLine(variant, r, `error: Get "${serverUrl}${STS_PATH}": no response from the server within 1s (request timeout)`);
    }
  });

  it('--request-timeout takes a Go duration or a bare number of seconds, as kubectl', () => {
    assert.equal(parseRequestTimeout('0'), 0);
    assert.equal(parseRequestTimeout('5'), 5000);
    assert.equal(parseRequestTimeout('1m30s'), 90_000);
    assert.throws(() => parseRequestTimeout('-1s'), InvalidArgumentError);
    assert.throws(() => parseRequestTimeout('5 minutes'), InvalidArgumentError);
  });

  it('a bad --request-timeout is a usage error (exit 1, as every flag)', async () => {
    const r = await run('bundle', ['rollout', 'status', 'web', '--request-timeout', 'soon']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: option '--request-timeout <duration>' argument 'soon' is invalid\. time: invalid duration "soon"/);
  });
});

describe('the top level of the CLI (runProgram)', () => {
  /** Runs a tiny program through runProgram in a fresh process. */
  function runProgramWith(action: string): Run {
    const topLevel = pathToFileURL(join(root, 'src', 'cli', 'top-level.ts')).href;
    const code = `
      import { Command } from 'commander';
      import { runProgram } from ${JSON.stringify(topLevel)};
      const program = new Command('t');
      program.command('go').action(async () => { ${action} });
      await runProgram(program, ['node', 't', 'go']);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('a command waiting on a promise nothing will settle exits 1 with an error line (not 0, not 13)', () => {
    const r = runProgramWith('await new Promise(() => {});');
    assertOneErrorLine('pending', r, /^error: internal error: the command stopped before it finished/);
  });

  it('an unhandled rejection exits 1 with its message on one line', () => {
    const r = runProgramWith("void Promise.reject(new Error('lost\\nsecond line')); await new Promise((r) => setTimeout(r, 1000));");
    assertOneErrorLine('rejection', r, 'error: lost');
  });

  it('an error escaping the command exits 1 with its message', () => {
    const r = runProgramWith("throw new Error('escaped');");
    assertOneErrorLine('throw', r, 'error: escaped');
  });
});
