// spec.volumeClaimTemplates on create (upstream validates them since PR #132212 and skips them on update):
// a subset of PersistentVolumeClaimSpec validation. Checked: template name (a DNS-1123 label, because it
// becomes a pod volume name), accessModes (required, supported values) and resources.requests.storage
// (required). Not checked: quantities, dataSource(Ref), selector, storageClassName, volumeAttributesClass.

import { child, index, invalid, key, notSupported, required, type IssueList } from './field.js';
import { isAbsent, isEmptyString } from './json.js';
import { isDNS1123Label } from './names.js';
import { arrayAt, asObject, objectAt, stringAt } from './values.js';

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

// upstream: core/validation ValidatePersistentVolumeClaimSpec (subset)
function validateClaimTemplate(value: unknown, path: string, out: IssueList): void {
  const claim = objectAt(value, path, out);
  if (!claim) return;
  const meta = objectAt(claim.metadata, child(path, 'metadata'), out) ?? {};
  const name = stringAt(meta.name, child(path, 'metadata', 'name'), out);
  if (isEmptyString(meta.name)) out.add(required(child(path, 'metadata', 'name')));
  else if (name) for (const msg of isDNS1123Label(name)) out.add(invalid(child(path, 'metadata', 'name'), name, msg));
  const specPath = child(path, 'spec');
  const spec = objectAt(claim.spec, specPath, out) ?? {};
  validateAccessModes(spec.accessModes, child(specPath, 'accessModes'), out);
  const resources = objectAt(spec.resources, child(specPath, 'resources'), out) ?? {};
  const requests = objectAt(resources.requests, child(specPath, 'resources', 'requests'), out) ?? {};
  if (isAbsent(requests.storage)) out.add(required(key(child(specPath, 'resources'), 'storage')));
}

// upstream: apps/validation ValidateVolumeClaimTemplates
export function validateClaimTemplates(value: unknown, out: IssueList): void {
  const claims = arrayAt(value, PATH, out);
  for (let i = 0; claims && i < claims.length && !out.full; i++) validateClaimTemplate(claims[i], index(PATH, i), out);
}
