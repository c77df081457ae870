// Contract cases of in-place resize (KEP-1287) as kube-apiserver 1.37 admits it: a container's cpu and memory
// change only through the pods/resize subresource, which keeps the QoS class, never removes a request or
// limit, changes nothing else, and fits the node's allocatable. (Images change through the pod itself:
// contract-cases.ts.)

import assert from 'node:assert/strict';
import { Resources, type JsonPatchOperation } from '../api/client.js';
import { isForbidden, isInvalid } from '../api/errors.js';
import type { KubeObject, Pod } from '../api/types.js';
import type { ContractHarness } from './contract-cases.js';

const containerAt = (i: number, field: string): string => `/spec/containers/${i}/${field}`;
const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };

/** A node named for the case's namespace with `allocatable` (cluster-scoped, so the name keeps cases apart). */
async function nodeWith(h: ContractHarness, allocatable: Record<string, string>): Promise<string> {
  const name = `${h.namespace}-node`;
  const node = await h.client.create<KubeObject>(Resources.nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name } });
  await h.client.updateStatus(Resources.nodes, { ...node, status: { allocatable } });
  return name;
}

async function boundPod(h: ContractHarness, name: string, nodeName: string): Promise<Pod> {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: h.namespace, labels: { app: 'resize' } },
    spec: { nodeName, containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: burstable }], terminationGracePeriodSeconds: 20 },
  };
  return h.client.create<Pod>(Resources.pods, pod);
}

const refusedWith = (check: (e: unknown) => boolean, text: RegExp) => (e: unknown) => (check(e) && text.test(String(e))) || assert.fail(`unexpected ${String(e)}`);

export const resizeCases = {
  'cpu and memory change only through pods/resize, which keeps the QoS class, removes nothing, changes nothing else, and must fit the node': {
    async test(h: ContractHarness) {
      const nodeName = await nodeWith(h, { cpu: '4', memory: '8Gi' });
      try {
        await boundPod(h, 'resize', nodeName);
        // through the pod itself, resources are immutable
        const direct = [{ op: 'replace' as const, path: `${containerAt(0, 'resources')}/requests/cpu`, value: '150m' }];
        await assert.rejects(h.client.jsonPatch(Resources.pods, h.namespace, 'resize', direct), refusedWith(isInvalid, /spec: Forbidden: pod updates may not change fields other than/));
        const resize = (value: unknown, extra: JsonPatchOperation[] = []) =>
          h.client.jsonPatch<Pod>(Resources.pods, h.namespace, 'resize', [...extra, { op: 'replace', path: containerAt(0, 'resources'), value }], { subresource: 'resize' });
        // the image in the same request, and labels, are not the resize's to change
        const grown = await resize({ requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } }, [
          { op: 'replace', path: containerAt(0, 'image'), value: 'registry.k8s.io/pause:3.9' },
          { op: 'add', path: '/metadata/labels/resized', value: 'yes' },
        ]);
        const c = grown.spec.containers[0];
        assert.deepEqual([c?.['resources'], c?.image, grown.metadata.labels, grown.metadata.generation], [
          { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '300m', memory: '128Mi' } },
          'registry.k8s.io/pause:3.10',
          { app: 'resize' },
          2,
        ]);
        const guaranteed = { requests: { cpu: '300m', memory: '128Mi' }, limits: { cpu: '300m', memory: '128Mi' } };
        await assert.rejects(resize(guaranteed), refusedWith(isInvalid, /spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing/));
        await assert.rejects(resize({ requests: { cpu: '150m', memory: '64Mi' }, limits: { memory: '128Mi' } }), refusedWith(isInvalid, /spec\.containers\[0\]\.resources\.limits: Forbidden: resource limits cannot be removed/));
        const storage = { requests: { cpu: '150m', memory: '64Mi', 'ephemeral-storage': '1Gi' }, limits: { cpu: '300m', memory: '128Mi' } };
        await assert.rejects(resize(storage), refusedWith(isInvalid, /spec: Forbidden: only cpu and memory resources are mutable/));
        const huge = { requests: { cpu: '8', memory: '64Mi' }, limits: { cpu: '9', memory: '128Mi' } };
        await assert.rejects(resize(huge), refusedWith(isForbidden, /pods "resize" is forbidden: node didn't have enough allocatable resources: cpu, requested: 8000, allocatable: 4000/));
      } finally {
        await h.client.delete(Resources.nodes, undefined, nodeName);
      }
    },
  },
};
