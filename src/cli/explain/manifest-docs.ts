// The objects in a manifest file, as `kubectl apply -f` reads them: YAML (one or many `---` documents) or
// JSON, `kind: List` items unrolled, plus the StatefulSets a simulator Scenario creates or applies.

import { parseAllDocuments } from 'yaml';

export interface ManifestObject {
  /** Where it is in the file: `document 2`, `document 1, items[3]`, `objects[0]`, `steps[4].apply`. */
  where: string;
  value: unknown;
}

export interface ManifestDocs {
  objects: ManifestObject[];
  /** YAML syntax errors (the file is then not validated at all). */
  errors: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Scenario's objects and apply steps. */
function scenarioObjects(doc: Record<string, unknown>): ManifestObject[] {
  const objects = Array.isArray(doc.objects) ? doc.objects.map((value, i) => ({ where: `objects[${i}]`, value })) : [];
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  const applies = steps.flatMap((s, i) => (isObject(s) && s.apply !== undefined ? [{ where: `steps[${i}].apply`, value: s.apply }] : []));
  return [...objects, ...applies];
}

function unroll(value: unknown, where: string): ManifestObject[] {
  if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
    return value.items.map((item, i) => ({ where: `${where}, items[${i}]`, value: item }));
  }
  if (isObject(value) && value.kind === 'Scenario') return scenarioObjects(value).map((o) => ({ ...o, where: `${where}, ${o.where}` }));
  return [{ where, value }];
}

export function manifestObjects(text: string): ManifestDocs {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d, i) => d.errors.map((e) => `document ${i + 1}: ${e.message.split('\n')[0] ?? e.message}`));
  if (errors.length > 0) return { objects: [], errors };
  const objects = list.flatMap((d, i) => {
    const value: unknown = d.toJS({ maxAliasCount: 1000 });
    return value === null || value === undefined ? [] : unroll(value, `document ${i + 1}`);
  });
  return { objects, errors: [] };
}
