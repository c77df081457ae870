// An aborted rollout through the commands, on the in-memory cluster with the real controller on virtual time:
// `rollout status` exits 1 with what failed, `why` says what failed and what was done, `rollout retry` asks
// for the aborted revision again (an annotation; nothing else is written), and refuses a set with no abort.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { RetryAnnotation, type StatefulSet } from '../../src/api/types.js';
import { rolloutRetryCommand, rolloutStatusCommand } from '../../src/cli/commands/rollout.js';
import { whyCommand } from '../../src/cli/commands/why.js';
import { advance, converge, drive, setYaml, startWorld, take, type TestWorld } from './world.js';

const RES = Resources.ordinalStatefulSets;
const BROKEN = 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n';
const rollbackSet = setYaml({
  apiVersion: 'apps.ordinal.dev/v1',
  spec: '      progressDeadlineSeconds: 30\n      updateStrategy: {type: RollingUpdate, rollingUpdate: {onFailure: Rollback}}\n',
});
const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });
const stored = (w: TestWorld) => w.sim.world.user.get<StatefulSet>(RES, 'default', 'web');

/** The set rolled to a broken image and brought back by the controller. */
async function rolledBack(): Promise<TestWorld> {
  const w = await startWorld(rollbackSet, BROKEN);
  assert.ok(await converge(w));
  await w.sim.world.user.patch(RES, 'default', 'web', setImage('app:broken'));
  await advance(w, 60);
  assert.ok(await converge(w), 'the way back ends');
  assert.notEqual((await stored(w)).status?.abortedRevision, undefined);
  return w;
}

describe('an aborted rollout through the commands', () => {
  it('rollout status exits 1 with the reason, during the way back and after it', async () => {
    const w = await startWorld(rollbackSet, BROKEN);
    assert.ok(await converge(w));
    await w.sim.world.user.patch(RES, 'default', 'web', setImage('app:broken'));
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), 1, 'the deadline first');
    take(w);
    await advance(w, 1);
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', { watch: false })), 1);
    assert.match(take(w).err, /^error: statefulset "web" rollout aborted: Rollout to revision web-\w+ aborted: it made no progress for progressDeadlineSeconds \(30 s\); every pod goes back to revision web-\w+/);
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), 1, 'still aborted once back');
  });

  it('why says what failed, what was done and what the user can do', async () => {
    const w = await rolledBack();
    assert.equal(await drive(w, whyCommand(w.deps, 'web', {})), 0);
    const { out } = take(w);
    assert.match(out, /Rolled back from revision web-\w+: 3 of 3 pods are on revision web-\w+ and available\./);
    assert.match(out, /Rollout to revision web-\w+ aborted: it made no progress for progressDeadlineSeconds \(30 s\)/);
    assert.match(out, /`kubectl ordinal rollout retry web` tries revision web-\w+ again, and a new template starts a new rollout/);
  });

  it('rollout retry writes a new annotation value and nothing else; the controller rolls to the aborted revision again', async () => {
    const w = await rolledBack();
    const before = await stored(w);
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web')), 0);
    assert.equal(take(w).out, `statefulset.apps.ordinal.dev/web rollout of revision ${before.status?.abortedRevision ?? ''} retried\n`);
    const after = await stored(w);
    assert.deepEqual(after.spec, before.spec);
    assert.equal(after.metadata.generation, before.metadata.generation);
    assert.ok(after.metadata.annotations?.[RetryAnnotation]);
    // until the controller has acted on it, rollout status waits instead of reporting the old abort
    const status = rolloutStatusCommand(w.deps, 'web', {});
    assert.equal(await drive(w, status), 1, 'the same broken revision fails again');
    assert.equal(take(w).err, 'error: statefulset "web" exceeded its progress deadline\n', 'a new failure, not the old abort');
    await advance(w, 5);
    const again = await stored(w);
    assert.equal(again.status?.abortedRevision, before.status?.abortedRevision);
    assert.equal(again.status?.observedRolloutRetry, after.metadata.annotations?.[RetryAnnotation]);
  });

  it('--dry-run=client sends nothing', async () => {
    const w = await rolledBack();
    const before = await stored(w);
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web', { dryRun: 'client' })), 0);
    assert.match(take(w).out, / retried \(dry run\)\n$/);
    assert.equal((await stored(w)).metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('refuses a set with no aborted rollout', async () => {
    const w = await startWorld(rollbackSet);
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, 'error: statefulset.apps.ordinal.dev/web has no aborted rollout to retry: its status records no aborted rollout (onFailure: Rollback)\n');
  });
});
