// The pod template's PodSpec: a documented subset of core ValidatePodSpec, which upstream applies to
// StatefulSet templates since PR #131790 (claim-template volumes are added first, so a template volume
// named like a claim is replaced, not duplicated).
//
// Per field: the rule table of template-rules.ts (pod spec, containers and init containers, their ports,
// env, volume mounts and resources, volumes), which the CRD holds as CEL too. Here besides: names unique
// (containers with init containers, volumes), which the CRD cannot check at the item's path.
// Not checked (left to the pod's own validation at creation): volume sources, volumeMount references,
// probes, resource names and requests ≤ limits, security contexts, affinity, tolerations and the rest.
// Image whitespace is a pod rule (validateContainersOnlyForPod), not a template rule: templates keep it.

import { child, duplicate, index, type IssueList } from './field.js';
import { type JsonObject } from './json.js';
import { applyFieldRules, CONTAINER_SCOPE, ENV_SCOPE, POD_SPEC_SCOPE, PORT_SCOPE, VOLUME_MOUNT_SCOPE, VOLUME_SCOPE, type RuleScope } from './template-rules.js';
import { arrayAt, objectAt } from './values.js';

/** Each object of the list at `path` that is an object, with its path (a mistyped item is reported). */
function eachObject(value: unknown, path: string, out: IssueList, fn: (o: JsonObject, path: string) => void): void {
  const list = arrayAt(value, path, out) ?? [];
  for (let i = 0; i < list.length && !out.full; i++) {
    const o = objectAt(list[i], index(path, i), out);
    if (o) fn(o, index(path, i));
  }
}

const applyEach = (scope: RuleScope, value: unknown, path: string, out: IssueList): void =>
  eachObject(value, path, out, (o, at) => applyFieldRules(scope, o, at, out));

/** A name already taken in `names` is a Duplicate at `path`. */
function unique(name: unknown, path: string, names: Set<string>, out: IssueList): void {
  if (typeof name !== 'string' || name === '') return;
  if (names.has(name)) out.add(duplicate(path, name));
  else names.add(name);
}

// upstream: core/validation validateContainerCommon, validateContainerPorts (subset)
function validateContainer(c: JsonObject, path: string, names: Set<string>, out: IssueList): void {
  applyFieldRules(CONTAINER_SCOPE, c, path, out);
  unique(c.name, child(path, 'name'), names, out);
  applyEach(PORT_SCOPE, c.ports, child(path, 'ports'), out);
  applyEach(ENV_SCOPE, c.env, child(path, 'env'), out);
  applyEach(VOLUME_MOUNT_SCOPE, c.volumeMounts, child(path, 'volumeMounts'), out);
  objectAt(c.resources, child(path, 'resources'), out);
}

// upstream: core/validation ValidateVolumes (names only)
function validateVolumes(value: unknown, path: string, claims: Set<string>, out: IssueList): void {
  const names = new Set<string>(claims);
  eachObject(value, path, out, (volume, at) => {
    if (typeof volume.name === 'string' && claims.has(volume.name)) return;
    applyFieldRules(VOLUME_SCOPE, volume, at, out);
    unique(volume.name, child(at, 'name'), names, out);
  });
}

/** The pod-spec subset for `spec.template.spec`; `claims` are the volumeClaimTemplates' names. */
// upstream: core/validation ValidatePodSpec (subset)
export function validatePodSpec(spec: JsonObject, claims: Set<string>, out: IssueList): void {
  const path = 'spec.template.spec';
  validateVolumes(spec.volumes, child(path, 'volumes'), claims, out);
  applyFieldRules(POD_SPEC_SCOPE, spec, path, out);
  const names = new Set<string>();
  for (const list of ['containers', 'initContainers']) {
    eachObject(spec[list], child(path, list), out, (c, at) => validateContainer(c, at, names, out));
  }
}
