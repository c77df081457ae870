// why and plan against the in-memory cluster: they read what the controller reads and plan with its planner.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources, type ClusterClient, type ListOptions, type Resource } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import { planCommand } from '../../src/cli/commands/plan.js';
import { whyCommand } from '../../src/cli/commands/why.js';
import { advance, converge, drive, setYaml, startWorld, take } from './world.js';

const BROKEN = 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n';
const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });

describe('why', () => {
  it('explains a rollout stuck on a broken image, per ordinal', async () => {
    const w = await startWorld(setYaml({ replicas: 3 }), BROKEN);
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:broken'));
    await advance(w, 30);
    assert.equal(await drive(w, whyCommand(w.deps, 'web', {})), 0);
    const out = take(w).out;
    assert.match(out, /^StatefulSet default\/web \(apps\/v1\): RollingUpdate, OrderedReady, maxUnavailable 1, partition 0\n/);
    assert.match(out, /Rolling out revision web-\w+: 1 of 3 pods updated, 2 available\./);
    assert.match(out, /OrderedReady rolling update waits for web-2 to be Running and Ready \(it is ImagePullBackOff\)\./);
    assert.match(out, /\n2\s+web-2\s+web-\w+ \(new\)\s+ImagePullBackOff\s+\d+s\s+waiting for Running and Ready\n/);
    assert.match(out, /\n0\s+web-0\s+web-\w+ \(old\)\s+Ready\s+/);
  });

  it('reads the zones of the pods\' nodes for a set with topologyKey, and names the zone order', async () => {
    const nodes = ['a', 'b'].map((z) => `  - {apiVersion: v1, kind: Node, metadata: {name: node-${z}, labels: {topology.kubernetes.io/zone: zone-${z}}}}\n`).join('');
    const spec = '      podManagementPolicy: Parallel\n      updateStrategy: {rollingUpdate: {maxUnavailable: 2, topologyKey: topology.kubernetes.io/zone}}\n';
    const w = await startWorld(nodes + setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 4, spec }), 'cluster: {podStartSeconds: 20}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:2'));
    await advance(w, 5);
    assert.equal(await drive(w, whyCommand(w.deps, 'osts/web', {})), 0);
    const out = take(w).out;
    assert.match(out, /The update moves one topology\.kubernetes\.io\/zone at a time, in the order zone-a → zone-b: zone-b next; no available pod of zone-b is deleted while zone-a has unavailable pods \(web-\d, web-\d\)/);
  });

  it('names the priority order of a set with updateOrder Priority, and what the primary waits for', async () => {
    const spec = '      podManagementPolicy: Parallel\n      updateStrategy: {rollingUpdate: {maxUnavailable: 2, updateOrder: Priority, priority: {label: role, values: [primary]}}}\n';
    const w = await startWorld(setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 3, spec }), 'cluster: {podStartSeconds: 20}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.pods, 'default', 'web-2', { metadata: { labels: { role: 'primary' } } });
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:2'));
    await advance(w, 5);
    assert.equal(await drive(w, whyCommand(w.deps, 'osts/web', {})), 0);
    const out = take(w).out;
    assert.match(out, /The update takes pods by their role label, lowest priority first \(\(no listed value\) → primary\), in the order web-2; the next priority waits until every replica is available \(web-0, web-1 are not\)/);
  });

  it('prints the report and the raw blockers with -o json', async () => {
    const w = await startWorld(setYaml({ replicas: 2 }));
    await advance(w, 1);
    assert.equal(await drive(w, whyCommand(w.deps, 'web', { output: 'json' })), 0);
    const report = JSON.parse(take(w).out) as { title: string; blockers: { kind: string }[]; rows: unknown[] };
    assert.match(report.title, /^StatefulSet default\/web/);
    assert.equal(report.rows.length, 2);
    assert.ok(report.blockers.length > 0);
  });

  it('uses --feature-gates, and refuses an unknown gate', async () => {
    const w = await startWorld(setYaml({ spec: '      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}\n' }));
    await converge(w);
    assert.equal(await drive(w, whyCommand(w.deps, 'web', { featureGates: 'MaxUnavailableStatefulSet=false' })), 0);
    assert.match(take(w).out, /Feature gate MaxUnavailableStatefulSet is disabled, so spec\.updateStrategy\.rollingUpdate\.maxUnavailable falls back/);
    assert.equal(await drive(w, whyCommand(w.deps, 'web', { featureGates: 'Nope=true' })), 1);
    assert.match(take(w).err, /^error: unrecognized feature gate: Nope/);
  });
});

describe('why for an InPlace set whose StorageClass cannot expand', () => {
  const objects = `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: fixed}, provisioner: simulated, allowVolumeExpansion: false}
${setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 2, spec: `      volumeClaimUpdatePolicy: InPlace\n      volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: fixed, resources: {requests: {storage: 1Gi}}}}]\n` })}`;
  const grow = { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fixed', resources: { requests: { storage: '2Gi' } } } }] } };
  /** The client as a user who may not list StorageClasses sees it. */
  const forbiddingClasses = (client: ClusterClient): ClusterClient =>
    new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'list') {
          return (res: Resource, ns: string | undefined, opts?: ListOptions) =>
            res === Resources.storageClasses ? Promise.reject(new ApiError('storageclasses.storage.k8s.io is forbidden', 403, 'Forbidden')) : target.list(res, ns, opts);
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });

  it('names the class, and without permission to list classes says what the controller will try', async () => {
    const w = await startWorld(objects, 'cluster: {podStartSeconds: 2, storage: {expansionSeconds: 5}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', grow);
    await advance(w, 5);
    assert.equal(await drive(w, whyCommand(w.deps, 'web', {})), 0);
    assert.match(take(w).out, /web-1 is not updated: its claim data-web-1 must grow to 2Gi, but StorageClass fixed does not set allowVolumeExpansion/);
    assert.equal(await drive(w, whyCommand({ ...w.deps, client: forbiddingClasses(w.deps.client) }, 'web', {})), 0);
    assert.match(take(w).out, /Next the controller will patch PersistentVolumeClaim data-web-1 of Pod web-1 to its template/);
  });
});

describe('plan', () => {
  it('lists the next sync\'s actions with their batches and changes nothing', async () => {
    const w = await startWorld(setYaml({ replicas: 3, spec: '      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}\n' }));
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    // the controller has not run yet: plan shows what its sync will do
    const podsBefore = (await w.sim.world.user.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.resourceVersion);
    assert.equal(await drive(w, planCommand(w.deps, 'web', {})), 0);
    const out = take(w).out;
    assert.match(out, /^statefulset\.apps\/web: next sync \(dry run, nothing was changed\)\nBATCH\s+ACTION\n0\s+create ControllerRevision web-\w+ \(revision 2\)\n1\s+delete Pod web-2 \(rolling update\)\n2\s+delete Pod web-1 \(rolling update\)\n/);
    assert.match(out, /Then waits:\n {2}- rolling update blocked: 2 of maxUnavailable 2 ordinals unavailable \(web-2 deleted now, web-1 deleted now\)\n/);
    assert.match(out, /Status to write: replicas 3, ready 3, available 3, current 1, updated 0/);
    const podsAfter = (await w.sim.world.user.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.resourceVersion);
    assert.deepEqual(podsAfter, podsBefore);
  });

  it('prints the plan as JSON with -o json', async () => {
    const w = await startWorld(setYaml({ replicas: 2 }));
    await converge(w);
    assert.equal(await drive(w, planCommand(w.deps, 'web', { output: 'json' })), 0);
    const plan = JSON.parse(take(w).out) as { actions: unknown[]; blockers: unknown[]; statusChanged: boolean };
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.statusChanged, false, 'a steady state plans no write');
  });
});
