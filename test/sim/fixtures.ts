// Small builders for simulator unit tests: a StatefulSet and its pods in given states, and a scenario's parse issues.

import assert from 'node:assert/strict';
import type { Pod, StatefulSet } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { ScenarioError } from '../../src/sim/scenario-fields.js';

export const T0 = Date.UTC(2026, 0, 1);

/** The field-pathed issues of a scenario text that does not parse (`path: message` each). */
export function issuesOf(text: string): string[] {
  try {
    parseScenario(text, 'test.yaml');
  } catch (e) {
    assert.ok(e instanceof ScenarioError, String(e));
    return e.issues.map((i) => `${i.path}: ${i.message}`);
  }
  assert.fail('expected a ScenarioError');
}
export const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export function set(opts: Partial<StatefulSet['spec']> & { generation?: number; status?: StatefulSet['status']; name?: string } = {}): StatefulSet {
  const { generation = 1, status, name = 'web', ...spec } = opts;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default', generation, uid: 'set-uid' },
    spec: { replicas: 3, selector: { matchLabels: { app: name } }, template: { spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec },
    ...(status ? { status } : {}),
  };
}

export interface PodOpts {
  revision?: string;
  ready?: boolean;
  readySince?: number;
  phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
  terminating?: boolean;
  node?: string;
  set?: string;
}

export function pod(ordinal: number, o: PodOpts = {}): Pod {
  const setName = o.set ?? 'web';
  const ready = o.ready ?? true;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${setName}-${ordinal}`,
      namespace: 'default',
      uid: `uid-${setName}-${ordinal}`,
      labels: { app: setName, 'controller-revision-hash': o.revision ?? 'web-1' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: setName, uid: 'set-uid', controller: true }],
      ...(o.terminating ? { deletionTimestamp: iso(T0) } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'i' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? (ready ? 'Running' : 'Pending'),
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(o.readySince ?? T0) }],
    },
  };
}

export const convergedStatus = (replicas: number, revision = 'web-1') => ({
  observedGeneration: 1,
  replicas,
  readyReplicas: replicas,
  availableReplicas: replicas,
  currentReplicas: replicas,
  updatedReplicas: replicas,
  currentRevision: revision,
  updateRevision: revision,
});
