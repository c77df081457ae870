// run-tests: alone (it compares wall times or lease timings: another file beside it would skew them)
// A deposed leader writes nothing, on a kube-apiserver of this file's own with an audit log: two
// `ordinal controller --leader-elect` processes (each its own user agent), a rollout under way, and the
// leader either frozen past its Lease (SIGSTOP, then SIGCONT once the other has taken over and written) or cut
// off from the API server by a partition (a TCP proxy the test blocks, healed once the other has written).
// The audit log, by user agent, must show no write of the deposed leader received after the other's first
// write; the deposed leader exits 1; the rollout completes without breaking maxUnavailable.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StatefulSet } from '../../src/api/types.js';
import { parseAuditLog, type AuditEvent } from '../../bench/upstream/audit.js';
import { closeSession } from './cluster-session.js';
import { requireControlPlane, startControlPlane, type ControlPlane } from './control-plane.js';
import type { ControllerProcess } from './controller-process.js';
import { TestEnv } from './harness.js';
import { startPartitionProxy } from './partition-proxy.js';
import { waitUntil, withTimeout } from './wait.js';

const LEASE = 'ordinal-fencing';
/** Short lease timings (kube-controller-manager's flags), so a takeover takes seconds, not 15. */
const TIMINGS = { lease: 6_000, renew: 4_000, retry: 1_000 };
const TIMING_ARGS = [`--leader-elect-lease-duration=${TIMINGS.lease}ms`, `--leader-elect-renew-deadline=${TIMINGS.renew}ms`, `--leader-elect-retry-period=${TIMINGS.retry}ms`];
/** A standby takes over at most a lease duration plus two jittered retries after the leader's last renewal; slack for a loaded machine. */
const TAKEOVER_MS = TIMINGS.lease + 2 * 2.2 * TIMINGS.retry + 10_000;
const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const REPLICAS = 8;
const MAX_UNAVAILABLE = 2;

let cp: (ControlPlane & { stop(): Promise<void> }) | undefined;

/** A test on this file's control plane (started by the first test that runs; skipped without the shared one). */
function fencingTest(title: string, body: (env: TestEnv, cp: ControlPlane) => Promise<void>): void {
  it(title, { timeout: 240_000 }, async (t) => {
    const shared = requireControlPlane(t);
    if (!shared) return;
    cp ??= await startControlPlane(shared.binDir, ['--audit']);
    const env = await TestEnv.open(cp, title, { kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 }, controller: false });
    env.note = (m) => t.diagnostic(m);
    try {
      await body(env, cp);
    } catch (e) {
      t.diagnostic(env.diagnostics());
      throw e;
    } finally {
      for (const c of env.controllers) c.signal('SIGCONT');
      await env.close();
    }
  });
}

function webSet(env: TestEnv): StatefulSet {
  return {
    apiVersion: env.apiVersion,
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: env.ns },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: { app: 'web' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
    },
  };
}

/** The end of a controller process's user agent, `ordinal-controller/VERSION (IDENTITY)` (its identity is on its first log line). */
async function userAgentOf(c: ControllerProcess): Promise<string> {
  const line = await c.waitForLog('starting ordinal controller', 30_000);
  return ` (${String(line.identity)})`;
}

function auditWrites(cp: ControlPlane, userAgent: string, where: (e: AuditEvent) => boolean = () => true): AuditEvent[] {
  // the log is being written: a last line without its newline is not complete yet
  const text = readFileSync(join(cp.dir, 'audit.log'), 'utf8');
  const events = parseAuditLog(text.slice(0, text.lastIndexOf('\n') + 1));
  return events.filter((e) => e.stage === 'ResponseComplete' && (e.userAgent ?? '').startsWith('ordinal-controller/') && (e.userAgent ?? '').endsWith(userAgent) && WRITES.has(e.verb) && where(e));
}

const describeWrite = (e: AuditEvent) => `${e.requestReceivedTimestamp} ${e.verb} ${e.objectRef?.resource ?? ''}/${e.objectRef?.name ?? ''} ${e.responseStatus?.code ?? ''}`;

/** The first write of `userAgent` that is not its Lease (its takeover is a Lease write too). */
function firstControllerWrite(cp: ControlPlane, userAgent: string, ns: string): AuditEvent | undefined {
  return auditWrites(cp, userAgent, (e) => e.objectRef?.namespace === ns && e.objectRef.resource !== 'leases')[0];
}

/** Two candidates, the first one leading, and a rollout of `web` under way (at least one old pod deleted). */
async function leaderMidRollout(env: TestEnv, cp: ControlPlane, leaderKubeconfig: string): Promise<{ a: ControllerProcess; b: ControllerProcess; uaA: string; uaB: string }> {
  const leaderElect = { namespace: env.ns, id: LEASE };
  const a = env.startController({ leaderElect, label: 'a', kubeconfig: leaderKubeconfig, args: TIMING_ARGS });
  await a.waitForLog('became leader', 60_000);
  const b = env.startController({ leaderElect, label: 'b', args: TIMING_ARGS });
  const [uaA, uaB] = [await userAgentOf(a), await userAgentOf(b)];
  await env.createConverged(webSet(env), 90_000);
  await env.setImage('web', 'app', 'app:2');
  await env.observer.waitFor('the rollout to delete a first old pod', 30_000, () => env.observer.eventsOf('web', 'Terminating').length > 0);
  assert.ok(firstControllerWrite(cp, uaA, env.ns), 'the leader wrote');
  assert.equal(auditWrites(cp, uaB).length, 0, 'the standby wrote nothing while it waited');
  return { a, b, uaA, uaB };
}

/** The other's takeover and first write, from the audit log. */
async function takeover(env: TestEnv, cp: ControlPlane, b: ControllerProcess, uaB: string): Promise<{ first: AuditEvent; firstOfController: AuditEvent }> {
  await b.waitForLog('became leader', TAKEOVER_MS);
  let firstOfController: AuditEvent | undefined;
  await waitUntil('the new leader\'s first write in the audit log', 30_000, () => (firstOfController = firstControllerWrite(cp, uaB, env.ns)) !== undefined);
  return { first: auditWrites(cp, uaB)[0]!, firstOfController: firstOfController! };
}

/** What must hold at the end: the deposed leader wrote nothing after `since`, the rollout converged within maxUnavailable. */
async function assertNothingLost(env: TestEnv, cp: ControlPlane, uaA: string, since: AuditEvent): Promise<void> {
  await env.waitConverged('web', 120_000);
  const late = auditWrites(cp, uaA, (e) => (e.requestReceivedTimestamp ?? '') > (since.requestReceivedTimestamp ?? ''));
  env.note(`deposed leader's writes after the new leader's first write (${since.requestReceivedTimestamp}): ${late.length}`);
  assert.deepEqual(late.map(describeWrite), [], 'writes of the deposed leader after the new leader\'s first write');
  const { max, worst } = env.observer.maxUnavailable('web');
  assert.ok(max <= MAX_UNAVAILABLE, `at most ${MAX_UNAVAILABLE} unavailable during the rollout, saw ${worst}`);
  const pods = env.observer.podsOf('web');
  assert.equal(pods.length, REPLICAS);
  assert.ok(pods.every((p) => p.spec.containers[0]?.image === 'app:2'), `every pod on app:2: ${env.observer.describePods('web')}`);
}

describe('fencing: a deposed leader writes nothing', () => {
  after(async () => {
    closeSession();
    await cp?.stop();
  });

  fencingTest('a leader frozen past its Lease (SIGSTOP) and resumed after the other wrote exits 1 without a write', async (env, cp) => {
    const { a, b, uaA, uaB } = await leaderMidRollout(env, cp, cp.kubeconfigPath);
    a.signal('SIGSTOP');
    const stoppedAt = Date.now();
    const { first, firstOfController } = await takeover(env, cp, b, uaB);
    env.note(`b took the Lease ${Date.parse(first.requestReceivedTimestamp ?? '') - stoppedAt} ms after a was stopped; its first pod or status write: ${describeWrite(firstOfController)}`);
    a.signal('SIGCONT');
    const resumedAt = Date.now();
    const exit = await withTimeout('the resumed leader to exit', 15_000, a.exited);
    env.note(`a exited ${Date.now() - resumedAt} ms after SIGCONT: ${JSON.stringify(exit)}`);
    assert.equal(exit.code, 1, `a exits 1:\n${a.tail()}`);
    assert.ok(a.logs().some((l) => l.msg === 'leader election lost'), 'a logs leader election lost');
    await assertNothingLost(env, cp, uaA, first);
  });

  fencingTest('a leader cut off by a partition stops writing at its renew deadline, resets its connections and exits 1', async (env, cp) => {
    const proxy = await startPartitionProxy(cp.kubeconfigPath, join(cp.dir, `a-${env.ns}.kubeconfig`));
    env.onClose(() => proxy.close());
    const { a, b, uaA, uaB } = await leaderMidRollout(env, cp, proxy.kubeconfig);
    proxy.block();
    const blockedAt = Date.now();
    const exit = await withTimeout('the cut-off leader to exit', TIMINGS.renew + 15_000, a.exited);
    env.note(`a exited ${Date.now() - blockedAt} ms after the partition: ${JSON.stringify(exit)}; bytes it had in flight, dropped by its resets: ${proxy.discarded.fromClient}`);
    assert.equal(exit.code, 1, `a exits 1:\n${a.tail()}`);
    const { first, firstOfController } = await takeover(env, cp, b, uaB);
    env.note(`b took the Lease ${Date.parse(first.requestReceivedTimestamp ?? '') - blockedAt} ms after the partition; its first write: ${describeWrite(firstOfController)}`);
    proxy.heal();
    await assertNothingLost(env, cp, uaA, first);
    env.note(`bytes of a delivered after the heal: ${proxy.deliveredLate.fromClient}`);
    assert.equal(proxy.deliveredLate.fromClient, 0, 'nothing a sent before the partition reached the server after it');
  });
});
