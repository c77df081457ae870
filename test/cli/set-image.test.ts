// `set image NAME CONTAINER=IMAGE…` on the simulated cluster: the named containers get their images by a JSON
// patch (the other containers stay), the controller rolls the set, kubectl's messages and exit codes; an
// unknown container lists the set's containers and writes nothing. test/e2e/set-image.test.ts runs it on
// kube-apiserver.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { setImageCommand, splitSetImageArgs } from '../../src/cli/commands/set.js';
import { imagePatch, parseImageUpdates, SetImageError } from '../../src/cli/set/set-image.js';
import { converge, drive, setYaml, startWorld, take } from './world.js';

const TWO_CONTAINERS = `        spec:
          initContainers: [{name: setup, image: "setup:1"}]
          containers: [{name: app, image: "app:1"}, {name: exporter, image: "exporter:1"}]
`;

/** An apps.ordinal.dev/v1 set with an init container and two containers. */
const pgYaml = () => setYaml({ name: 'pg', apiVersion: 'apps.ordinal.dev/v1', replicas: 2 }).replace('        spec: {containers: [{name: app, image: "app:1"}]}\n', TWO_CONTAINERS);

const images = (set: StatefulSet): string[] => [...(set.spec.template.spec.initContainers ?? []), ...set.spec.template.spec.containers].map((c) => `${c.name}=${c.image ?? ''}`);

describe('set image', () => {
  it('changes the named container of an osts and keeps the others; the controller rolls the pods to it', async () => {
    const w = await startWorld(pgYaml());
    assert.ok(await converge(w));
    assert.equal(await drive(w, setImageCommand(w.deps, 'osts/pg', parseImageUpdates(['app=app:2']))), 0);
    assert.deepEqual(take(w), { out: 'statefulset.apps.ordinal.dev/pg image updated\n', err: '' });
    const set = await w.sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'pg');
    assert.deepEqual(images(set), ['setup=setup:1', 'app=app:2', 'exporter=exporter:1']);
    assert.ok(await converge(w));
    const pods = await w.sim.world.user.list<Pod>(Resources.pods, 'default');
    assert.equal(pods.items.length, 2);
    for (const pod of pods.items) assert.deepEqual(pod.spec.containers.map((c) => `${c.name}=${c.image ?? ''}`), ['app=app:2', 'exporter=exporter:1']);
  });

  it('takes TYPE NAME, several updates, * for every container, and says when nothing changes', async () => {
    const w = await startWorld(pgYaml());
    const { ref, updates } = splitSetImageArgs(['osts', 'pg', 'setup=setup:2', '*=all:1']);
    assert.equal(await drive(w, setImageCommand(w.deps, ref, parseImageUpdates(updates))), 0);
    const set = await w.sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'pg');
    assert.deepEqual(images(set), ['setup=all:1', 'app=all:1', 'exporter=all:1']);
    take(w);
    assert.equal(await drive(w, setImageCommand(w.deps, 'pg', parseImageUpdates(['app=all:1']))), 0);
    assert.deepEqual(take(w), { out: 'statefulset.apps.ordinal.dev/pg image unchanged\n', err: '' });
  });

  it('an unknown container: exit 1, the set\'s containers listed, nothing written', async () => {
    const w = await startWorld(pgYaml());
    const before = await w.sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'pg');
    assert.equal(await drive(w, setImageCommand(w.deps, 'pg', parseImageUpdates(['app=app:2', 'postgres=pg:17']))), 1);
    assert.deepEqual(take(w), {
      out: '',
      err: 'error: unable to find container named "postgres" in statefulset.apps.ordinal.dev/pg (its containers: app, exporter; init containers: setup)\n',
    });
    const after = await w.sim.world.user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'pg');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('--dry-run=client sends nothing; --dry-run=server is admitted and not stored; a missing set is NotFound', async () => {
    const w = await startWorld(setYaml());
    for (const dryRun of ['client', 'server'] as const) {
      assert.equal(await drive(w, setImageCommand(w.deps, 'sts/web', parseImageUpdates(['app=app:2']), { dryRun })), 0);
    }
    assert.deepEqual(take(w), { out: 'statefulset.apps/web image updated (dry run)\nstatefulset.apps/web image updated (server dry run)\n', err: '' });
    const set = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.deepEqual(images(set), ['app=app:1']);
    assert.equal(await drive(w, setImageCommand(w.deps, 'db', parseImageUpdates(['app=x']))), 1);
    assert.equal(take(w).err, 'Error from server (NotFound): statefulsets.apps.ordinal.dev or statefulsets.apps "db" not found\n');
  });

  it('guards every index with a test of the container\'s name, so a changed template is refused, not mis-patched', () => {
    const set = { spec: { template: { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } } } } as unknown as StatefulSet;
    assert.deepEqual(imagePatch(set, parseImageUpdates(['b=b:2']), 'x'), [
      { op: 'test', path: '/spec/template/spec/containers/1/name', value: 'b' },
      { op: 'add', path: '/spec/template/spec/containers/1/image', value: 'b:2' },
    ]);
  });

  it('reads the arguments as kubectl does', () => {
    assert.deepEqual(splitSetImageArgs(['web', 'app=x:1']), { ref: 'web', updates: ['app=x:1'] });
    assert.deepEqual(splitSetImageArgs(['osts', 'web', 'app=x:1', 'b=y']), { ref: 'osts/web', updates: ['app=x:1', 'b=y'] });
    assert.deepEqual(splitSetImageArgs(['web']), { ref: 'web', updates: [] });
    assert.throws(() => parseImageUpdates([]), new SetImageError('at least one image update is required'));
    assert.throws(() => splitSetImageArgs(['web', 'app=x', 'stray']), /invalid image update "stray"/);
    assert.throws(() => splitSetImageArgs(['a', 'b', 'c', 'app=x']), SetImageError);
    assert.throws(() => parseImageUpdates(['app=']), /want CONTAINER_NAME=CONTAINER_IMAGE/);
  });
});
