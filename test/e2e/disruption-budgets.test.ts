// rollingUpdate.respectPodDisruptionBudgets on a real kube-apiserver 1.37, with kube-controller-manager's own
// disruption controller keeping the PodDisruptionBudget's status (no simulated one runs here). A budget
// wanting all 5 pods holds the rollout of `ordinal controller` entirely, and `why`/`plan` say so; lowered to
// the minAvailable 4 of examples/pdb-one-at-a-time.yaml, it lets the Parallel maxUnavailable 3 rollout go on
// (the controller watches budgets) one pod at a time, and neither the pods nor the budget's status, as
// kube-controller-manager counts it, ever show fewer healthy pods than the budget wants.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after as afterAll, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeObject, PodDisruptionBudget } from '../../src/api/types.js';
import { closeSession, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest } from './harness.js';
import { startIsolatedKcm, type KcmInstance } from './isolated-kcm.js';
import { after, assertBefore, first, mark, names } from './pod-order.js';
import { pause, waitUntil } from './wait.js';

const BIN = fileURLToPath(new URL('../../bin/ordinal.js', import.meta.url));

const example = loadExample('pdb-one-at-a-time.yaml');
let kcm: KcmInstance | undefined;

before(async () => {
  const cp = controlPlaneFromEnv();
  if (!('kubeconfigPath' in cp)) return; // each test then skips, or fails under CI
  openSession(cp);
  kcm = await startIsolatedKcm(cp, ['disruption-controller']);
}, { timeout: 120_000 });

afterAll(async () => {
  await kcm?.stop();
  closeSession();
});

describe('PodDisruptionBudgets on kube-apiserver with kube-controller-manager\'s disruption controller', () => {
  e2eTest('a budget wanting every pod holds the rollout and why says so; at minAvailable 4 of 5 a maxUnavailable 3 rollout goes one pod at a time, with no budget violation', {
    timeout: 180_000,
    kubelet: fastKubelet(example),
  }, async (env) => {
    const pdb = structuredClone(example.objects.find((o) => o.kind === 'PodDisruptionBudget')) as PodDisruptionBudget;
    pdb.spec.minAvailable = 5;
    await env.createObject(Resources.podDisruptionBudgets, pdb as KubeObject);
    const set = exampleSet(example, 'db', { namespace: env.ns, apiVersion: env.apiVersion });
    assert.equal(set.spec.updateStrategy?.rollingUpdate?.maxUnavailable, 3);
    await env.createConverged(set);
    const budget = () => env.client.get<PodDisruptionBudget>(Resources.podDisruptionBudgets, env.ns, 'db');
    const counted = (healthy: number, desired: number, allowed: number) =>
      waitUntil(`kube-controller-manager to count the budget (${healthy} healthy, ${desired} desired)`, 30_000, async () => {
        const s = (await budget()).status;
        return (s?.currentHealthy === healthy && s.desiredHealthy === desired && s.disruptionsAllowed === allowed) || `status ${JSON.stringify(s)}`;
      });
    await counted(5, 5, 0);

    const from = mark(env);
    await env.setImage('db', 'postgres', 'postgres:17.6');
    await env.waitForSet('db', 'the new revision to be seen', 30_000, (s) => (s.status !== undefined && s.status.observedGeneration === s.metadata.generation && s.status.updateRevision !== s.status.currentRevision) || `status ${JSON.stringify(s.status)}`);
    await pause(3_000);
    assert.deepEqual(names(after(env, 'db', 'Terminating', from)), [], 'nothing is deleted while the budget allows no disruption');
    const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args, 'db', '-n', env.ns, '--kubeconfig', env.cp.kubeconfigPath], { encoding: 'utf8' });
    const plan = cli('plan', '-o', 'json');
    assert.equal(plan.status, 0, plan.stderr);
    const planned = JSON.parse(plan.stdout) as { actions: unknown[]; blockers: { kind: string; budget?: string; pods?: string[] }[] };
    assert.deepEqual(planned.actions.filter((a) => (a as { kind: string }).kind === 'deletePod'), [], 'plan: no deletion');
    assert.deepEqual(planned.blockers.filter((b) => b.kind === 'podDisruptionBudget').map((b) => [b.budget, b.pods]), [['db', ['db-4']]]);
    const why = cli('why');
    assert.equal(why.status, 0, why.stderr);
    assert.match(why.stdout, /db-4 is not deleted: PodDisruptionBudget db wants all 5 of its pods healthy \(5 healthy, 5 desired\), so it never allows a disruption/);

    // every status kube-controller-manager writes from here on
    const statuses: NonNullable<PodDisruptionBudget['status']>[] = [];
    const watch = env.client.watch<PodDisruptionBudget>(Resources.podDisruptionBudgets, env.ns, (await budget()).metadata.resourceVersion ?? '0', {
      onEvent: (e) => void (e.object.status && statuses.push(e.object.status)),
      onClose: () => undefined,
    });
    env.onClose(() => watch.stop());
    await env.client.patch(Resources.podDisruptionBudgets, env.ns, 'db', { spec: { minAvailable: 4 } });
    await env.waitConverged('db', 120_000);

    const terminated = names(after(env, 'db', 'Terminating', from));
    assert.deepEqual(terminated, ['db-4', 'db-3', 'db-2', 'db-1', 'db-0'], 'one at a time, highest first');
    for (const [replaced, next] of [['db-4', 'db-3'], ['db-3', 'db-2'], ['db-2', 'db-1'], ['db-1', 'db-0']] as const) {
      assertBefore(first(env, replaced, 'Ready', from), first(env, next, 'Terminating', from), `${next} waits for the new ${replaced}`);
    }
    const { max, worst } = env.observer.maxUnavailable('db');
    assert.equal(max, 1, `most unavailable at once: ${worst}`);
    assert.ok(statuses.length > 0, 'kube-controller-manager wrote the budget during the rollout');
    const violations = statuses.filter((s) => s.currentHealthy < s.desiredHealthy);
    assert.deepEqual(violations, [], 'no status of the budget with fewer healthy pods than desired');
    env.note(`budget statuses seen: ${statuses.length}, lowest currentHealthy ${Math.min(...statuses.map((s) => s.currentHealthy))}`);
  });
});
