// A staged rollout through the commands, on the in-memory cluster with the real controller on virtual time:
// `rollout pause|resume` (spec paused), `promote`, `abort` and `retry` (annotations), and what `rollout status`
// and `plan` say at each point, with status's exit codes for a rollout held for a person.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { AbortAnnotation, PromoteAnnotation, type StatefulSet } from '../../src/api/types.js';
import {
  rolloutAbortCommand,
  rolloutPauseCommand,
  rolloutPromoteCommand,
  rolloutRetryCommand,
  rolloutStatusCommand,
} from '../../src/cli/commands/rollout.js';
import { planCommand } from '../../src/cli/commands/plan.js';
import { ExitCode } from '../../src/cli/rollout/rollout-status.js';
import { advance, converge, drive, setYaml, startWorld, take, type TestWorld } from './world.js';

const RES = Resources.ordinalStatefulSets;
const ORDINAL = 'apps.ordinal.dev/v1';
/** One canary pod until promoted, then two pods baked for 10 minutes, then every pod. */
const STEPS = '[{replicas: 1, pause: {}}, {replicas: 2, pause: {duration: 10m}}, {partition: 0}]';
const staged = (rolling = '') => setYaml({ apiVersion: ORDINAL, spec: `      updateStrategy: {type: RollingUpdate, rollingUpdate: {steps: ${STEPS}${rolling}}}\n` });
const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });
const stored = (w: TestWorld) => w.sim.world.user.get<StatefulSet>(RES, 'default', 'web');
const status = (w: TestWorld) => drive(w, rolloutStatusCommand(w.deps, 'web', { watch: false }));

/** A converged staged set whose template changed: the rollout is at step 1/3, paused until promoted. */
async function atFirstStep(rolling = ''): Promise<TestWorld> {
  const w = await startWorld(staged(rolling));
  assert.ok(await converge(w));
  await w.sim.world.user.patch(RES, 'default', 'web', setImage('app:2'));
  await advance(w, 30);
  const s = (await stored(w)).status;
  assert.equal(s?.currentStepIndex, 0);
  assert.equal(s?.currentStepState, 'Paused');
  take(w);
  return w;
}

describe('rollout pause and resume', () => {
  it('apps/v1: exit 1, one line naming apps.ordinal.dev/v1 and the partition patch that holds or releases the rollout', async () => {
    const w = await startWorld(setYaml());
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause')), 1);
    assert.equal(
      take(w).err,
      `error: statefulset.apps/web cannot be paused: apps/v1 StatefulSets have no spec paused; use an apps.ordinal.dev/v1 StatefulSet (rollingUpdate.paused), or hold the rollout with its partition: kubectl patch statefulset.apps/web --type merge -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":3}}}}'\n`,
    );
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'resume')), 1);
    assert.match(take(w).err, /cannot be resumed: .*release a rollout held by its partition: .*"partition":0\}/);
  });

  it('OnDelete: exit 1, there is nothing to pause', async () => {
    const w = await startWorld(setYaml({ apiVersion: ORDINAL, spec: '      updateStrategy: {type: OnDelete}\n' }));
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause')), 1);
    assert.equal(take(w).err, 'error: statefulset.apps.ordinal.dev/web cannot be paused: with OnDelete the controller replaces a pod only when you delete it\n');
  });

  it('pause sets rollingUpdate.paused: the rollout holds and status exits 3; resume lets it finish', async () => {
    const w = await startWorld(setYaml({ apiVersion: ORDINAL }));
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause')), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web paused\n');
    assert.equal((await stored(w)).spec.updateStrategy?.rollingUpdate?.paused, true);
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause')), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web already paused\n');
    await w.sim.world.user.patch(RES, 'default', 'web', setImage('app:2'));
    // the watch stops at the pause: it waits for a person
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.pausedByUser);
    assert.match(take(w).out, /^paused \(spec paused: true; kubectl ordinal rollout resume web\)$/m);
    assert.equal((await stored(w)).status?.updatedReplicas, 0, 'nothing was updated');
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'resume')), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web resumed\n');
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.done);
  });

  it('--dry-run=client and --dry-run=server store nothing', async () => {
    const w = await startWorld(setYaml({ apiVersion: ORDINAL }));
    assert.ok(await converge(w));
    const before = (await stored(w)).metadata.resourceVersion;
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause', { dryRun: 'client' })), 0);
    assert.equal(await drive(w, rolloutPauseCommand(w.deps, 'web', 'pause', { dryRun: 'server' })), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web paused (dry run)\nstatefulset.apps.ordinal.dev/web paused (server dry run)\n');
    assert.equal((await stored(w)).metadata.resourceVersion, before);
  });
});

describe('rollout promote', () => {
  it('a step paused until promoted: status exits 4 and names the command; promote goes on, the watch follows a bake to the end', async () => {
    const w = await atFirstStep();
    assert.equal(await status(w), ExitCode.pausedAtStep);
    assert.equal(take(w).out, 'step 1/3: paused until promoted (kubectl ordinal rollout promote web)\n');
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.pausedAtStep, 'a watch stops there too');
    take(w);
    assert.equal(await drive(w, rolloutPromoteCommand(w.deps, 'web')), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web promoted past step 1/3\n');
    const set = await stored(w);
    assert.equal(set.metadata.annotations?.[PromoteAnnotation], `${set.status?.updateRevision ?? ''}/0`);
    // before the controller acts, status waits for it rather than reporting the old pause
    assert.equal(await status(w), 1);
    assert.equal(take(w).out, 'Waiting for statefulset rollout promote to be observed...\n');
    await advance(w, 60);
    assert.equal(await status(w), 1);
    assert.match(take(w).out, /^step 2\/3: paused for 9m\d+s more \(bake\)\n$/);
    // a bake is no wait for a person: the watch goes on through it to the end
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.done);
    assert.match(take(w).out, /statefulset rolling update complete 3 pods at revision web-\w+/);
  });

  it('-o json: outcome paused, with the same exit code', async () => {
    const w = await atFirstStep();
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', { output: 'json' })), ExitCode.pausedAtStep);
    const doc = JSON.parse(take(w).out) as { outcome: string; message: string };
    assert.deepEqual([doc.outcome, doc.message], ['paused', 'step 1/3: paused until promoted (kubectl ordinal rollout promote web)']);
  });

  it('--full passes every remaining step', async () => {
    const w = await atFirstStep();
    assert.equal(await drive(w, rolloutPromoteCommand(w.deps, 'web', { full: true, dryRun: 'client' })), 0);
    assert.equal(take(w).out, 'statefulset.apps.ordinal.dev/web promoted past every remaining step (from step 1/3) (dry run)\n');
    assert.equal((await stored(w)).metadata.annotations?.[PromoteAnnotation], undefined, 'a client dry run sends nothing');
    assert.equal(await drive(w, rolloutPromoteCommand(w.deps, 'web', { full: true })), 0);
    assert.ok(await converge(w, 120), 'no bake on the way');
    assert.equal((await stored(w)).status?.currentStepState, 'Completed');
  });

  it('refuses a set without steps, and one with no step under way', async () => {
    const plain = await startWorld(setYaml({ apiVersion: ORDINAL }));
    assert.equal(await drive(plain, rolloutPromoteCommand(plain.deps, 'web')), 1);
    assert.equal(take(plain).err, 'error: statefulset.apps.ordinal.dev/web has no step to promote: it has no steps to promote (spec.updateStrategy.rollingUpdate.steps)\n');
    const w = await startWorld(staged());
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutPromoteCommand(w.deps, 'web')), 1);
    assert.match(take(w).err, /^error: statefulset.apps.ordinal.dev\/web has no step to promote: no staged rollout is in progress \(status.currentStepIndex 3 of 3 steps for revision web-\w+\)\n$/);
  });
});

describe('rollout abort and retry', () => {
  it('abort fails the rollout at its step (status exits 1); retry runs the step again', async () => {
    const w = await atFirstStep();
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 0);
    const set = await stored(w);
    const revision = set.status?.updateRevision ?? '';
    assert.equal(take(w).out, `statefulset.apps.ordinal.dev/web rollout of revision ${revision} aborted at step 1/3: it stays there until \`kubectl ordinal rollout retry web\`\n`);
    assert.equal(set.metadata.annotations?.[AbortAnnotation], revision);
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.failed);
    assert.match(take(w).err, /^error: statefulset "web" rollout aborted: Rollout to revision web-\w+ at step 1\/3 aborted by the user/);
    assert.equal((await stored(w)).status?.currentStepState, 'Failed');
    // a failed step cannot be promoted, nor aborted again
    assert.equal(await drive(w, rolloutPromoteCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, 'error: statefulset.apps.ordinal.dev/web has no step to promote: the rollout failed at step 1/3; `kubectl ordinal rollout retry web` runs the step again\n');
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 1);
    assert.match(take(w).err, /^error: statefulset.apps.ordinal.dev\/web has no rollout to abort: the rollout failed at step 1\/3/);
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web')), 0);
    assert.equal(take(w).out, `statefulset.apps.ordinal.dev/web rollout of revision ${revision} at step 1/3 retried\n`);
    assert.equal((await stored(w)).metadata.annotations?.[AbortAnnotation], undefined, 'the retry lifts the abort');
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.pausedAtStep, 'back at the step, paused until promoted');
    assert.equal((await stored(w)).status?.currentStepState, 'Paused');
  });

  it('abort under onFailure: Rollback says the pods go back', async () => {
    const w = await atFirstStep(', onFailure: Rollback');
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web', { dryRun: 'server' })), 0);
    assert.match(take(w).out, /aborted at step 1\/3 \(server dry run\): onFailure: Rollback brings the pods back to the last fully available revision\n$/);
    assert.equal((await stored(w)).metadata.annotations?.[AbortAnnotation], undefined);
  });

  it('abort and retry refuse a set with no rollout under way, and retry one with no failed step', async () => {
    const w = await startWorld(staged());
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 1);
    assert.match(take(w).err, /^error: statefulset.apps.ordinal.dev\/web has no rollout to abort: no staged rollout is in progress/);
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, 'error: statefulset.apps.ordinal.dev/web has no aborted rollout to retry: its status records no failed step (status.currentStepState) and no aborted rollout (onFailure: Rollback)\n');
  });
});

describe('rollout abort without steps', () => {
  it('an apps.ordinal.dev/v1 rollout under way is held (onFailure: Halt), status exits 1, and retry lets it finish', async () => {
    const w = await startWorld(setYaml({ apiVersion: ORDINAL }));
    assert.ok(await converge(w));
    await w.sim.world.user.patch(RES, 'default', 'web', setImage('app:2'));
    await advance(w, 3);
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 0);
    const revision = (await stored(w)).status?.updateRevision ?? '';
    assert.equal(take(w).out, `statefulset.apps.ordinal.dev/web rollout of revision ${revision} aborted: it stays there until \`kubectl ordinal rollout retry web\`\n`);
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.failed);
    assert.match(take(w).err, /^error: statefulset "web" rollout aborted: /);
    await advance(w, 5);
    const held = (await stored(w)).status?.updatedReplicas;
    assert.ok((held ?? 0) < 3);
    await advance(w, 30);
    assert.equal((await stored(w)).status?.updatedReplicas, held, 'nothing more is updated');
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, `error: statefulset.apps.ordinal.dev/web has no rollout to abort: the rollout of revision ${revision} is aborted already\n`);
    assert.equal(await drive(w, rolloutRetryCommand(w.deps, 'web')), 0);
    assert.equal(take(w).out, `statefulset.apps.ordinal.dev/web rollout of revision ${revision} retried\n`);
    // the abort's condition is still there until the controller's next sync: status waits rather than fail
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), ExitCode.done);
  });

  it('refuses apps/v1, and a set with no rollout under way', async () => {
    const w = await startWorld(setYaml());
    assert.ok(await converge(w));
    assert.equal(await drive(w, rolloutAbortCommand(w.deps, 'web')), 1);
    assert.equal(take(w).err, 'error: statefulset.apps/web has no rollout to abort: only an apps.ordinal.dev/v1 StatefulSet can be aborted (the annotation apps.ordinal.dev/rollout-abort)\n');
    const v1 = await startWorld(setYaml({ apiVersion: ORDINAL }));
    assert.ok(await converge(v1));
    assert.equal(await drive(v1, rolloutAbortCommand(v1.deps, 'web')), 1);
    assert.match(take(v1).err, /^error: statefulset.apps.ordinal.dev\/web has no rollout to abort: no rollout is in progress \(status.updateRevision is status.currentRevision, web-\w+\)\n$/);
  });
});

describe('plan at a step', () => {
  it('names the step and what it waits for', async () => {
    const w = await atFirstStep();
    assert.equal(await drive(w, planCommand(w.deps, 'web', {})), 0);
    assert.match(take(w).out, /the rollout is at step 1\/3 \(partition 2: pods from index 2 up move to the new revision\): paused until promoted; `kubectl ordinal rollout promote web` goes on to the next step/);
  });
});
