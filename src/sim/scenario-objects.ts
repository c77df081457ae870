// `objects` and `apply` payloads: resolves each object's API resource from apiVersion + kind, defaults the
// namespace, and checks objects as the API server would under kubectl's strict field validation (unknown
// fields of StatefulSets, StorageClasses and PodDisruptionBudgets, then a StatefulSet's defaulting and validation), so a file with
// an invalid object stops with exit 2 before anything runs.

import { Resources, apiVersionOf, type Resource } from '../api/client.js';
import type { Features } from '../api/features.js';
import type { KubeObject, StatefulSet } from '../api/types.js';
import { defaultStatefulSet } from '../api/defaults.js';
import { knownFieldsSchema, unknownFields, validateStatefulSet } from '../api/validation/index.js';
import { DEFAULT_NAMESPACE, type ScenarioObject } from './scenario-types.js';
import { type Issues, at, describe, objectField, stringField } from './scenario-fields.js';

const CREATABLE: readonly Resource[] = [
  Resources.statefulSets,
  Resources.ordinalStatefulSets,
  Resources.pods,
  Resources.persistentVolumeClaims,
  Resources.storageClasses,
  Resources.services,
  Resources.namespaces,
  Resources.controllerRevisions,
  Resources.podDisruptionBudgets,
  Resources.nodes,
];

export function resourceFor(apiVersion: string, kind: string): Resource | undefined {
  return CREATABLE.find((r) => apiVersionOf(r) === apiVersion && r.kind === kind);
}

export const isStatefulSetResource = (r: Resource): boolean =>
  r === Resources.statefulSets || r === Resources.ordinalStatefulSets;

function supported(): string {
  return CREATABLE.map((r) => `${apiVersionOf(r)} ${r.kind}`).join(', ');
}

/** Checks one object; returns it with its resource and namespace filled in, or undefined. */
export function parseObject(v: unknown, path: string, issues: Issues, features: Features): ScenarioObject | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const apiVersion = stringField(obj['apiVersion'], at(path, 'apiVersion'), issues);
  const kind = stringField(obj['kind'], at(path, 'kind'), issues);
  const metadata = objectField(obj['metadata'], at(path, 'metadata'), issues);
  const name = metadata && stringField(metadata['name'], at(at(path, 'metadata'), 'name'), issues);
  if (!apiVersion || !kind || !metadata || !name) return undefined;
  const resource = resourceFor(apiVersion, kind);
  if (!resource) return issues.add(at(path, 'kind'), `unsupported apiVersion/kind ${apiVersion} ${kind} (supported: ${supported()})`);
  const ns = metadata['namespace'];
  if (ns !== undefined && typeof ns !== 'string') return issues.add(at(at(path, 'metadata'), 'namespace'), `must be a string, got ${describe(ns)}`);
  const object = structuredClone(obj) as KubeObject;
  if (resource.namespaced) object.metadata.namespace = ns ?? DEFAULT_NAMESPACE;
  if (isStatefulSetResource(resource) ? !checkStatefulSet(object, resource, path, issues, features) : !checkFieldsOf(resource, object, path, issues)) return undefined;
  return { resource, object };
}

/**
 * Fields of an object of `resource` (or of a merge patch of one, which has the object's shape) that its schema
 * does not declare (StatefulSets, StorageClasses, PodDisruptionBudgets), each reported at its path with the API server's words; true
 * when there are none.
 */
export function checkFieldsOf(resource: Resource, value: unknown, path: string, issues: Issues): boolean {
  const schema = knownFieldsSchema(resource);
  const unknown = schema === undefined ? [] : unknownFields(value, schema);
  for (const field of unknown) issues.add(`${path}.${field}`, `unknown field ${JSON.stringify(field)}`);
  return unknown.length === 0;
}

function checkStatefulSet(object: KubeObject, resource: Resource, path: string, issues: Issues, features: Features): boolean {
  if (!checkFieldsOf(resource, object, path, issues)) return false;
  if (object['spec'] === undefined) {
    issues.add(at(path, 'spec'), 'required for a StatefulSet');
    return false;
  }
  let found;
  try {
    found = validateStatefulSet(defaultStatefulSet(object as StatefulSet, features), features);
  } catch (e) {
    issues.add(at(path, 'spec'), `cannot be defaulted: ${(e as Error).message}`);
    return false;
  }
  for (const issue of found) issues.add(`${path}.${issue.path}`, `${issue.type}: ${issue.detail}`);
  return found.length === 0;
}
