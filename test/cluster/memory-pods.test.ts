// Pod registry rules of the in-memory API server: defaulting, immutable spec, and Binding.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { isConflict, isInvalid, isNotFound } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import { BINDINGS } from '../../src/cluster/kubelet/index.js';
import { newEnv, pod } from './helpers.js';

const binding = (name: string, node: string, uid?: string) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name, namespace: 'default', ...(uid ? { uid } : {}) },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

/** A pod `r` with cpu requests and limits (Burstable). */
const sized = (): Pod => ({ ...pod('r'), spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }] } });

describe('memory cluster pods', () => {
  it('defaults the pod spec on create and starts it Pending with generation 1', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p'));
    assert.equal(p.spec.restartPolicy, 'Always');
    assert.equal(p.spec.terminationGracePeriodSeconds, 30);
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.metadata.generation, 1);
  });

  it('reports the QoS class kube-apiserver computes: Guaranteed, Burstable or BestEffort', async () => {
    const { cluster } = newEnv();
    const sized = (name: string, resources: object): Pod => ({ ...pod(name), spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }] } });
    const classes = [
      await cluster.create<Pod>(Resources.pods, sized('g', { limits: { cpu: '1', memory: '1Gi' } })),
      await cluster.create<Pod>(Resources.pods, sized('b', { requests: { cpu: '500m' }, limits: { cpu: '1' } })),
      await cluster.create<Pod>(Resources.pods, pod('e')),
    ].map((p) => p.status?.['qosClass']);
    assert.deepEqual(classes, ['Guaranteed', 'Burstable', 'BestEffort']);
  });

  it('refuses the resize subresource on anything but pods, and a resize through the pod itself', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, sized());
    const resize = { spec: { containers: [{ ...p.spec.containers[0], resources: { requests: { cpu: '150m' }, limits: { cpu: '200m' } } }] } };
    await assert.rejects(cluster.patch(Resources.pods, 'default', 'r', resize), (e: unknown) => isInvalid(e) && /pod updates may not change fields other than/.test(String(e)));
    await cluster.create(Resources.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: {} });
    await assert.rejects(cluster.patch(Resources.services, 'default', 's', {}, { subresource: 'resize' }), (e: unknown) => isNotFound(e) && /could not find the requested resource \(put services resize\)/.test(String(e)));
  });

  it('allows an image change on update and bumps generation', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p'));
    const next = await cluster.update<Pod>(Resources.pods, { ...p, spec: { ...p.spec, containers: [{ ...p.spec.containers[0]!, image: 'nginx:1.28' }] } });
    assert.equal(next.spec.containers[0]?.image, 'nginx:1.28');
    assert.equal(next.metadata.generation, 2);
  });

  it('forbids other pod spec changes on update, including spec.nodeName, with 422 at spec', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p'));
    await assert.rejects(cluster.update(Resources.pods, { ...p, spec: { ...p.spec, nodeName: 'n1' } }), (e: unknown) => {
      assert.ok(isInvalid(e));
      assert.match((e as Error).message, /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than/);
      return true;
    });
  });

  it('a Binding sets spec.nodeName and PodScheduled=True with the binding time', async () => {
    const { clock, cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p'));
    await clock.advance(3_000);
    await cluster.create(BINDINGS, binding('p', 'n1', p.metadata.uid));
    const bound = await cluster.get<Pod>(Resources.pods, 'default', 'p');
    assert.equal(bound.spec.nodeName, 'n1');
    const scheduled = bound.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.deepEqual([scheduled?.status, scheduled?.lastTransitionTime], ['True', '2026-01-01T00:00:03Z']);
  });

  it('refuses a Binding for a pod that is already bound, or with another UID, with 409', async () => {
    const { cluster } = newEnv();
    await cluster.create(Resources.pods, pod('p'));
    await assert.rejects(cluster.create(BINDINGS, binding('p', 'n1', 'other-uid')), isConflict);
    await cluster.create(BINDINGS, binding('p', 'n1'));
    await assert.rejects(cluster.create(BINDINGS, binding('p', 'n2')), /already assigned to node "n1"/);
  });
});
