// Field checks for scenario files: each returns the value when it is well-formed, or records a
// field-pathed issue (`steps[3].patch.merge: must be an object`) and returns undefined, so one pass
// reports every problem in the file.

export interface ScenarioIssue {
  path: string;
  message: string;
}

/** A scenario file that cannot be run; `issues` name every offending field. Exit code 2. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
  constructor(
    readonly source: string,
    readonly issues: ScenarioIssue[],
    /** Set for a file that is not acceptable YAML: then the message is one line, `FILE:LINE:COL: reason`. */
    position?: string,
  ) {
    super(
      position !== undefined
        ? `${source}:${position}`
        : `${source}: invalid scenario:\n` + issues.map((i) => `  ${i.path || '(file)'}: ${i.message}`).join('\n'),
    );
  }
}

export class Issues {
  readonly list: ScenarioIssue[] = [];
  add(path: string, message: string): undefined {
    this.list.push({ path, message });
    return undefined;
  }
}

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `a.b`, `a[3]`, or `a["web-0"]` for keys that are not identifiers. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

export function objectField(v: unknown, path: string, issues: Issues): Obj | undefined {
  if (v === undefined) return issues.add(path, 'required');
  return isObject(v) ? v : issues.add(path, `must be an object, got ${describe(v)}`);
}

export function listField(v: unknown, path: string, issues: Issues): unknown[] | undefined {
  return Array.isArray(v) ? v : issues.add(path, `must be a list, got ${describe(v)}`);
}

export function stringField(v: unknown, path: string, issues: Issues): string | undefined {
  if (v === undefined) return issues.add(path, 'required');
  if (typeof v === 'string' && v.length > 0) return v;
  return issues.add(path, `must be a non-empty string, got ${describe(v)}`);
}

export function boolField(v: unknown, path: string, issues: Issues): boolean | undefined {
  return typeof v === 'boolean' ? v : issues.add(path, `must be true or false, got ${describe(v)}`);
}

export interface NumberRule {
  min?: number;
  max?: number;
  /** min is exclusive. */
  positive?: boolean;
  integer?: boolean;
}

export function numberField(v: unknown, path: string, issues: Issues, rule: NumberRule = {}): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return issues.add(path, `must be a number, got ${describe(v)}`);
  if (rule.integer && !Number.isSafeInteger(v)) return issues.add(path, `must be an integer, got ${v}`);
  if (rule.positive && v <= 0) return issues.add(path, `must be greater than 0, got ${v}`);
  if (rule.min !== undefined && v < rule.min) return issues.add(path, `must be >= ${rule.min}, got ${v}`);
  if (rule.max !== undefined && v > rule.max) return issues.add(path, `must be <= ${rule.max}, got ${v}`);
  return v;
}

export function enumField<T extends string>(v: unknown, path: string, issues: Issues, values: readonly T[]): T | undefined {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  return issues.add(path, `must be one of ${values.join(', ')}, got ${describe(v)}`);
}

/** Records every key of `obj` that is not in `allowed` (typos should not be silently ignored). */
export function noUnknownKeys(obj: Obj, allowed: readonly string[], path: string, issues: Issues): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) issues.add(at(path, key), `unknown field (allowed: ${allowed.join(', ')})`);
  }
}

/** Reads an optional field: undefined when absent, else the checked value. */
export function optional<T>(
  obj: Obj,
  key: string,
  path: string,
  issues: Issues,
  check: (v: unknown, path: string, issues: Issues) => T | undefined,
): T | undefined {
  return obj[key] === undefined ? undefined : check(obj[key], at(path, key), issues);
}
