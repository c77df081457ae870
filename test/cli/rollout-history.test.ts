// rollout history / undo / restart against the in-memory cluster with the real controller.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import { rolloutHistoryCommand, rolloutRestartCommand, rolloutUndoCommand } from '../../src/cli/commands/rollout.js';
import { parse } from 'yaml';
import { buildProgram } from '../../src/cli/program.js';
import { parseSetRef, setRefText } from '../../src/cli/explain/set-ref.js';
import { converge, drive, setYaml, startWorld, take, type TestWorld } from './world.js';

const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });

async function rolledTwice(apiVersion = 'apps/v1'): Promise<TestWorld> {
  const w = await startWorld(setYaml({ apiVersion }));
  await converge(w);
  const res = apiVersion === 'apps/v1' ? Resources.statefulSets : Resources.ordinalStatefulSets;
  await w.sim.world.user.patch(res, 'default', 'web', { metadata: { annotations: { 'kubernetes.io/change-cause': 'to v2' } }, ...setImage('app:2') });
  assert.ok(await converge(w));
  return w;
}

const images = async (w: TestWorld): Promise<string[]> =>
  (await w.sim.world.user.list<Pod>(Resources.pods, 'default')).items.map((p) => p.spec.containers[0]?.image ?? '');

describe('rollout history', () => {
  it('-o json / yaml: the ControllerRevisions as a List, or with --revision the pod template it restores', async () => {
    const w = await rolledTwice();
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'sts/web', { output: 'json' })), 0);
    const list = JSON.parse(take(w).out) as { kind: string; items: Array<{ kind: string; revision: number; data: { spec: { template: { $patch: string } } } }> };
    assert.equal(list.kind, 'List');
    assert.deepEqual(list.items.map((r) => [r.kind, r.revision]), [['ControllerRevision', 1], ['ControllerRevision', 2]]);
    assert.equal(list.items[0]?.data.spec.template.$patch, 'replace', 'data is an object, not stored text');
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'sts/web', { revision: 1, output: 'yaml' })), 0);
    const template = parse(take(w).out) as { spec: { containers: Array<{ image: string }> } };
    assert.equal(template.spec.containers[0]?.image, 'app:1');
  });

  it('lists the revisions oldest first with status, change-cause and what changed', async () => {
    const w = await rolledTwice();
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'web', {})), 0);
    const lines = take(w).out.trimEnd().split('\n');
    assert.equal(lines[0], 'statefulset.apps/web');
    assert.match(lines[1] ?? '', /^REVISION\s+NAME\s+STATUS\s+CHANGE-CAUSE\s+CHANGE$/);
    assert.match(lines[2] ?? '', /^1\s+web-\w+\s+-\s+<none>\s+\(first revision\)$/);
    assert.match(lines[3] ?? '', /^2\s+web-\w+\s+current,update\s+to v2\s+image app: app:1 -> app:2$/);
  });

  it('InPlace: names the claim template change of a revision that grew a claim', async () => {
    const claims = (storage: string) => `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${storage}}}}}]`;
    const objects = `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: simulated, allowVolumeExpansion: true}
${setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 2, spec: `      volumeClaimUpdatePolicy: InPlace\n      volumeClaimTemplates: ${claims('1Gi')}\n` })}`;
    const w = await startWorld(objects, 'cluster: {podStartSeconds: 2, storage: {expansionSeconds: 5}}\n');
    assert.ok(await converge(w));
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', { spec: { volumeClaimTemplates: parse(claims('2Gi')) } });
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'web', {})), 0);
    assert.match(take(w).out, /\n2\s+web-\w+\s+current,update\s+<none>\s+claim data storage: 1Gi -> 2Gi\n$/);
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'web', { revision: 2 })), 0);
    assert.match(take(w).out, /Changes from revision #1:\n {2}claim data storage: 1Gi -> 2Gi\n/);
  });

  it('shows one revision in detail with --revision, and fails for an unknown one', async () => {
    const w = await rolledTwice();
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'web', { revision: 2 })), 0);
    const out = take(w).out;
    assert.match(out, /^statefulset\.apps\/web with revision #2\nName: web-\w+\nStatus: current,update\nChange-Cause: to v2\n/);
    assert.match(out, /Changes from revision #1:\n {2}image app: app:1 -> app:2\n/);
    assert.match(out, /Pod Template:\n {2}metadata:\n/);
    assert.match(out, /image: app:2/);
    assert.equal(await drive(w, rolloutHistoryCommand(w.deps, 'web', { revision: 7 })), 1);
    assert.equal(take(w).err, 'error: unable to find the specified revision\n');
  });
});

describe('rollout undo', () => {
  it('writes the previous template back; the controller re-numbers that revision and rolls the pods to it', async () => {
    const w = await rolledTwice('apps.ordinal.dev/v1');
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', {})), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web rolled back\n');
    assert.ok(await converge(w));
    assert.deepEqual(await images(w), ['app:1', 'app:1', 'app:1']);
    await drive(w, rolloutHistoryCommand(w.deps, 'web', {}));
    const rows = take(w).out.trimEnd().split('\n').slice(2);
    assert.deepEqual(rows.map((r) => r.split(/\s+/)[0]), ['2', '3'], 'revision 1 became 3');
  });

  it('goes to --to-revision, skips when the template already matches, and explains a missing revision', async () => {
    const w = await rolledTwice();
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', { toRevision: 2 })), 0);
    assert.equal(take(w).out, 'statefulset.apps/web skipped rollback (current template already matches revision 2)\n');
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', { toRevision: 9 })), 1);
    assert.equal(take(w).err, 'error: unable to find specified revision 9 in history\n');
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', { toRevision: 1 })), 0);
    const set = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(set.spec.template.spec.containers[0]?.image, 'app:1');
  });

  it('--dry-run=client sends nothing, --dry-run=server sends the update with dryRun and stores nothing', async () => {
    const w = await rolledTwice();
    const before = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', { dryRun: 'client' })), 0);
    assert.equal(take(w).out, 'statefulset.apps/web rolled back (dry run)\n');
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', { dryRun: 'server' })), 0);
    assert.equal(take(w).out, 'statefulset.apps/web rolled back (server dry run)\n');
    const after = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.equal(after.spec.template.spec.containers[0]?.image, 'app:2');
  });

  it('InPlace: restores the pod template and claim labels, keeps the grown size, and names the claims that stay larger', async () => {
    const claims = (storage: string, tier: string) =>
      `[{metadata: {name: data, labels: {tier: ${tier}}}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: ${storage}}}}}]`;
    const objects = `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: simulated, allowVolumeExpansion: true}
${setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 2, spec: `      volumeClaimUpdatePolicy: InPlace\n      volumeClaimTemplates: ${claims('1Gi', 'bronze')}\n` })}`;
    const w = await startWorld(objects, 'cluster: {podStartSeconds: 2, storage: {expansionSeconds: 5}}\n');
    assert.ok(await converge(w));
    const res = Resources.ordinalStatefulSets;
    await w.sim.world.user.patch(res, 'default', 'web', { ...setImage('app:2'), spec: { ...setImage('app:2').spec, volumeClaimTemplates: parse(claims('2Gi', 'gold')) } });
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', {})), 0);
    assert.equal(
      take(w).out,
      'statefulset.apps.ordinal.dev/web rolled back\nclaims never shrink; these keep their size: data-web-0 (2Gi, revision 1 had 1Gi), data-web-1 (2Gi, revision 1 had 1Gi)\n',
    );
    const set = await w.sim.world.user.get<StatefulSet>(res, 'default', 'web');
    assert.equal(set.spec.template.spec.containers[0]?.image, 'app:1');
    assert.deepEqual(set.spec.volumeClaimTemplates?.[0]?.metadata?.labels, { tier: 'bronze' });
    assert.equal(set.spec.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage, '2Gi');
    assert.ok(await converge(w));
    const pvcs = (await w.sim.world.user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items;
    assert.deepEqual(pvcs.map((c) => [c.metadata.labels?.['tier'], c.spec.resources?.requests?.storage]), [['bronze', '2Gi'], ['bronze', '2Gi']]);
  });

  it('has nothing to go back to with a single revision', async () => {
    const w = await startWorld(setYaml());
    await converge(w);
    assert.equal(await drive(w, rolloutUndoCommand(w.deps, 'web', {})), 1);
    assert.equal(take(w).err, 'error: no last revision to roll back to\n');
  });
});

describe('rollout restart', () => {
  it('stamps the template with restartedAt from the clock, and the controller replaces every pod', async () => {
    const w = await startWorld(setYaml());
    await converge(w);
    const before = (await w.sim.world.user.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.uid);
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'web')), 0);
    assert.equal(take(w).out, 'statefulset.apps/web restarted\n');
    const set = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(set.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'], new Date(w.sim.now()).toISOString().replace('.000Z', 'Z'));
    assert.ok(await converge(w));
    const after = (await w.sim.world.user.list<Pod>(Resources.pods, 'default')).items.map((p) => p.metadata.uid);
    assert.equal(after.filter((uid) => before.includes(uid)).length, 0);
    await drive(w, rolloutHistoryCommand(w.deps, 'web', {}));
    assert.match(take(w).out, /2\s+web-\w+\s+current,update\s+<none>\s+restarted \(2026-/);
  });

  it('--dry-run=client|server changes nothing', async () => {
    const w = await startWorld(setYaml());
    await converge(w);
    const before = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'web', { dryRun: 'client' })), 0);
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'web', { dryRun: 'server' })), 0);
    assert.equal(take(w).out, 'statefulset.apps/web restarted (dry run)\nstatefulset.apps/web restarted (server dry run)\n');
    const after = await w.sim.world.user.get<StatefulSet>(Resources.statefulSets, 'default', 'web');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('refuses an OnDelete set, whose pods the controller never replaces', async () => {
    const w = await startWorld(setYaml({ spec: '      updateStrategy: {type: OnDelete}\n' }));
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'web')), 1);
    assert.match(take(w).err, /cannot restart statefulset\.apps\/web: with the OnDelete strategy/);
  });
});

describe('set names', () => {
  it('finds a bare name under either API, and asks to qualify when both exist', async () => {
    const w = await startWorld(`${setYaml({ apiVersion: 'apps/v1' })}${setYaml({ apiVersion: 'apps.ordinal.dev/v1' })}`);
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, 'error: both statefulset.apps.ordinal.dev/web and statefulset.apps/web exist in namespace default; name one of them\n');
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'osts/web')), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web restarted\n');
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'statefulset.apps/web')), 0);
    assert.equal(take(w).out, 'statefulset.apps/web restarted\n');
    assert.equal(await drive(w, rolloutRestartCommand(w.deps, 'deployment/web')), 1);
    assert.match(take(w).err, /deployment\/web: not a StatefulSet/);
  });

  it('takes TYPE NAME as kubectl does (`statefulset web`, `osts web`), and TYPE/NAME', () => {
    assert.deepEqual(parseSetRef(setRefText('statefulset', 'web')), { name: 'web', resources: [Resources.statefulSets] });
    assert.deepEqual(parseSetRef(setRefText('osts', 'web')), { name: 'web', resources: [Resources.ordinalStatefulSets] });
    assert.deepEqual(parseSetRef(setRefText('sts/web', undefined)), { name: 'web', resources: [Resources.statefulSets] });
    const program = buildProgram('kubectl ordinal');
    const status = program.commands.find((c) => c.name() === 'rollout')?.commands.find((c) => c.name() === 'status');
    assert.deepEqual(status?.registeredArguments.map((a) => [a.name(), a.required]), [['name', true], ['name2', false]]);
  });
});
