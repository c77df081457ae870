import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, KubeContextError } from '../../src/cli/kube-context.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';
import { Resources } from '../../src/api/client.js';
import { sendJson, startFakeApiServer } from '../kube/fake-apiserver.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-kubeconfig-'));
const kubeconfig = join(dir, 'config');
writeFileSync(
  kubeconfig,
  `apiVersion: v1
kind: Config
current-context: dev
clusters:
  - name: dev-cluster
    cluster: {server: "http://127.0.0.1:6443"}
  - name: prod-cluster
    cluster: {server: "http://127.0.0.2:6443"}
users:
  - name: me
    user: {token: "t"}
contexts:
  - name: dev
    context: {cluster: dev-cluster, user: me, namespace: team-a}
  - name: prod
    context: {cluster: prod-cluster, user: me}
`,
);

describe('kube context flags', () => {
  const timers = createVirtualClock();

  it("uses the current context's cluster and namespace", () => {
    const ctx = connect({ kubeconfig }, timers);
    assert.equal(ctx.client.server, 'http://127.0.0.1:6443');
    assert.equal(ctx.namespace, 'team-a');
    ctx.client.close();
  });

  it('switches cluster with --context; a context without a namespace means default', () => {
    const ctx = connect({ kubeconfig, context: 'prod' }, timers);
    assert.equal(ctx.client.server, 'http://127.0.0.2:6443');
    assert.equal(ctx.namespace, 'default');
    ctx.client.close();
  });

  it('lets -n override the namespace', () => {
    const ctx = connect({ kubeconfig, context: 'dev', namespace: 'other' }, timers);
    assert.equal(ctx.namespace, 'other');
    ctx.client.close();
  });

  it('names an unknown context and an unreadable kubeconfig', () => {
    assert.throws(() => connect({ kubeconfig, context: 'nope' }, timers), (e: Error) => e instanceof KubeContextError && /context "nope" does not exist/.test(e.message));
    assert.throws(() => connect({ kubeconfig: join(dir, 'missing') }, timers), (e: Error) => e instanceof KubeContextError && /cannot load kubeconfig/.test(e.message));
  });

  it("sends kubectl-ordinal as its user agent, so an audit log tells the plugin from the controller", async () => {
    const api = await startFakeApiServer();
    api.handle((_req, res) => sendJson(res, 200, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', resourceVersion: '1' } }));
    const ctx = connect({ kubeconfig: api.kubeconfig }, createVirtualClock());
    try {
      await ctx.client.get(Resources.pods, 'ns', 'p');
      assert.equal(api.requests.at(-1)?.headers['user-agent'], 'kubectl-ordinal');
    } finally {
      ctx.client.close();
      await api.close();
    }
  });
});
