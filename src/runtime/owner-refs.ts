// Owner references as the executor writes them: a controller reference to the set for adoption, and
// JSON merge patches that replace the whole `ownerReferences` list (merge patch cannot edit list items).

import { controllerRefTo } from '../api/controller-ref.js';
import type { KubeObject, StatefulSet } from '../api/types.js';

/** A merge patch that makes `set` the controller of `obj`; `uid` makes it fail on a recreated object. */
// upstream: pkg/controller/controller_ref_manager.go AdoptPod (ownerRefControllerPatch)
export function adoptPatch(obj: KubeObject, set: StatefulSet): unknown {
  const others = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid);
  return { metadata: { ownerReferences: [...others, controllerRefTo(set)], uid: obj.metadata.uid } };
}

/** A merge patch that removes `set`'s references from `obj` (null deletes an emptied list). */
// upstream: pkg/controller/controller_ref_manager.go ReleasePod (GenerateDeleteOwnerRefStrategicMergeBytes)
export function releasePatch(obj: KubeObject, set: StatefulSet): unknown {
  const rest = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid);
  return { metadata: { ownerReferences: rest.length > 0 ? rest : null, uid: obj.metadata.uid } };
}
