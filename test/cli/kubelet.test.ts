// `ordinal kubelet`: its settings (the scenario format's cluster block from a file, the flags winning) and the
// node it runs — the simulated kubelet and storage — on the in-memory API server and virtual time, with a log
// line per pod change and one namespace when asked. test/e2e/docs-commands.test.ts runs the command on
// kube-apiserver as scripts/control-plane/README.md writes it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import type { PersistentVolumeClaim, Pod } from '../../src/api/types.js';
import { nodeConfig } from '../../src/cli/kubelet/node-config.js';
import { startNode } from '../../src/cli/kubelet/node.js';
import { ScenarioError } from '../../src/sim/scenario-fields.js';
import { newEnv, pod } from '../cluster/helpers.js';

const CLI = new URL('../../bin/ordinal.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ordinal-kubelet-'));

describe('ordinal kubelet settings', () => {
  it('takes the cluster block from a file, or from a scenario, and the flags over it', () => {
    const block = 'podStartSeconds: 5\nimages:\n  "app:broken": {behavior: ImagePullBackOff}\nstorage: {bindSeconds: 2}\n';
    const fromBlock = nodeConfig({ text: block, source: 'c.yaml' }, {});
    assert.deepEqual(fromBlock.kubelet, { podStartSeconds: 5, podTerminationSeconds: 1, images: { 'app:broken': { behavior: 'ImagePullBackOff' } } });
    assert.deepEqual(fromBlock.storage, { bindSeconds: 2, expansionSeconds: 10, classes: {} });
    const scenario = `kind: Scenario\ncluster:\n${block.trimEnd().replace(/^/gm, '  ')}\nobjects: []\n`;
    assert.deepEqual(nodeConfig({ text: scenario, source: 's.yaml' }, {}), fromBlock);
    const flagged = nodeConfig({ text: block, source: 'c.yaml' }, { podStartSeconds: 0.5, terminationSeconds: 3, storage: false });
    assert.deepEqual([flagged.kubelet.podStartSeconds, flagged.kubelet.podTerminationSeconds, flagged.storage], [0.5, 3, undefined]);
    assert.deepEqual(nodeConfig(undefined, {}), { kubelet: { podStartSeconds: 1, podTerminationSeconds: 1, images: {} }, storage: { bindSeconds: 0, expansionSeconds: 10, classes: {} } });
  });

  it('refuses a bad file naming every bad field, and the in-memory server\'s own setting', () => {
    const bad = 'kind: Scenario\ncluster:\n  maxObjects: 5\n  podStartSeconds: -1\n  images:\n    "app:v2": {behavior: Broken}\n';
    assert.throws(
      () => nodeConfig({ text: bad, source: 'bad.yaml' }, {}),
      (e: unknown) => e instanceof ScenarioError && e.issues.map((i) => i.path).sort().join(' ') === 'cluster.images["app:v2"].behavior cluster.maxObjects cluster.podStartSeconds',
    );
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, bad);
    const run = spawnSync(process.execPath, [CLI, 'kubelet', '-f', file], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cluster\\.images\\["app:v2"\\]\\.behavior: must be one of ImagePullBackOff, CrashLoopBackOff, NotReadyAfter`, 'm'));
  });
});

describe('ordinal kubelet node', () => {
  async function node(namespace?: string) {
    const env = newEnv();
    const lines: string[] = [];
    const config = nodeConfig({ text: 'podStartSeconds: 2\nimages: {"app:broken": {behavior: ImagePullBackOff}}\n', source: 'c.yaml' }, {});
    const running = await startNode({ client: env.cluster.client('kubelet'), timers: env.clock, random: () => 0.5, nodeName: 'dev', config, log: (l) => lines.push(l), error: (l) => lines.push(l), ...(namespace ? { namespace } : {}) });
    return { ...env, lines, running };
  }

  it('binds and runs the pods, image behaviours included, with a line per change; binds claims', async () => {
    const n = await node();
    assert.match(n.lines[0] ?? '', /^node dev runs the pods of every namespace \(start 2s, termination 1s, 1 image behaviours\); the simulated storage binds and expands their claims$/);
    await n.cluster.create(Resources.pods, pod('web-0'));
    await n.cluster.create(Resources.pods, pod('web-1', { image: 'app:broken' }));
    const claim: PersistentVolumeClaim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-web-0', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    await n.cluster.create(Resources.persistentVolumeClaims, claim);
    await n.clock.advance(3_000);
    const web0 = await n.cluster.get<Pod>(Resources.pods, 'default', 'web-0');
    assert.deepEqual([web0.spec.nodeName, web0.status?.phase], ['dev', 'Running']);
    assert.equal((await n.cluster.get<Pod>(Resources.pods, 'default', 'web-1')).status?.phase, 'Pending');
    assert.equal((await n.cluster.get<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default', 'data-web-0')).status?.phase, 'Bound');
    const changes = n.lines.slice(1).map((l) => l.replace(/^\d\d:\d\d:\d\d /, ''));
    assert.deepEqual(changes.filter((l) => l.startsWith('default/web-0')), ['default/web-0 Scheduled', 'default/web-0 Running', 'default/web-0 Ready']);
    assert.ok(changes.includes('default/web-1 Failed (ImagePullBackOff, restarts 0)'), changes.join('\n'));
    n.running.stop();
  });

  it('with a namespace leaves the pods of the others alone', async () => {
    const n = await node('team-a');
    await n.cluster.create(Resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    await n.cluster.create(Resources.pods, { ...pod('a-0'), metadata: { name: 'a-0', namespace: 'team-a' } });
    await n.cluster.create(Resources.pods, pod('web-0'));
    await n.clock.advance(3_000);
    assert.equal((await n.cluster.get<Pod>(Resources.pods, 'team-a', 'a-0')).status?.phase, 'Running');
    assert.equal((await n.cluster.get<Pod>(Resources.pods, 'default', 'web-0')).spec.nodeName, undefined);
    assert.match(n.lines[0] ?? '', /runs the pods of namespace team-a/);
    n.running.stop();
  });
});
