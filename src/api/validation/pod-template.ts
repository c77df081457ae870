// The pod template's PodSpec: a documented subset of core ValidatePodSpec, which upstream applies to
// StatefulSet templates since PR #131790 (claim-template volumes are added first, so a template volume
// named like a claim is replaced, not duplicated).
//
// Checked: containers required; container and init-container names (required, DNS-1123 label, unique across
// both lists); image (required, no surrounding whitespace); imagePullPolicy (required, supported values);
// ports (containerPort 1–65535, protocol required and supported); resources.requests/limits quantities
// (syntax, non-negative); volume names (required, DNS-1123 label, unique). restartPolicy and
// activeDeadlineSeconds are StatefulSet rules (statefulset.ts).
// Not checked (left to the pod's own validation at creation): volume sources, volumeMounts and their
// references, env, probes, resource names and requests ≤ limits, security contexts, affinity, tolerations,
// DNS and everything else.

import { child, duplicate, index, invalid, notSupported, required, type IssueList } from './field.js';
import { isAbsent, isEmptyString, type JsonObject } from './json.js';
import { isDNS1123Label } from './names.js';
import { validateResourceList } from './quantity.js';
import { arrayAt, int32At, objectAt, stringAt } from './values.js';

export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;

/** A name that must be a unique DNS-1123 label: Required, Invalid or Duplicate at `path`. */
function validateUniqueName(value: unknown, path: string, names: Set<string>, out: IssueList): void {
  const name = stringAt(value, path, out);
  if (isEmptyString(value)) return out.add(required(path));
  if (name === undefined) return;
  for (const msg of isDNS1123Label(name)) out.add(invalid(path, name, msg));
  if (names.has(name)) out.add(duplicate(path, name));
  else names.add(name);
}

function validateEnum(value: unknown, path: string, supported: readonly string[], out: IssueList): void {
  const s = stringAt(value, path, out);
  if (isEmptyString(value)) out.add(required(path));
  else if (s !== undefined && !supported.includes(s)) out.add(notSupported(path, s, supported));
}

// upstream: core/validation validateContainerPorts (subset)
function validatePorts(value: unknown, path: string, out: IssueList): void {
  const ports = arrayAt(value, path, out) ?? [];
  for (let i = 0; i < ports.length && !out.full; i++) {
    const portPath = index(path, i);
    const port = objectAt(ports[i], portPath, out);
    if (!port) continue;
    const n = int32At(port.containerPort, child(portPath, 'containerPort'), out);
    if (isAbsent(port.containerPort) || n === 0) out.add(required(child(portPath, 'containerPort')));
    else if (n !== undefined && (n < 1 || n > 65535)) {
      out.add(invalid(child(portPath, 'containerPort'), n, 'must be between 1 and 65535, inclusive'));
    }
    validateEnum(port.protocol, child(portPath, 'protocol'), PORT_PROTOCOLS, out);
  }
}

// upstream: core/validation validateContainerCommon (subset)
function validateContainer(value: unknown, path: string, names: Set<string>, out: IssueList): void {
  const c = objectAt(value, path, out);
  if (!c) return;
  validateUniqueName(c.name, child(path, 'name'), names, out);
  const image = stringAt(c.image, child(path, 'image'), out);
  if (isEmptyString(c.image)) out.add(required(child(path, 'image')));
  else if (image !== undefined && image.trim() !== image) {
    out.add(invalid(child(path, 'image'), image, 'must not have leading or trailing whitespace'));
  }
  validateEnum(c.imagePullPolicy, child(path, 'imagePullPolicy'), PULL_POLICIES, out);
  validatePorts(c.ports, child(path, 'ports'), out);
  const resources = objectAt(c.resources, child(path, 'resources'), out);
  for (const list of ['requests', 'limits']) validateResourceList(resources?.[list], child(path, 'resources', list), out);
}

function validateContainers(value: unknown, path: string, names: Set<string>, out: IssueList): number {
  const list = arrayAt(value, path, out) ?? [];
  for (let i = 0; i < list.length && !out.full; i++) validateContainer(list[i], index(path, i), names, out);
  return list.length;
}

// upstream: core/validation ValidateVolumes (names only)
function validateVolumes(value: unknown, path: string, claims: Set<string>, out: IssueList): void {
  const volumes = arrayAt(value, path, out) ?? [];
  const names = new Set<string>(claims);
  for (let i = 0; i < volumes.length && !out.full; i++) {
    const volume = objectAt(volumes[i], index(path, i), out);
    if (!volume || (typeof volume.name === 'string' && claims.has(volume.name))) continue;
    validateUniqueName(volume.name, child(index(path, i), 'name'), names, out);
  }
}

/** The pod-spec subset for `spec.template.spec`; `claims` are the volumeClaimTemplates' names. */
// upstream: core/validation ValidatePodSpec (subset)
export function validatePodSpec(spec: JsonObject, claims: Set<string>, out: IssueList): void {
  const path = 'spec.template.spec';
  validateVolumes(spec.volumes, child(path, 'volumes'), claims, out);
  const names = new Set<string>();
  const count = validateContainers(spec.containers, child(path, 'containers'), names, out);
  if (count === 0 && (isAbsent(spec.containers) || Array.isArray(spec.containers))) out.add(required(child(path, 'containers')));
  validateContainers(spec.initContainers, child(path, 'initContainers'), names, out);
}
