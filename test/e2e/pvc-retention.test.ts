// persistentVolumeClaimRetentionPolicy on a real kube-apiserver, with kube-controller-manager's garbage
// collector (and its PVC-protection controller, which lifts the kubernetes.io/pvc-protection finalizer)
// doing the deleting: Ordinal only sets owner references. Claims stay
// Pending (no provisioner); the simulated kubelet runs the pods regardless.
import { after as afterAll, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { PersistentVolumeClaim, StatefulSet } from '../../src/api/types.js';
import { baseSet } from '../deploy/crd-cases.js';
import { closeSession, ensureCrd, openSession } from './cluster-session.js';
import { controlPlaneFromEnv } from './control-plane.js';
import { e2eTest, type TestEnv } from './harness.js';
import { startIsolatedKcm, type KcmInstance } from './isolated-kcm.js';
import { pause, waitUntil } from './wait.js';

let kcm: KcmInstance | undefined;

before(async () => {
  const cp = controlPlaneFromEnv();
  if (!('kubeconfigPath' in cp)) return; // each test then skips, or fails under CI
  await ensureCrd(openSession(cp).client); // the garbage collector must know the kind before it starts
  kcm = await startIsolatedKcm(cp, ['garbage-collector-controller', 'persistentvolumeclaim-protection-controller']);
}, { timeout: 120_000 });

afterAll(async () => {
  await kcm?.stop();
  closeSession();
});

type Policy = { whenDeleted: 'Retain' | 'Delete'; whenScaled: 'Retain' | 'Delete' };

function withClaims(env: TestEnv, replicas: number, policy: Policy): StatefulSet {
  const s = structuredClone(baseSet(env.ns, 'web'));
  s.spec.replicas = replicas;
  s.spec.persistentVolumeClaimRetentionPolicy = policy;
  s.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  s.spec.template.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }];
  return s;
}

async function claims(env: TestEnv): Promise<PersistentVolumeClaim[]> {
  return (await env.client.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, env.ns)).items;
}

/** Waits until the namespace holds exactly these claims (terminating ones count as gone). */
function waitClaims(env: TestEnv, want: string[], timeoutMs: number): Promise<number> {
  return waitUntil(`claims ${want.join(', ') || '(none)'} in ${env.ns}`, timeoutMs, async () => {
    const have = (await claims(env)).filter((c) => !c.metadata.deletionTimestamp).map((c) => c.metadata.name ?? '').sort();
    return JSON.stringify(have) === JSON.stringify(want) || `have ${have.join(', ') || '(none)'}`;
  }, 500);
}

/** Waits until claims are removed from the API (the finalizer lifted), not just marked for deletion. */
function waitClaimsRemoved(env: TestEnv, names: string[], timeoutMs: number): Promise<number> {
  return waitUntil(`claims ${names.join(', ')} to be removed`, timeoutMs, async () => {
    const left = (await claims(env)).filter((c) => names.includes(c.metadata.name ?? '')).map((c) => c.metadata.name);
    return left.length === 0 || `still there: ${left.join(', ')}`;
  }, 500);
}

async function deleteSet(env: TestEnv): Promise<void> {
  await env.client.delete(env.res, env.ns, 'web', { propagationPolicy: 'Background' });
  await env.observer.waitFor('the set and its pods to be gone', 60_000, () => env.observer.set('web') === undefined && env.observer.podsOf('web').length === 0);
}

const kubelet = { podStartSeconds: 1, podTerminationSeconds: 1 };

describe('PVC retention with the garbage collector of kube-controller-manager', () => {
  e2eTest('whenScaled: Delete removes the claims of condemned ordinals; whenDeleted: Retain keeps the rest', {
    timeout: 150_000,
    kubelet,
  }, async (env) => {
    await env.createConverged(withClaims(env, 3, { whenDeleted: 'Retain', whenScaled: 'Delete' }));
    await waitClaims(env, ['data-web-0', 'data-web-1', 'data-web-2'], 10_000);
    await env.patch('web', { spec: { replicas: 1 } });
    await env.waitConverged('web', 60_000);
    await waitClaimsRemoved(env, ['data-web-1', 'data-web-2'], 60_000);
    await waitClaims(env, ['data-web-0'], 1000);

    await deleteSet(env);
    await pause(3000); // give the garbage collector time to (wrongly) act
    await waitClaims(env, ['data-web-0'], 1000);
    const kept = (await claims(env))[0]!;
    assert.equal(kept.metadata.ownerReferences?.length ?? 0, 0, `a retained claim has no owner: ${JSON.stringify(kept.metadata.ownerReferences)}`);
  });

  e2eTest('whenDeleted: Delete removes every claim with the set, a removed template\'s too; whenScaled: Retain keeps them on scale-down', {
    timeout: 150_000,
    kubelet,
  }, async (env) => {
    // InPlace, with a second template `wal` that is removed before the set is deleted
    const set = withClaims(env, 2, { whenDeleted: 'Delete', whenScaled: 'Retain' });
    set.spec.volumeClaimUpdatePolicy = 'InPlace';
    set.spec.volumeClaimTemplates?.push({ metadata: { name: 'wal' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    await env.createConverged(set);
    await env.patch('web', { spec: { replicas: 1 } });
    await env.waitConverged('web', 60_000);
    await pause(3000);
    await waitClaims(env, ['data-web-0', 'data-web-1', 'wal-web-0', 'wal-web-1'], 1000);
    await env.modify('web', (s) => void s.spec.volumeClaimTemplates?.pop());
    await env.waitConverged('web', 60_000);
    await waitClaims(env, ['data-web-0', 'data-web-1', 'wal-web-0', 'wal-web-1'], 1000);

    await deleteSet(env);
    await waitClaimsRemoved(env, ['data-web-0', 'data-web-1', 'wal-web-0', 'wal-web-1'], 60_000);
  });
});
