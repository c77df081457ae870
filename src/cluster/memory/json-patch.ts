// JSON patch (RFC 6902): a list of operations on JSON pointers (RFC 6901), applied in order; any that cannot
// be applied (a `test` that fails, a path that is not there) rejects the whole patch.

import type { JsonPatchOperation } from '../../api/client.js';
import { cloneJson, deepEqual } from '../../api/validation/json.js';

type Json = unknown;
type JsonObject = { [key: string]: Json };
type Container = JsonObject | Json[];

/** Thrown when an operation cannot be applied; kube-apiserver answers 422 and keeps the reason to itself. */
export class JsonPatchError extends Error {
  override name = 'JsonPatchError';
}

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isContainer = (v: Json): v is Container => isObject(v) || Array.isArray(v);

/** `/spec/containers/0/image` → ['spec', 'containers', '0', 'image'] (with `~1` → `/`, `~0` → `~`). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`not a JSON pointer: "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** An array index: digits without a leading zero, within `max`. */
function index(token: string, max: number, pointer: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) > max) throw new JsonPatchError(`no element ${token} at "${pointer}"`);
  return Number(token);
}

/** The container that holds the pointer's last token, and that token. */
function parentOf(doc: Json, pointer: string): { parent: Container; key: string } {
  const path = tokens(pointer);
  const key = path.pop();
  if (key === undefined) throw new JsonPatchError('the whole document cannot be an operation\'s target');
  let at = doc;
  for (const t of path) {
    if (Array.isArray(at)) at = at[index(t, at.length - 1, pointer)];
    else if (isObject(at) && Object.prototype.hasOwnProperty.call(at, t)) at = at[t];
    else throw new JsonPatchError(`path "${pointer}" does not exist`);
  }
  if (!isContainer(at)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  return { parent: at, key };
}

function get(doc: Json, pointer: string): Json {
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) return parent[index(key, parent.length - 1, pointer)];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  return parent[key];
}

function add(doc: Json, pointer: string, value: Json): void {
  const { parent, key } = parentOf(doc, pointer);
  if (!Array.isArray(parent)) parent[key] = value;
  else if (key === '-') parent.push(value);
  else parent.splice(index(key, parent.length, pointer), 0, value);
}

function remove(doc: Json, pointer: string): Json {
  const value = get(doc, pointer);
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return value;
}

/** Returns the patched copy; `doc` is not mutated. Throws JsonPatchError. */
// upstream: github.com/evanphx/json-patch (what kube-apiserver applies for application/json-patch+json)
export function applyJsonPatch(doc: Json, ops: readonly JsonPatchOperation[]): Json {
  const out = cloneJson(doc);
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        add(out, op.path, cloneJson(op.value));
        break;
      case 'remove':
        remove(out, op.path);
        break;
      case 'replace':
        get(out, op.path);
        remove(out, op.path);
        add(out, op.path, cloneJson(op.value));
        break;
      case 'move':
        add(out, op.path, remove(out, op.from));
        break;
      case 'copy':
        add(out, op.path, cloneJson(get(out, op.from)));
        break;
      case 'test':
        if (!deepEqual(get(out, op.path), op.value)) throw new JsonPatchError(`test failed at "${op.path}"`);
        break;
    }
  }
  return out;
}
