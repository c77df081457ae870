// Fixtures for the memory-cluster and kubelet tests.

import { Resources, type WatchEvent } from '../../src/api/client.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { ControllerRevision, KubeObject, Pod, StatefulSet } from '../../src/api/types.js';
import { createMemoryCluster, type MemoryCluster, type MemoryClusterOptions } from '../../src/cluster/memory/index.js';
import { createTestClock, type TestClock } from './fake-timers.js';

export interface Env {
  clock: TestClock;
  cluster: MemoryCluster;
}

export function newEnv(opts: Partial<MemoryClusterOptions> = {}): Env {
  const clock = createTestClock();
  const cluster = createMemoryCluster({ timers: clock, features: defaultFeatures(), ...opts });
  return { clock, cluster };
}

export const CR = Resources.controllerRevisions;

export function revision(name: string, meta: Partial<KubeObject['metadata']> = {}): ControllerRevision {
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'default', ...meta }, data: {}, revision: 1 };
}

export function pod(name: string, opts: { nodeName?: string; image?: string; grace?: number; labels?: Record<string, string> } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      containers: [{ name: 'app', image: opts.image ?? 'nginx:1.27' }],
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      ...(opts.grace !== undefined ? { terminationGracePeriodSeconds: opts.grace } : {}),
    },
  };
}

export function statefulSet(name: string, spec: Partial<StatefulSet['spec']> = {}, apiVersion = 'apps/v1'): StatefulSet {
  return {
    apiVersion,
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
      ...spec,
    },
  };
}

/** Collects a watch's events and its close. */
export function recorder<T extends KubeObject = KubeObject>() {
  const events: WatchEvent<T>[] = [];
  const state: { closed: boolean; error: Error | undefined } = { closed: false, error: undefined };
  return {
    events,
    state,
    handlers: {
      onEvent: (e: WatchEvent<T>) => events.push(e),
      onClose: (e?: Error) => {
        state.closed = true;
        state.error = e;
      },
    },
    summary: () => events.map((e) => `${e.type} ${e.object.metadata.name}`),
  };
}
