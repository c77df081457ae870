// Shared builders for the API tests: a minimal valid StatefulSet (raw and defaulted) and helpers that run
// a validator and return upstream-formatted messages, so each table row asserts path, type, value and
// detail at once.

import { defaultStatefulSet } from '../../src/api/defaults.js';
import type { FieldIssue } from '../../src/api/errors.js';
import { defaultFeatures, withFeatures, type Features } from '../../src/api/features.js';
import { APPS_V1, ORDINAL_V1, type StatefulSet } from '../../src/api/types.js';
import { formatIssue, validateStatefulSet } from '../../src/api/validation/index.js';

export const features: Features = defaultFeatures();
export const gates = (overrides: Record<string, boolean>): Features => withFeatures(features, overrides);

/** A minimal, valid, not yet defaulted StatefulSet `web` with one container and one claim template. */
export function rawSet(apiVersion: string = APPS_V1): StatefulSet {
  return {
    apiVersion,
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      serviceName: 'web',
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, name: 'http' }] }] },
      },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
    },
  };
}

/** rawSet after defaulting with all gates on. */
export const validSet = (apiVersion: string = APPS_V1): StatefulSet => defaultStatefulSet(rawSet(apiVersion), features);
export const validOrdinalSet = (): StatefulSet => validSet(ORDINAL_V1);

type Json = unknown;

/** Sets (or, for `undefined`, deletes) the value at a dotted path such as `spec.template.spec.containers.0.name`. */
export function setPath(root: Json, path: string, value: Json): void {
  const parts = path.split('.');
  let node = root as Record<string, Json>;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, Json>;
  }
  const last = parts[parts.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** Reads the value at a dotted path (undefined when any step is missing). */
export function getPath(root: Json, path: string): Json {
  let node = root;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, Json>)[part];
  }
  return node;
}

/** A deep copy of `set` with each `path: value` applied (undefined deletes). */
export function withFields(set: StatefulSet, fields: Record<string, Json>): StatefulSet {
  const copy = structuredClone(set);
  for (const [path, value] of Object.entries(fields)) setPath(copy, path, value);
  return copy;
}

export const messages = (issues: FieldIssue[]): string[] => issues.map(formatIssue);

/** Create-validation messages of `base` with `fields` applied. */
export function createMessages(fields: Record<string, Json>, base: StatefulSet = validSet(), f: Features = features): string[] {
  return messages(validateStatefulSet(withFields(base, fields), f));
}
