// rollingUpdate.respectPodDisruptionBudgets on a real kube-apiserver 1.37, with kube-controller-manager's own
// disruption controller keeping the PodDisruptionBudget's status (no simulated one runs here). A budget
// wanting all 5 pods holds the rollout of `ordinal controller` entirely, and `why`/`plan` say so; lowered to
// the minAvailable 4 of examples/pdb-one-at-a-time.yaml, it lets the Parallel maxUnavailable 3 rollout go on
// (the controller watches budgets) one pod at a time, and neither the pods nor the budget's status, as
// kube-controller-manager counts it, ever show fewer healthy pods than the budget wants. Two sets behind one
// budget (primary and replicas, `tier: db`) rolling at once keep it too, every pod going through pods/eviction;
// a pod that a second budget selects is refused by kube-apiserver (500) until that budget goes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after as afterAll, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeEvent, KubeObject, Pod, PodDisruptionBudget, StatefulSet } from '../../src/api/types.js';
import { isPodReady, isTerminating } from '../../src/controller/model/pod-state.js';
import { closeSession, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { exampleSet, fastKubelet, loadExample, renamed } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
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

  e2eTest('primary and replicas behind one tier: db budget roll at once through pods/eviction and never leave fewer than 5 of 6 healthy; a pod of a second budget is refused by the API server until that budget goes', {
    timeout: 180_000,
    kubelet: fastKubelet(example),
  }, async (env) => {
    const base = exampleSet(example, 'db', { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 3 });
    const tiered = (name: string): StatefulSet => {
      const set = renamed(base, name);
      set.spec.template.metadata = { labels: { app: name, tier: 'db' } };
      return set;
    };
    const budgetOf = (name: string, spec: PodDisruptionBudget['spec']): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec }) as KubeObject;
    await env.createObject(Resources.podDisruptionBudgets, budgetOf('tier', { minAvailable: 5, selector: { matchLabels: { tier: 'db' } } }));
    await Promise.all(['primary', 'replicas'].map((n) => env.createConverged(tiered(n))));
    const budget = (name: string) => env.client.get<PodDisruptionBudget>(Resources.podDisruptionBudgets, env.ns, name);
    await waitUntil('kube-controller-manager to count the tier budget (6 healthy, 5 desired)', 30_000, async () => {
      const s = (await budget('tier')).status;
      return (s?.currentHealthy === 6 && s.desiredHealthy === 5 && s.disruptionsAllowed === 1) || `status ${JSON.stringify(s)}`;
    });
    const statuses = watchStatuses(env, 'tier', (await budget('tier')).metadata.resourceVersion ?? '0');

    const from = mark(env);
    await Promise.all(['primary', 'replicas'].map((n) => env.setImage(n, 'postgres', 'postgres:17.6')));
    await Promise.all(['primary', 'replicas'].map((n) => env.waitConverged(n, 120_000)));
    const terminated = env.observer.podEvents.filter((e) => e.seq > from && e.type === 'Terminating');
    assert.deepEqual(terminated.map((e) => e.name).sort(), ['primary-0', 'primary-1', 'primary-2', 'replicas-0', 'replicas-1', 'replicas-2']);
    const evicted = terminated.filter((e) => e.pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'EvictionByEvictionAPI'));
    assert.equal(evicted.length, 6, 'each pod went through pods/eviction (its DisruptionTarget condition is the eviction handler\'s)');
    const fewest = fewestHealthy(env, from);
    assert.ok(fewest.count >= 5, `at least 5 of 6 healthy at every pod change (fewest ${fewest.count}: ${fewest.pods})`);
    assert.deepEqual(statuses.filter((s) => s.currentHealthy < s.desiredHealthy), [], 'no status of the budget with fewer healthy pods than desired');
    const refused = [...(await env.events('primary', 'EvictionRefused')), ...(await env.events('replicas', 'EvictionRefused'))];
    env.note(`fewest healthy ${fewest.count} of 6 (5 desired); ${statuses.length} budget statuses, lowest currentHealthy ${Math.min(...statuses.map((s) => s.currentHealthy))}; EvictionRefused events ${refused.length}`);

    // a second budget over primary-1: kube-apiserver refuses to evict a pod of two budgets, however both stand,
    // so the controller does not send it: primary-1 waits (overlappingDisruptionBudgets) and says why
    await env.createObject(Resources.podDisruptionBudgets, budgetOf('primary-1', { minAvailable: 0, selector: { matchLabels: { 'statefulset.kubernetes.io/pod-name': 'primary-1' } } }));
    await waitUntil('kube-controller-manager to count the primary-1 budget', 30_000, async () => (await budget('primary-1')).status?.observedGeneration === 1);
    const refusal = await env.client.evictPod(env.ns, 'primary-1').then(() => 'evicted', (e: unknown) => String((e as Error).message));
    assert.match(refusal, /more than one PodDisruptionBudget/, 'kube-apiserver refuses the eviction of a pod two budgets select');
    const again = mark(env);
    await env.setImage('primary', 'postgres', 'postgres:17.7');
    await waitUntil('primary-2 to go', 60_000, async () => env.observer.podEvents.some((e) => e.seq > again && e.type === 'Terminating' && e.name === 'primary-2') || 'not yet');
    await waitUntil('the new primary-2 to be Ready', 60_000, async () => { const st = (await env.client.get<StatefulSet>(Resources.ordinalStatefulSets, env.ns, 'primary')).status; return (st?.updatedReplicas === 1 && st.readyReplicas === 3) || JSON.stringify(st); });
    await pause(5_000);
    assert.deepEqual(env.observer.podEvents.filter((e) => e.seq > again && e.type === 'Terminating').map((e) => e.name), ['primary-2'], 'primary-2 went; primary-1 stays, and primary-0 below it waits');
    assert.equal((await failedEvictions(env)).count, 0, 'no eviction the API server refuses is sent');
    assert.equal(env.controllers[0]?.isRunning(), true, 'the controller runs on');
    const why = spawnSync(process.execPath, [BIN, 'why', 'primary', '-n', env.ns, '--kubeconfig', env.cp.kubeconfigPath], { encoding: 'utf8' });
    assert.match(why.stdout, /primary-1 is selected by more than one PodDisruptionBudget \((primary-1, tier|tier, primary-1)\)/, why.stdout);

    await env.client.delete(Resources.podDisruptionBudgets, env.ns, 'primary-1');
    await env.waitConverged('primary', 120_000);
  });
});

/** Every status the budget is written with from `resourceVersion` on (kube-controller-manager's, and the eviction handler's). */
function watchStatuses(env: TestEnv, name: string, resourceVersion: string): NonNullable<PodDisruptionBudget['status']>[] {
  const statuses: NonNullable<PodDisruptionBudget['status']>[] = [];
  const watch = env.client.watch<PodDisruptionBudget>(Resources.podDisruptionBudgets, env.ns, resourceVersion, {
    onEvent: (e) => void (e.object.metadata.name === name && e.object.status && statuses.push(e.object.status)),
    onClose: () => undefined,
  });
  env.onClose(() => watch.stop());
  return statuses;
}

/** The fewest pods of the namespace Ready and not terminating at once, replaying the observer's pod events after `from`. */
function fewestHealthy(env: TestEnv, from: number): { count: number; pods: string } {
  const state = new Map<string, Pod>();
  for (const e of env.observer.podEvents) if (e.seq <= from) state.set(e.name, e.pod);
  const healthy = () => [...state.values()].filter((p) => isPodReady(p) && !isTerminating(p)).map((p) => p.metadata.name ?? '');
  let fewest = { count: healthy().length, pods: healthy().join(',') };
  for (const e of env.observer.podEvents.filter((x) => x.seq > from)) {
    if (e.type === 'Deleted') state.delete(e.name);
    else state.set(e.name, e.pod);
    const now = healthy();
    if (now.length < fewest.count) fewest = { count: now.length, pods: now.join(',') };
  }
  return fewest;
}

/** The FailedDelete Event of the primary set (its count: how many evictions of primary-1 were refused) and its message. */
async function failedEvictions(env: TestEnv): Promise<{ count: number; message: string }> {
  const events: KubeEvent[] = await env.events('primary', 'FailedDelete');
  return { count: events.reduce((n, e) => n + (e.count ?? 1), 0), message: events[0]?.message ?? '' };
}
