// The /scale subresource of StatefulSets (autoscaling/v1 Scale), as `kubectl scale` and the HPA use it.

import type { Resource } from '../../api/client.js';
import { selectorToString } from '../../api/labels.js';
import type { StatefulSet } from '../../api/types.js';
import type { WriteMode } from './admission.js';
import { noSubresource, staleConflict } from './messages.js';
import type { ApiServer } from './server.js';
import { isStatefulSetResource } from './statefulset-admission.js';
import type { Scale } from './memory-types.js';

// upstream: pkg/registry/apps/statefulset/storage/storage.go scaleFromStatefulSet
export function toScale(set: StatefulSet): Scale {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = set.metadata;
  const status: NonNullable<Scale['status']> = { replicas: set.status?.replicas ?? 0 };
  if (set.spec.selector) status.selector = selectorToString(set.spec.selector);
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: set.spec.replicas ?? 1 },
    status,
  };
}

export function getScale(server: ApiServer, res: Resource, namespace: string, name: string): Scale {
  if (!isStatefulSetResource(res)) throw noSubresource(res, 'scale');
  return toScale(server.get(res, namespace, name) as StatefulSet);
}

/** Writes spec.replicas through the main resource's update strategy and validation. */
export function updateScale(server: ApiServer, actor: string, res: Resource, namespace: string, name: string, scale: Scale): Scale {
  if (!isStatefulSetResource(res)) throw noSubresource(res, 'scale');
  const set = server.get(res, namespace, name) as StatefulSet;
  const rv = scale.metadata?.resourceVersion;
  if (rv && rv !== set.metadata.resourceVersion) throw staleConflict(res, name);
  const mode: WriteMode = 'main';
  const next: StatefulSet = { ...set, spec: { ...set.spec, replicas: scale.spec?.replicas } };
  return toScale(server.replace(actor, 'update', res, next, mode) as StatefulSet);
}
