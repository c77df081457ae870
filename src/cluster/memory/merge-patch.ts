// JSON merge patch (RFC 7386): objects merge recursively, `null` removes a key, anything else replaces.

import { cloneJson } from '../../api/validation/json.js';

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns a new value; neither argument is mutated. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return cloneJson(patch);
  const out: Record<string, Json> = isObject(target) ? cloneJson(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}
