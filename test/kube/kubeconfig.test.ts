// The kubeconfig as kubectl reads it, without @kubernetes/client-node for plain tokens and certificates:
// $KUBECONFIG merging, paths relative to the file, token files read again on every request, and exec
// plugins handed to client-node — each checked on the headers a fake API server receives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import { createKubeClient } from '../../src/cluster/kube/index.js';
import { loadKubeConfig, UnknownContextError } from '../../src/cluster/kube/kubeconfig.js';
import { createManualTimers } from './manual-timers.js';
import { sendJson, startFakeApiServer, type FakeApiServer } from './fake-apiserver.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-kubeconfig-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function config(server: string, user: string, extra = ''): string {
  return `apiVersion: v1
kind: Config
current-context: c
clusters:
- name: k
  cluster: {server: "${server}", insecure-skip-tls-verify: true}
users:
- name: u
  user:
${user}
contexts:
- name: c
  context: {cluster: k, user: u${extra}}
`;
}

/** The Authorization header the server received for one GET with the given kubeconfig. */
async function authorizationSent(api: FakeApiServer, kubeconfig: string): Promise<string | undefined> {
  const client = createKubeClient({ kubeconfig, qps: 0, timers: createManualTimers(), random: () => 0 });
  try {
    await client.get(Resources.pods, 'ns', 'p');
  } finally {
    client.close();
  }
  return api.requests.at(-1)?.headers.authorization;
}

describe('kubeconfig', () => {
  let api: FakeApiServer;
  before(async () => {
    api = await startFakeApiServer();
    api.handle((_req, res) => sendJson(res, 200, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', resourceVersion: '1' } }));
  });
  after(() => api.close());

  it('sends the token, and basic auth and impersonation as kubectl does', async () => {
    assert.equal(await authorizationSent(api, write('token', config(api.url, '    token: abc'))), 'Bearer abc');
    const basic = write('basic', config(api.url, '    username: admin\n    password: secret\n    as: jane'));
    assert.equal(await authorizationSent(api, basic), `Basic ${Buffer.from('admin:secret').toString('base64')}`);
    assert.equal(api.requests.at(-1)?.headers['impersonate-user'], 'jane');
  });

  it('reads a token file, relative to the kubeconfig, again on every request (rotated tokens)', async () => {
    write('sa-token', 'first\n');
    const kubeconfig = write('token-file', config(api.url, '    tokenFile: sa-token'));
    assert.equal(await authorizationSent(api, kubeconfig), 'Bearer first');
    write('sa-token', 'second\n');
    assert.equal(await authorizationSent(api, kubeconfig), 'Bearer second');
  });

  it('runs an exec plugin through client-node', async () => {
    const plugin = write('plugin.mjs', `console.log(JSON.stringify({apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: {token: 'from-exec'}}));`);
    const user = `    exec: {apiVersion: client.authentication.k8s.io/v1, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(plugin)}], interactiveMode: Never}`;
    assert.equal(await authorizationSent(api, write('exec', config(api.url, user))), 'Bearer from-exec');
  });

  it('merges $KUBECONFIG files: the first to define a name or the current context wins', () => {
    const first = write('first', config('https://first:6443', '    token: a').replace('current-context: c\n', ''));
    const second = write('second', `${config('https://second:6443', '    token: b', ', namespace: team')}- name: d\n  context: {cluster: k}\n`);
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = [first, second].join(':');
    try {
      const kc = loadKubeConfig();
      assert.equal(kc.context.name, 'c');
      assert.equal(kc.cluster.server, 'https://first:6443');
      assert.equal(kc.user?.token, 'a');
      assert.equal(kc.context.namespace, undefined, "the first file's context c wins over the second's");
      assert.equal(loadKubeConfig(undefined, 'd').cluster.server, 'https://first:6443');
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  it('makes certificate paths absolute against the file, and names what is missing', () => {
    const kc = loadKubeConfig(write('relative', config('https://x:6443', '    client-certificate: certs/me.crt\n    client-key: /abs/me.key')));
    assert.equal(kc.user?.certFile, join(dir, 'certs/me.crt'));
    assert.equal(kc.user?.keyFile, '/abs/me.key');
    assert.throws(() => loadKubeConfig(write('no-server', 'clusters:\n- name: k\n  cluster: {}\n')), /clusters\[0\]\.cluster\.server is missing/);
    assert.throws(() => loadKubeConfig(write('no-context', 'clusters: []\n')), /has no current cluster/);
    assert.throws(() => loadKubeConfig(write('ctx', config('https://x:6443', '    token: t')), 'other'), UnknownContextError);
    assert.throws(() => loadKubeConfig(write('bad-cluster', config('https://x:6443', '    token: t').replace('cluster: k,', 'cluster: gone,'))), /context "c" names no known cluster \("gone"\)/);
  });
});
