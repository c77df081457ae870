// A StatefulSet's controller reference: the one way to build it (on the pods, claims and revisions it
// makes or adopts) and the one way to read an object's controller.

import { APPS_V1, type KubeObject, type OwnerReference, type StatefulSet } from './types.js';

/** The controller reference `set` puts on what it owns: its own apiVersion and kind (native apps/v1 or the CRD). */
// upstream: apimachinery/pkg/apis/meta/v1/controller_ref.go NewControllerRef
export function controllerRefTo(set: StatefulSet): OwnerReference {
  return {
    apiVersion: set.apiVersion || APPS_V1,
    kind: set.kind || 'StatefulSet',
    name: set.metadata.name ?? '',
    uid: set.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The controller reference of an object (the owner with `controller: true`), if any. */
// upstream: apimachinery/pkg/apis/meta/v1/controller_ref.go GetControllerOf
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** Whose the object is for `set`: its own, nobody's (an adoption candidate), or another controller's. */
export function ownershipOf(obj: KubeObject, set: StatefulSet): 'ours' | 'orphan' | 'other' {
  const ref = controllerRefOf(obj);
  if (ref === undefined) return 'orphan';
  return ref.uid === set.metadata.uid ? 'ours' : 'other';
}
