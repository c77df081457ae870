// The objects in a manifest file, as `kubectl apply -f` reads them: YAML (one or many `---` documents) or
// JSON, `kind: List` items unrolled, plus the StatefulSets a simulator Scenario creates or applies.

import { readFileSync } from 'node:fs';
import { loadYamlDocuments, YamlError } from '../../api/yaml-loader.js';

export interface ManifestObject {
  /** Where it is in the file: `document 2`, `document 1, items[3]`, `objects[0]`, `steps[4].apply`. */
  where: string;
  value: unknown;
}

export interface ManifestDocs {
  objects: ManifestObject[];
  /** A YAML error as `LINE:COL: message` (the file is then not validated at all). */
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
  let values: unknown[];
  try {
    values = loadYamlDocuments(text);
  } catch (e) {
    if (!(e instanceof YamlError)) throw e;
    return { objects: [], errors: [e.message] };
  }
  const objects = values.flatMap((value, i) => (value === null || value === undefined ? [] : unroll(value, `document ${i + 1}`)));
  return { objects, errors: [] };
}

/** Thrown by readManifestFile: the file cannot be read or is not acceptable YAML; the message says which. */
export class ManifestFileError extends Error {
  override name = 'ManifestFileError';
}

/** `-` names standard input, as in `kubectl apply -f -`. */
export const STDIN = '-';

/** How messages name the file: `stdin` for `-`. */
export const sourceName = (file: string): string => (file === STDIN ? 'stdin' : file);

/** The file's text; `-` is standard input. */
export function readManifestText(file: string): string {
  try {
    return readFileSync(file === STDIN ? 0 : file, 'utf8');
  } catch (e) {
    throw new ManifestFileError(`${sourceName(file)}: cannot read ${file === STDIN ? 'standard input' : 'file'}: ${(e as Error).message}`);
  }
}

/** The documents of a file's text as `kubectl apply -f` takes them, `kind: List` unrolled (a Scenario is one document). */
export function manifestDocuments(text: string, file: string): unknown[] {
  try {
    return loadYamlDocuments(text).flatMap((d) => (isObject(d) && d.kind === 'List' && Array.isArray(d.items) ? d.items : d === null || d === undefined ? [] : [d]));
  } catch (e) {
    if (e instanceof YamlError) throw new ManifestFileError(`${sourceName(file)}:${e.message}`);
    throw e;
  }
}

/** The documents of a file (`-`: standard input), as manifestDocuments reads them. */
export function readManifestFile(file: string): unknown[] {
  return manifestDocuments(readManifestText(file), file);
}
