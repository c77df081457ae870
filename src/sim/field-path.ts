// The field paths of `--set PATH=VALUE` (simulate on manifests, forecast, forecast --candidate): dotted keys,
// and list elements by position or by a field, as kubectl's and Helm's users write them:
//   spec.updateStrategy.rollingUpdate.maxUnavailable
//   spec.template.spec.containers[name=app].resources.limits.cpu
//   spec.volumeClaimTemplates[0].spec.resources.requests.storage
// `\.` is a dot inside a key (`metadata.annotations.example\.com/owner`). Setting makes the objects on the way;
// a list element must exist (a list is replaced whole: `spec.template.spec.tolerations=[…]`).

export type PathSegment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'match'; field: string; value: string };

/** A path that cannot be read, or cannot be set in this object; the message says how to write it. */
export class FieldPathError extends Error {
  override name = 'FieldPathError';
}

const EXAMPLES = 'spec.template.spec.containers[name=app].image, spec.volumeClaimTemplates[0].spec.resources.requests.storage';

function bracket(path: string, inner: string): PathSegment {
  if (/^\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const eq = inner.indexOf('=');
  if (eq > 0 && eq < inner.length - 1) return { kind: 'match', field: inner.slice(0, eq), value: inner.slice(eq + 1) };
  throw new FieldPathError(`${path}: [${inner}] is not a list element: write [N] (a position from 0) or [FIELD=VALUE] (the element whose FIELD is VALUE), e.g. ${EXAMPLES}`);
}

/** The segments of `path`; throws FieldPathError naming what is malformed. */
export function parseFieldPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let key = '';
  // a key is due (at the start, after a dot) unless a bracket has just closed one
  let needKey = true;
  const endKey = (at: string) => {
    if (key !== '') out.push({ kind: 'key', key });
    else if (needKey) throw new FieldPathError(`${path}: empty field name ${at}: write a dotted path such as ${EXAMPLES}`);
    key = '';
  };
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && path[i + 1] === '.') {
      key += '.';
      i++;
    } else if (c === '.') {
      endKey(`before the dot at ${i}`);
      needKey = true;
    } else if (c === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) throw new FieldPathError(`${path}: the [ at ${i} is not closed: write [N] or [FIELD=VALUE]`);
      if (key === '' && out.length === 0) throw new FieldPathError(`${path}: a list element needs its list first, e.g. ${EXAMPLES}`);
      endKey('');
      out.push(bracket(path, path.slice(i + 1, close)));
      i = close;
      needKey = false;
      if (i + 1 < path.length && path[i + 1] !== '.' && path[i + 1] !== '[') throw new FieldPathError(`${path}: a dot or [ must follow the ] at ${i}`);
    } else if (c === ']') {
      throw new FieldPathError(`${path}: ] at ${i} without its [`);
    } else {
      key += c;
      needKey = true;
    }
  }
  if (key !== '' || needKey) endKey('at the end');
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `containers[name=app]`, `[0]`, `.key` after the path so far. */
function show(segments: readonly PathSegment[]): string {
  return segments.map((s, i) => (s.kind === 'key' ? `${i > 0 ? '.' : ''}${s.key.replace(/\./g, '\\.')}` : s.kind === 'index' ? `[${s.index}]` : `[${s.field}=${s.value}]`)).join('');
}

/** How a list's elements can be addressed: `[0] … [2]`, and by name when they have one. */
function addressing(list: readonly unknown[], at: string): string {
  const names = list.map((e) => (isObj(e) && typeof e.name === 'string' ? e.name : undefined));
  const byPosition = list.length === 0 ? 'it is empty' : `${at}[0]${list.length > 1 ? ` … ${at}[${list.length - 1}]` : ''}`;
  const byName = names.every((n) => n !== undefined) && names.length > 0 ? `, or by name: ${names.map((n) => `${at}[name=${n}]`).join(', ')}` : '';
  return `${byPosition}${byName}`;
}

/** The element of `list` the segment names; throws FieldPathError saying which exist. */
function element(list: unknown[], seg: Exclude<PathSegment, { kind: 'key' }>, at: string): number {
  if (seg.kind === 'index') {
    if (seg.index < list.length) return seg.index;
    throw new FieldPathError(`${at} has ${list.length} element(s), so [${seg.index}] is not one: ${addressing(list, at)}`);
  }
  const found = list.findIndex((e) => isObj(e) && e[seg.field] !== undefined && String(e[seg.field]) === seg.value);
  if (found >= 0) return found;
  throw new FieldPathError(`no element of ${at} has ${seg.field} "${seg.value}": ${addressing(list, at)}`);
}

/** The container the next segment goes into, made (an object) when missing; throws FieldPathError. */
function step(container: Obj | unknown[], seg: PathSegment, next: PathSegment, at: readonly PathSegment[]): Obj | unknown[] {
  const here = show(at);
  const slot = seg.kind === 'key' ? seg.key : element(container as unknown[], seg, show(at.slice(0, -1)));
  const value = (container as Record<string | number, unknown>)[slot];
  if (next.kind !== 'key') {
    if (Array.isArray(value)) return value;
    if (value === undefined) throw new FieldPathError(`${here} does not exist, so it has no element ${show([next])}: set the whole list (${here}=[…])`);
    throw new FieldPathError(`${here} is not a list: ${show([next])} addresses a list element`);
  }
  if (Array.isArray(value)) throw new FieldPathError(`${here} is a list: address one element by position or by a field, ${addressing(value, here)}`);
  if (isObj(value)) return value;
  if (value !== undefined && value !== null) throw new FieldPathError(`${here} is ${JSON.stringify(value)}, not an object: it has no field ${next.key}`);
  const made: Obj = {};
  (container as Record<string | number, unknown>)[slot] = made;
  return made;
}

/** Sets `path` (parsed by parseFieldPath) under `target` to `value`; throws FieldPathError. */
export function setFieldPath(target: Obj, path: string, value: unknown): void {
  const segments = parseFieldPath(path);
  if (segments[0]?.kind !== 'key') throw new FieldPathError(`${path}: start with a field name`);
  let at: Obj | unknown[] = target;
  for (let i = 0; i < segments.length - 1; i++) at = step(at, segments[i]!, segments[i + 1]!, segments.slice(0, i + 1));
  const last = segments[segments.length - 1]!;
  if (last.kind === 'key') (at as Obj)[last.key] = value;
  else (at as unknown[])[element(at as unknown[], last, show(segments.slice(0, -1)))] = value;
}
