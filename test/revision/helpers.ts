// Shared builders for the revision tests: a defaulted-looking StatefulSet and a tiny in-memory revision
// store that applies planRevisions/planHistoryTruncation actions the way the executor would.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Action } from '../../src/controller/model/plan-types.js';
import type { ControllerRevision, Pod, StatefulSet } from '../../src/api/types.js';

const here = dirname(fileURLToPath(import.meta.url));

export function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(here, 'fixtures', name), 'utf8')) as T;
}

export interface SetOptions {
  name?: string;
  uid?: string;
  revisionHistoryLimit?: number;
  currentRevision?: string;
  collisionCount?: number;
}

export function newSet(image: string, opts: SetOptions = {}): StatefulSet {
  const set: StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: opts.name ?? 'web', namespace: 'default', uid: opts.uid ?? 'set-uid', generation: 1 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      serviceName: 'web',
      podManagementPolicy: 'OrderedReady',
      revisionHistoryLimit: opts.revisionHistoryLimit ?? 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ name: 'web', image, imagePullPolicy: 'IfNotPresent', resources: {} }],
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
        },
      },
    },
    status: { replicas: 0 },
  };
  if (opts.currentRevision !== undefined && set.status) set.status.currentRevision = opts.currentRevision;
  if (opts.collisionCount !== undefined && set.status) set.status.collisionCount = opts.collisionCount;
  return set;
}

export function podWithRevision(name: string, revision: string): Pod {
  return {
    metadata: { name, namespace: 'default', labels: { app: 'web', 'controller-revision-hash': revision } },
    spec: { containers: [{ name: 'web' }] },
  };
}

/** Applies revision actions to `store` (keyed by name), as the executor would on success. */
export function applyRevisionActions(store: Map<string, ControllerRevision>, actions: Action[], at: string): void {
  for (const a of actions) {
    if (a.kind === 'createRevision') {
      const created = structuredClone(a.revision);
      created.metadata.creationTimestamp = at;
      store.set(created.metadata.name ?? '', created);
    } else if (a.kind === 'updateRevision') {
      store.set(a.revision.metadata.name ?? '', structuredClone(a.revision));
    } else if (a.kind === 'deleteRevision') {
      store.delete(a.name);
    } else {
      throw new Error(`unexpected action ${a.kind}`);
    }
  }
}

export const names = (revs: ControllerRevision[]): string[] => revs.map((r) => r.metadata.name ?? '');
