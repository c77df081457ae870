// One KubeClient per test process against the control plane of control-plane.ts, the CRD installed once,
// and throwaway namespaces and nodes. Other test files run against the same API server at the same
// time, so everything here is idempotent and named uniquely (pid + counter).
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { Resources, type Resource } from '../../src/api/client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/api/errors.js';
import type { KubeObject } from '../../src/api/types.js';
import { createKubeClient, type KubeClient } from '../../src/cluster/kube/index.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import type { ControlPlane } from './control-plane.js';
import { pause, waitUntil } from './wait.js';

export const CRDS: Resource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};

const CRD_FILE = new URL('../../deploy/crd.yaml', import.meta.url);

export interface Session {
  cp: ControlPlane;
  client: KubeClient;
}

let session: Session | undefined;
let crdInstalled: Promise<void> | undefined;
let seq = 0;
const RUN = `${process.pid.toString(36)}${(Date.now() % 46656).toString(36)}`;

/** The process-wide client (no client-side rate limit: the tests are the only load). */
export function openSession(cp: ControlPlane): Session {
  if (session?.cp.kubeconfigPath === cp.kubeconfigPath) return session;
  session?.client.close();
  session = { cp, client: createKubeClient({ kubeconfig: cp.kubeconfigPath, qps: 0, timers: realTimers(), random: Math.random, tuning: { userAgent: 'ordinal-e2e' } }) };
  return session;
}

export function closeSession(): void {
  session?.client.close();
  session = undefined;
  crdInstalled = undefined;
}

/** A name unique across concurrently running test files: `<prefix>-<run>-<n>`, at most 63 characters. */
export function uniqueName(prefix: string): string {
  return `${prefix.slice(0, 40)}-${RUN}-${++seq}`;
}

interface CrdStatus {
  status?: { conditions?: { type: string; status: string }[] };
}

/** Creates or replaces deploy/crd.yaml's CRD and waits until its resource is served. Never deleted. */
export function ensureCrd(client: KubeClient): Promise<void> {
  crdInstalled ??= (async () => {
    const crd = parseAllDocuments(readFileSync(CRD_FILE, 'utf8')).map((d) => d.toJS() as KubeObject).find((o) => o.kind === 'CustomResourceDefinition');
    if (!crd) throw new Error('deploy/crd.yaml holds no CustomResourceDefinition');
    await applyObject(client, CRDS, crd);
    await waitUntil('the CRD to be Established', 30_000, async () => {
      const live = await client.get<KubeObject & CrdStatus>(CRDS, undefined, crd.metadata.name ?? '');
      return live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    });
    await waitUntil('apps.ordinal.dev/v1 statefulsets to be served', 30_000, () =>
      client.list(Resources.ordinalStatefulSets, 'default').then(() => true, () => false),
    );
  })();
  crdInstalled.catch(() => (crdInstalled = undefined));
  return crdInstalled;
}

/** Create, or replace keeping the live resourceVersion; retried on the races of concurrent appliers. */
export async function applyObject(client: KubeClient, res: Resource, obj: KubeObject): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const live = await client.get(res, obj.metadata.namespace, obj.metadata.name ?? '');
      await client.update(res, { ...obj, metadata: { ...obj.metadata, resourceVersion: live.metadata.resourceVersion } });
      return;
    } catch (e) {
      if (attempt < 5 && (isConflict(e) || isAlreadyExists(e))) {
        await pause(200);
        continue;
      }
      if (!isNotFound(e)) throw e;
    }
    try {
      await client.create(res, obj);
      return;
    } catch (e) {
      if (!(attempt < 5 && isAlreadyExists(e))) throw e;
    }
  }
}

/** Read-modify-write, retried on conflicts (controllers write the object's status meanwhile). */
export async function modifyObject<T extends KubeObject>(client: KubeClient, res: Resource, ns: string, name: string, change: (obj: T) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const live = await client.get<T>(res, ns, name);
    change(live);
    try {
      return await client.update(res, live);
    } catch (e) {
      if (!isConflict(e) || attempt >= 10) throw e;
    }
  }
}

export async function createNamespace(client: KubeClient, prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  await client.create(Resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'e2e.ordinal.dev/run': RUN } } });
  return name;
}

/**
 * Deletes the namespace's pods at once (no kubelet finishes them any more) and then the namespace; a
 * namespace controller, when one runs, removes the rest.
 */
export async function deleteNamespace(client: KubeClient, name: string): Promise<void> {
  const pods = await client.list(Resources.pods, name).catch(() => ({ items: [] }));
  await Promise.all(
    pods.items.map((p) => client.delete(Resources.pods, name, p.metadata.name ?? '', { gracePeriodSeconds: 0 }).catch(() => undefined)),
  );
  await client.delete(Resources.namespaces, undefined, name).catch(() => undefined);
}
