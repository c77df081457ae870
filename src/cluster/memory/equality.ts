// Structural equality of JSON-shaped values, ignoring key order and keys whose value is undefined,
// the way two encodings of one stored object compare.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && jsonEqual(ra[k], rb[k]));
}

/** Equal apart from metadata.resourceVersion: an update that changes nothing else is not written. */
export function sameStoredObject(a: { metadata: object }, b: { metadata: object }): boolean {
  const strip = (o: { metadata: object }) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return jsonEqual(strip(a), strip(b));
}
