// Owner references as the executor writes them: a controller reference to the set for adoption, and
// JSON merge patches that replace the whole `ownerReferences` list (merge patch cannot edit list items).

import { apiVersionOf, type Resource } from '../api/client.js';
import type { KubeObject, OwnerReference, StatefulSet } from '../api/types.js';

/** The controller reference a set puts on what it owns (blockOwnerDeletion, as upstream). */
// upstream: apimachinery/pkg/apis/meta/v1/controller_ref.go NewControllerRef
export function controllerRefFor(set: StatefulSet, resource: Resource): OwnerReference {
  return {
    apiVersion: apiVersionOf(resource),
    kind: resource.kind,
    name: set.metadata.name ?? '',
    uid: set.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A merge patch that makes `set` the controller of `obj`; `uid` makes it fail on a recreated object. */
// upstream: pkg/controller/controller_ref_manager.go AdoptPod (ownerRefControllerPatch)
export function adoptPatch(obj: KubeObject, set: StatefulSet, resource: Resource): unknown {
  const others = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid);
  return { metadata: { ownerReferences: [...others, controllerRefFor(set, resource)], uid: obj.metadata.uid } };
}

/** A merge patch that removes `set`'s references from `obj` (null deletes an emptied list). */
// upstream: pkg/controller/controller_ref_manager.go ReleasePod (GenerateDeleteOwnerRefStrategicMergeBytes)
export function releasePatch(obj: KubeObject, set: StatefulSet): unknown {
  const rest = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid);
  return { metadata: { ownerReferences: rest.length > 0 ? rest : null, uid: obj.metadata.uid } };
}
