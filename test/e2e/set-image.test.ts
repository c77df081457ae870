// `ordinal set image` on kube-apiserver 1.37, as a user runs it (a child process with kubectl's flags): on an
// apps.ordinal.dev/v1 set with two containers and an init container, only the named container's image
// changes and the controller rolls the pods to it; an unknown container lists the set's and changes
// nothing; a server dry run is admitted and not stored. (test/cli/set-image.test.ts covers the rest on the
// simulated cluster; docs-commands.test.ts runs the user guide's lines.)
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Resources } from '../../src/api/client.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, twoReplicaSet, type TestEnv } from './harness.js';

afterAll(() => closeSession());

const BIN = fileURLToPath(new URL('../../bin/ordinal.js', import.meta.url));

function setImage(env: TestEnv, ...args: string[]) {
  return spawnSync(process.execPath, [BIN, 'set', 'image', ...args, '-n', env.ns, '--kubeconfig', env.cp.kubeconfigPath], { encoding: 'utf8', timeout: 60_000 });
}

const images = (spec: Pick<Pod['spec'], 'containers' | 'initContainers'>): string[] => [...(spec.initContainers ?? []), ...spec.containers].map((c) => `${c.name}=${c.image ?? ''}`);

describe('set image on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('changes one container of an osts, keeps the others, and the controller rolls the pods to it', { timeout: 120_000, kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 } }, async (env) => {
    const set = twoReplicaSet(env, 'pg');
    set.spec.template.spec = { initContainers: [{ name: 'setup', image: 'setup:1' }], containers: [{ name: 'app', image: 'app:1' }, { name: 'exporter', image: 'exporter:1' }] };
    await env.createConverged(set);

    const dry = setImage(env, 'osts/pg', 'app=app:2', '--dry-run=server');
    assert.deepEqual([dry.status, dry.stdout, dry.stderr], [0, 'statefulset.apps.ordinal.dev/pg image updated (server dry run)\n', '']);
    const unknown = setImage(env, 'pg', 'postgres=pg:17');
    assert.deepEqual([unknown.status, unknown.stdout], [1, '']);
    assert.equal(unknown.stderr, 'error: unable to find container named "postgres" in statefulset.apps.ordinal.dev/pg (its containers: app, exporter; init containers: setup)\n');
    const unchanged = await env.client.get<StatefulSet>(env.res, env.ns, 'pg');
    assert.deepEqual([images(unchanged.spec.template.spec), unchanged.metadata.generation], [['setup=setup:1', 'app=app:1', 'exporter=exporter:1'], 1]);

    const done = setImage(env, 'osts', 'pg', 'app=app:2');
    assert.deepEqual([done.status, done.stdout, done.stderr], [0, 'statefulset.apps.ordinal.dev/pg image updated\n', '']);
    const changed = await env.client.get<StatefulSet>(env.res, env.ns, 'pg');
    assert.deepEqual([images(changed.spec.template.spec), changed.metadata.generation], [['setup=setup:1', 'app=app:2', 'exporter=exporter:1'], 2]);
    await env.waitForSet('pg', 'pg rolled to app:2', 60_000, (s) =>
      (s.metadata.generation === 2 && s.status?.observedGeneration === 2 && s.status.updatedReplicas === 2 && s.status.currentRevision === s.status.updateRevision) || `status ${JSON.stringify(s.status)}`,
    );
    const pods = await env.client.list<Pod>(Resources.pods, env.ns);
    assert.deepEqual(pods.items.map((p) => images(p.spec)), [0, 1].map(() => ['setup=setup:1', 'app=app:2', 'exporter=exporter:1']));
  });
});
