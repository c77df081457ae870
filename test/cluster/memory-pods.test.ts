// Pod registry rules of the in-memory API server: defaulting, immutable spec, and Binding.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import { isConflict, isInvalid } from '../../src/api/errors.js';
import type { Pod } from '../../src/api/types.js';
import { BINDINGS } from '../../src/cluster/kubelet/index.js';
import { newEnv, pod } from './helpers.js';

const binding = (name: string, node: string, uid?: string) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name, namespace: 'default', ...(uid ? { uid } : {}) },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

describe('memory cluster pods', () => {
  it('defaults the pod spec on create and starts it Pending with generation 1', async () => {
    const { cluster } = newEnv();
    const p = await cluster.create<Pod>(Resources.pods, pod('p'));
    assert.equal(p.spec.restartPolicy, 'Always');
    assert.equal(p.spec.terminationGracePeriodSeconds, 30);
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.metadata.generation, 1);
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
