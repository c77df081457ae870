// Bad input on a real kube-apiserver: what the CRD can check is refused at the
// door with a message that names the object, the field, the offending value and the rule; what it cannot
// (names that must be unique in a list, such as two containers of one name) reaches the running controller, which refuses it with a
// Warning event and an InvalidSpec condition, creates nothing for it, keeps reconciling the other sets,
// and picks the set up once it is fixed. (test/e2e/kube-crd.test.ts and template-contract.test.ts check every
// case's field path.)
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { InvalidError } from '../../src/api/errors.js';
import type { StatefulSet } from '../../src/api/types.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession } from './cluster-session.js';
import { e2eTest, type TestEnv } from './harness.js';
import { pause, waitUntil } from './wait.js';

afterAll(() => closeSession());

const OSTS = Resources.ordinalStatefulSets;

function build(env: TestEnv, name: string, change: (s: StatefulSet) => void = () => {}): StatefulSet {
  const s = structuredClone(baseSet(env.ns, name));
  change(s);
  return s;
}

async function refusal(promise: Promise<unknown>): Promise<InvalidError> {
  const result = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(result instanceof InvalidError, `want 422 Invalid, got ${result === undefined ? 'success' : String(result)}`);
  return result;
}

const ru = (rollingUpdate: object) => (s: StatefulSet) => (s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate });

/** Field path, value and rule, in the API server's `<path>: Invalid value: <value>: <rule>` form. */
const CREATE_MESSAGES: { desc: string; change: (s: StatefulSet) => void; says: RegExp }[] = [
  { desc: 'negative replicas', change: (s) => (s.spec.replicas = -1), says: /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/ },
  { desc: 'maxUnavailable 0', change: ru({ maxUnavailable: 0 }), says: /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: Invalid value: 0: cannot be 0/ },
  { desc: 'maxUnavailable 150%', change: ru({ maxUnavailable: '150%' }), says: /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: Invalid value: "150%": must not be greater than 100%/ },
  {
    desc: 'an unknown update strategy',
    change: (s) => (s.spec.updateStrategy = { type: 'BlueGreen' as 'OnDelete' }),
    says: /spec\.updateStrategy: .*must be 'RollingUpdate', 'OnDelete', 'Recreate' or 'EnforcedRollingUpdate'/,
  },
  {
    desc: 'enforcedRollingUpdate.maxUnavailable 0',
    change: (s) => (s.spec.updateStrategy = { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: 0 } }),
    says: /spec\.updateStrategy\.enforcedRollingUpdate\.maxUnavailable: Invalid value: 0: cannot be 0/,
  },
  {
    desc: 'restartPolicy Never in the pod template',
    change: (s) => (s.spec.template.spec!.restartPolicy = 'Never'),
    says: /spec\.template\.spec\.restartPolicy: Unsupported value: "Never": supported values: "Always"/,
  },
  {
    desc: 'progressDeadlineSeconds not above minReadySeconds',
    change: (s) => Object.assign(s.spec, { minReadySeconds: 10, progressDeadlineSeconds: 5 }),
    says: /spec\.progressDeadlineSeconds: .*must be greater than minReadySeconds/,
  },
];

describe('invalid objects on kube-apiserver', () => {
  e2eTest('the CRD refuses invalid sets with a message naming the object, field, value and rule', {
    timeout: 60_000,
    controller: false,
  }, async (env) => {
    for (const [i, c] of CREATE_MESSAGES.entries()) {
      const err = await refusal(env.client.create(OSTS, build(env, `bad-${i}`, c.change)));
      assert.match(err.message, new RegExp(`^StatefulSet\\.apps\\.ordinal\\.dev "bad-${i}" is invalid: `), c.desc);
      assert.match(err.message, c.says, c.desc);
    }
    const several = await refusal(
      env.client.create(OSTS, build(env, 'several', (s) => Object.assign(s.spec, { replicas: -1, minReadySeconds: -5, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } } }))),
    );
    for (const path of ['spec.replicas', 'spec.minReadySeconds', 'spec.updateStrategy.rollingUpdate.maxUnavailable']) {
      assert.ok(several.message.includes(`${path}: Invalid value`), `one refusal lists every problem, including ${path}: ${several.message}`);
    }
    const list = await env.client.list(OSTS, env.ns);
    assert.equal(list.items.length, 0, 'nothing invalid was stored');
  });

  e2eTest('the CRD refuses changes to immutable fields, naming the field', {
    timeout: 60_000,
    controller: false,
  }, async (env) => {
    const live = await env.client.create(OSTS, build(env, 'web'));
    const moved = structuredClone(live);
    // the labels move too, so that the selector still matches them and immutability is the only issue
    moved.spec.selector = { matchLabels: { app: 'web', tier: 'a' } };
    moved.spec.template.metadata = { ...moved.spec.template.metadata, labels: { app: 'web', tier: 'a' } };
    const err = await refusal(env.client.update(OSTS, moved));
    assert.match(err.message, /^StatefulSet\.apps\.ordinal\.dev "web" is invalid: spec\.selector: .*field is immutable/);
  });

  e2eTest('the controller refuses what the CRD lets through with an event and a condition, and recovers on a fix', {
    timeout: 120_000,
    kubelet: { podStartSeconds: 1, podTerminationSeconds: 1 },
  }, async (env) => {
    const twice = { name: 'app', image: 'nginx:1.27' };
    await env.client.create(OSTS, build(env, 'dup', (s) => (s.spec.template.spec!.containers = [twice, twice])));
    await env.create(build(env, 'good', (s) => (s.spec.replicas = 2)));
    await env.waitForSet('dup', 'an InvalidSpec condition on dup', 30_000, (s) => {
      const c = s.status?.conditions?.find((x) => x.type === 'InvalidSpec');
      return (c?.status === 'True' && (c.message ?? '').includes('spec.template.spec.containers[1].name')) || JSON.stringify(s.status);
    });
    // The event is recorded after the status write, so it may land a moment after the condition.
    await waitUntil('a Warning event on dup naming spec.template.spec.containers[1].name', 10_000, async () => {
      const warnings = (await env.events('dup')).filter((e) => e.type === 'Warning');
      return warnings.some((e) => (e.message ?? '').includes('spec.template.spec.containers[1].name')) || JSON.stringify(warnings);
    });
    await env.waitConverged('good', 60_000);
    await pause(1000);
    assert.equal(env.observer.podsOf('dup').length, 0, 'no pod for the invalid set');
    assert.ok(env.controllers[0]!.isRunning(), 'the controller keeps running');

    await env.modify('dup', (s) => (s.spec.template.spec!.containers = [{ name: 'app', image: 'nginx:1.27' }]));
    await env.waitConverged('dup', 60_000);
    const condition = env.observer.set('dup')!.status!.conditions?.find((x) => x.type === 'InvalidSpec');
    assert.notEqual(condition?.status, 'True', `the InvalidSpec condition is cleared: ${JSON.stringify(condition)}`);
  });
});
