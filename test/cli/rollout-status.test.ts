// rollout status against the in-memory cluster with the real controller, on virtual time.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { rolloutStatusCommand } from '../../src/cli/commands/rollout.js';
import { parse } from 'yaml';
import { advance, converge, drive, driveWithTurns, setYaml, startWorld, take } from './world.js';

const ESC = String.fromCharCode(27);
const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image }] } } } });

describe('rollout status', () => {
  it('exits 0 at once for a converged set, with kubectl\'s message', async () => {
    const w = await startWorld(setYaml());
    assert.ok(await converge(w));
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', {}));
    assert.equal(code, 0);
    assert.match(take(w).out, /^statefulset rolling update complete 3 pods at revision web-\w+\.\.\.\n$/);
  });

  it('watches a rolling update to the end, printing pod changes and messages as plain lines', async () => {
    const w = await startWorld(setYaml({ spec: '      minReadySeconds: 5\n' }));
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    const start = w.sim.now();
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', { watch: true }));
    assert.equal(code, 0);
    const { out } = take(w);
    assert.match(out, /waiting for statefulset rolling update to complete/);
    assert.match(out, /web-2: Ready -> Terminating \(revision web-\w+\)\n/);
    assert.match(out, /Waiting for 1 pods to be available \(minReadySeconds 5\)/);
    assert.match(out, /statefulset rolling update complete 3 pods at revision web-\w+\.\.\.\n$/);
    assert.ok(w.sim.now() - start >= 3 * 7000, 'three pods, each started and available one after another');
  });

  it('exits 1 with kubectl\'s error when the rollout exceeds its progress deadline', async () => {
    const objects = setYaml({ apiVersion: 'apps.ordinal.dev/v1', spec: '      progressDeadlineSeconds: 30\n' });
    const w = await startWorld(objects, 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:broken'));
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', {}));
    assert.equal(code, 1);
    assert.equal(take(w).err, 'error: statefulset "web" exceeded its progress deadline\n');
  });

  it('right after a fix judges the new generation, not the deadline the previous one exceeded', async () => {
    const objects = setYaml({ apiVersion: 'apps.ordinal.dev/v1', spec: '      progressDeadlineSeconds: 30\n' });
    const w = await startWorld(objects, 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:broken'));
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', {})), 1, 'the broken image exceeds the deadline');
    take(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:2'));
    const status = rolloutStatusCommand(w.deps, 'web', {});
    await advance(w, 3);
    // OrderedReady does not replace the stuck pod by itself (upstream's documented forced-rollback step)
    await w.sim.world.user.delete(Resources.pods, 'default', 'web-2');
    assert.equal(await drive(w, status), 0);
    const { out, err } = take(w);
    assert.equal(err, '');
    assert.match(out, /^ {2}web-2: ImagePullBackOff for \d+s \(revision web-\w+\)\nWaiting for statefulset spec update to be observed\.\.\.\n/);
    assert.match(out, /statefulset rolling update complete 3 pods at revision web-\w+\.\.\.\n$/);
  });

  it('started mid-rollout in plain mode, names the stuck pod at once and says the ETA is unknown while it fails', async () => {
    const objects = setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 4, spec: '      progressDeadlineSeconds: 60\n' });
    const w = await startWorld(objects, 'cluster:\n  podStartSeconds: 4\n  podTerminationSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:2'));
    assert.ok(await converge(w), 'a first rollout, to learn from');
    await w.sim.world.user.patch(Resources.ordinalStatefulSets, 'default', 'web', setImage('app:broken'));
    await advance(w, 10);
    take(w);
    // The forecast behind the ETA runs simulations of its own: real turns between small steps of virtual time.
    assert.equal(await driveWithTurns(w, rolloutStatusCommand(w.deps, 'web', {})), 1);
    const { out, err } = take(w);
    assert.match(out, /^ {2}web-3: ImagePullBackOff for [4-8]s \(revision web-\w+\)\n/);
    assert.match(out, /^ETA: unknown while web-3 is failing \(ImagePullBackOff\)$/m);
    assert.doesNotMatch(out, /ETA: about/);
    assert.equal(err, 'error: statefulset "web" exceeded its progress deadline\n');
  });

  it('exits 1 after --timeout', async () => {
    const w = await startWorld(setYaml(), 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:broken'));
    const start = w.sim.now();
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', { timeout: '45s' }));
    assert.equal(code, 1);
    assert.equal(w.sim.now() - start, 45_000);
    assert.match(take(w).err, /^error: timed out waiting for the condition\n$/);
  });

  it('with --no-watch prints once and exits 1 while the rollout is under way', async () => {
    const w = await startWorld(setYaml());
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    await advance(w, 1);
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', { watch: false }));
    assert.equal(code, 1);
    assert.equal(take(w).out.split('\n').length, 2);
  });

  it('-o json prints no progress, one document at the end; -o yaml the same for a timeout', async () => {
    const w = await startWorld(setYaml(), 'cluster:\n  podStartSeconds: 2\n  images: {"app:broken": {behavior: ImagePullBackOff}}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'statefulset/web', { output: 'json' })), 0);
    const done = JSON.parse(take(w).out) as Record<string, unknown> & { pods: Array<{ name: string; revision: string; available: boolean }> };
    assert.equal(done.statefulSet, 'statefulset.apps/web');
    assert.equal(done.outcome, 'done');
    assert.equal(done.updatedReplicas, 3);
    assert.deepEqual(done.pods.map((p) => [p.name, p.revision === done.updateRevision, p.available]), [['web-0', true, true], ['web-1', true, true], ['web-2', true, true]]);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:broken'));
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', { output: 'yaml', timeout: '30s' })), 1);
    const { out, err } = take(w);
    assert.equal(err, 'error: timed out waiting for the condition\n');
    const timedOut = parse(out) as { outcome: string; pods: Array<{ state: string }> };
    assert.equal(timedOut.outcome, 'timeout');
    assert.ok(timedOut.pods.some((p) => p.state === 'ImagePullBackOff'), out);
  });

  it('shows an ETA during a rollout, forecast from the pods\' own timings and refreshed as pods are updated', async () => {
    const w = await startWorld(setYaml({ replicas: 4 }), 'cluster: {podStartSeconds: 4, podTerminationSeconds: 2}\n');
    await converge(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    assert.ok(await converge(w), 'a first rollout, to learn from');
    take(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:3'));
    // The forecast behind the ETA runs simulations of its own: real turns between small steps of virtual time.
    assert.equal(await driveWithTurns(w, rolloutStatusCommand(w.deps, 'web', {})), 0);
    const etas = [...take(w).out.matchAll(/^ETA: about (\d+)s left \(p90 (\d+)s\), forecast from this set's pod timings$/gm)].map((m) => Number(m[1]));
    // Four pods one after another, 2 s to stop and 4 s to start each: the k-th new pod is created at
    // 2 + 6(k−1) s and the rollout ends at 24 s, so with u pods updated about 28 − 6u s are left (24 s
    // before any); the learned times are ±0.5 s (whole-second timestamps), hence the tolerance.
    assert.ok(etas.length >= 2, `ETA lines: ${etas}`);
    assert.ok(etas.every((s) => [24, 22, 16, 10, 4].some((e) => Math.abs(s - e) <= 2)), `${etas}`);
    assert.ok(etas.every((s, i) => i === 0 || s < (etas[i - 1] ?? Infinity)), `decreasing: ${etas}`);
  });

  it('in a first rollout, learns the termination time from the pods it sees go instead of the grace period', async () => {
    const w = await startWorld(setYaml({ replicas: 4 }), 'cluster: {podStartSeconds: 4, podTerminationSeconds: 2}\n');
    await converge(w);
    take(w);
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', setImage('app:2'));
    // The forecast behind the ETA runs simulations of its own: real turns between small steps of virtual time.
    assert.equal(await driveWithTurns(w, rolloutStatusCommand(w.deps, 'web', {})), 0);
    const out = take(w).out;
    // No event pairs to learn from yet: the grace period (30 s) would forecast about 4 × 34 s. Once web-3 is
    // seen going in 2 s, the forecast is made again: about 24 s for the whole rollout, less as pods are updated.
    const etas = [...out.matchAll(/^ETA: about (\d+)s left/gm)].map((m) => Number(m[1]));
    assert.ok(etas.length >= 2, out);
    assert.ok(etas.every((s) => s <= 26), `${etas}`);
  });

  it('refuses a bad --timeout and an unknown set', async () => {
    const w = await startWorld(setYaml());
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'web', { timeout: '10' })), 1);
    assert.match(take(w).err, /invalid --timeout: time: missing unit/);
    assert.equal(await drive(w, rolloutStatusCommand(w.deps, 'nope', {})), 1);
    assert.equal(take(w).err, 'Error from server (NotFound): statefulsets.apps.ordinal.dev or statefulsets.apps "nope" not found\n');
  });

  it('draws the live view on a terminal and ends with the final message', async () => {
    const w = await startWorld(setYaml({ replicas: 2 }));
    w.io.isTTY = true;
    const code = await drive(w, rolloutStatusCommand(w.deps, 'web', {}));
    assert.equal(code, 0);
    const { out } = take(w);
    assert.match(out, new RegExp(`${ESC}\\[\\d+A${ESC}\\[J`), 'frames are redrawn in place');
    assert.match(out, /ORDINAL\s+POD\s+STATE\s+FOR\s+REVISION/);
    assert.match(out, /statefulset rolling update complete 2 pods at revision web-\w+\.\.\.\n$/);
  });
});
