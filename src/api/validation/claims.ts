// spec.volumeClaimTemplates on create (upstream validates them since PR #132212 and skips them on update):
// a subset of PersistentVolumeClaimSpec validation. Checked: template name (a DNS-1123 label, because it
// becomes a pod volume name), accessModes (required, supported values), resources.requests.storage
// (required) and the request and limit quantities. Not checked: dataSource(Ref), selector, storageClassName,
// volumeAttributesClass. The shape (JSON types, a name) is checked on every stored set too, create or not:
// without it the controller cannot build the claims.

import { child, index, invalid, key, notSupported, required, type IssueList } from './field.js';
import { isAbsent, isEmptyString, type JsonObject } from './json.js';
import { isDNS1123Label } from './names.js';
import { validateResourceList } from './quantity.js';
import { arrayAt, asObject, objectAt, stringAt, stringMapAt } from './values.js';

const PATH = 'spec.volumeClaimTemplates';
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;

/** The claim templates' names (pod volumes of the same name are replaced by the claims). */
export function claimNames(value: unknown): Set<string> {
  const names = new Set<string>();
  if (Array.isArray(value)) {
    for (const claim of value) {
      const name = asObject(asObject(claim)?.metadata)?.name;
      if (typeof name === 'string') names.add(name);
    }
  }
  return names;
}

function validateAccessModes(value: unknown, path: string, out: IssueList): void {
  const modes = arrayAt(value, path, out);
  if (!modes && !isAbsent(value)) return;
  if (!modes || modes.length === 0) return out.add(required(path, 'at least 1 access mode is required'));
  for (const mode of modes) {
    if (out.full) return;
    if (typeof mode !== 'string' || !(ACCESS_MODES as readonly string[]).includes(mode)) {
      out.add(notSupported(path, mode, ACCESS_MODES));
    }
  }
}

/** What one template holds once it has been decoded as the API server decodes it. */
interface DecodedTemplate {
  path: string;
  /** undefined: metadata.name is missing, empty or not a string (already reported). */
  name?: string;
  /** undefined: spec is not an object (already reported). */
  spec?: JsonObject;
  /** spec.resources when it is an object (absent reads as {}). */
  resources?: JsonObject;
}

/**
 * Reads one template and reports what no stored set may hold, on create and on update alike: a JSON type
 * the API server's decoder refuses, or no name (every claim and pod volume is named after it). `null` is
 * the zero value, as a Go decoder reads it.
 */
function decodeTemplate(value: unknown, path: string, out: IssueList): DecodedTemplate | undefined {
  const claim = isAbsent(value) ? {} : objectAt(value, path, out);
  if (!claim) return undefined;
  const decoded: DecodedTemplate = { path };
  const metaPath = child(path, 'metadata');
  const meta = isAbsent(claim.metadata) ? {} : objectAt(claim.metadata, metaPath, out);
  if (meta) {
    const namePath = child(metaPath, 'name');
    const name = stringAt(meta.name, namePath, out);
    if (isEmptyString(meta.name)) out.add(required(namePath));
    else if (name !== undefined) decoded.name = name;
    stringMapAt(meta.labels, child(metaPath, 'labels'), out);
    stringMapAt(meta.annotations, child(metaPath, 'annotations'), out);
  }
  const specPath = child(path, 'spec');
  const spec = isAbsent(claim.spec) ? {} : objectAt(claim.spec, specPath, out);
  if (!spec) return decoded;
  decoded.spec = spec;
  arrayAt(spec.accessModes, child(specPath, 'accessModes'), out);
  const resourcesPath = child(specPath, 'resources');
  const resources = isAbsent(spec.resources) ? {} : objectAt(spec.resources, resourcesPath, out);
  if (!resources) return decoded;
  decoded.resources = resources;
  for (const list of ['requests', 'limits']) objectAt(resources[list], child(resourcesPath, list), out);
  return decoded;
}

function decodeTemplates(value: unknown, out: IssueList): DecodedTemplate[] {
  const claims = arrayAt(value, PATH, out);
  const decoded: DecodedTemplate[] = [];
  for (let i = 0; claims && i < claims.length && !out.full; i++) {
    const template = decodeTemplate(claims[i], index(PATH, i), out);
    if (template) decoded.push(template);
  }
  return decoded;
}

// upstream: core/validation ValidatePersistentVolumeClaimSpec (subset)
function validateClaimTemplate(t: DecodedTemplate, out: IssueList): void {
  const namePath = child(t.path, 'metadata', 'name');
  if (t.name !== undefined) for (const msg of isDNS1123Label(t.name)) out.add(invalid(namePath, t.name, msg));
  if (!t.spec) return;
  const specPath = child(t.path, 'spec');
  validateAccessModes(t.spec.accessModes, child(specPath, 'accessModes'), out);
  if (!t.resources) return;
  const requests = asObject(t.resources.requests) ?? {};
  if (isAbsent(requests.storage)) out.add(required(key(child(specPath, 'resources'), 'storage')));
  for (const list of ['requests', 'limits']) validateResourceList(t.resources[list], child(specPath, 'resources', list), out);
}

/** The templates' shape alone: what the controller needs of a stored set (upstream re-validates no template on update). */
export function validateClaimTemplateShapes(value: unknown, out: IssueList): void {
  decodeTemplates(value, out);
}

/** One template added by an update (apps.ordinal.dev/v1, InPlace), validated as on create at its own index. */
export function validateAddedClaimTemplate(value: unknown, path: string, out: IssueList): void {
  const template = decodeTemplate(value, path, out);
  if (template) validateClaimTemplate(template, out);
}

// upstream: apps/validation ValidateVolumeClaimTemplates
export function validateClaimTemplates(value: unknown, out: IssueList): void {
  for (const template of decodeTemplates(value, out)) {
    if (out.full) return;
    validateClaimTemplate(template, out);
  }
}
