// run-tests: alone (it compares wall times or lease timings: another file beside it would skew them)
// Two `ordinal controller --leader-elect` processes on a real kube-apiserver: only the Lease holder
// reconciles; when it is killed, the other takes over within the lease duration (plus one jittered
// retry) and carries on; a graceful stop releases the Lease so the standby takes over at once.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { Lease } from '../../src/api/types.js';
import { LEASE_DURATION_MS, RETRY_PERIOD_MS } from '../../src/runtime/leader-election.js';
import { closeSession } from './cluster-session.js';
import type { ControllerProcess } from './controller-process.js';
import { exampleSet, fastKubelet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';
import { waitUntil } from './wait.js';

afterAll(() => closeSession());

const example = loadExample('scale-up-down.yaml');
const LEASE = 'ordinal-e2e';
/**
 * The standby counts the lease from when it last saw it change (at most one jittered retry after the
 * kill) and tries again at most one jittered retry after the expiry; a jittered retry is up to
 * retryPeriod × (1 + 1.2) (client-go's JitterFactor). Plus slack for a loaded CI machine.
 */
const JITTERED_RETRY_MS = RETRY_PERIOD_MS * 2.2;
const TAKEOVER_BOUND_MS = LEASE_DURATION_MS + 2 * JITTERED_RETRY_MS + 3000;

const becameLeader = (c: ControllerProcess): boolean => c.logs().some((l) => l.msg === 'became leader');

/** Starts two candidates and returns them as [leader, standby] once one leads. */
async function electOne(env: TestEnv): Promise<[ControllerProcess, ControllerProcess, string]> {
  const leaderElect = { namespace: env.ns, id: LEASE };
  const a = env.startController({ leaderElect, label: 'a' });
  const b = env.startController({ leaderElect, label: 'b' });
  await waitUntil('one candidate to become leader', 60_000, () => becameLeader(a) || becameLeader(b));
  const [leader, standby] = becameLeader(a) ? [a, b] : [b, a];
  const line = await leader.waitForLog('became leader', 1000);
  return [leader, standby, String(line.identity)];
}

async function holder(env: TestEnv): Promise<Lease['spec']> {
  return (await env.client.get<Lease>(Resources.leases, env.ns, LEASE)).spec;
}

describe('leader election with two controller processes', () => {
  e2eTest('only the leader acts; after it is killed the standby takes over within the lease and reconciles', {
    timeout: 150_000,
    kubelet: fastKubelet(example),
    controller: false,
  }, async (env) => {
    const [leader, standby, identity] = await electOne(env);
    assert.equal((await holder(env)).holderIdentity, identity, 'the Lease names the leader');
    await env.createConverged(exampleSet(example, 'parallel', { namespace: env.ns, apiVersion: env.apiVersion }));
    assert.equal(becameLeader(standby), false, `the standby ${standby.label} never led`);
    assert.ok(standby.isRunning(), 'the standby keeps waiting');

    const killedAt = Date.now();
    await leader.kill();
    const line = await standby.waitForLog('became leader', TAKEOVER_BOUND_MS + 5000);
    const takeover = Date.now() - killedAt;
    env.note(`standby ${standby.label} took over ${takeover} ms after the leader was killed`);
    assert.ok(takeover <= TAKEOVER_BOUND_MS, `took over after ${takeover} ms (bound ${TAKEOVER_BOUND_MS} ms)`);
    const lease = await holder(env);
    assert.equal(lease.holderIdentity, String(line.identity));
    assert.ok((lease.leaseTransitions ?? 0) >= 1, 'the Lease counts the transition');

    await env.patch('parallel', { spec: { replicas: 4 } });
    await env.waitConverged('parallel', 60_000);
  });

  e2eTest('a gracefully stopped leader releases the Lease and the standby takes over at once', {
    timeout: 120_000,
    kubelet: fastKubelet(example),
    controller: false,
  }, async (env) => {
    const [leader, standby] = await electOne(env);
    await env.createConverged(exampleSet(example, 'ordered', { namespace: env.ns, apiVersion: env.apiVersion }));
    const stoppedAt = Date.now();
    const exit = await leader.stop();
    assert.equal(exit.code, 0, `the leader exits 0 on SIGTERM:\n${leader.tail()}`);
    await standby.waitForLog('became leader', 15_000);
    const takeover = Date.now() - stoppedAt;
    env.note(`standby took over ${takeover} ms after SIGTERM to the leader`);
    // An expired (not released) Lease could not be taken before LEASE_DURATION − one renew period.
    assert.ok(takeover < LEASE_DURATION_MS - RETRY_PERIOD_MS - 1000, `took over ${takeover} ms after SIGTERM: sooner than an expiry would allow`);
    await env.patch('ordered', { spec: { replicas: 3 } });
    await env.waitConverged('ordered', 60_000);
  });
});
