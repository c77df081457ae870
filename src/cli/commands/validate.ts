// `validate FILE... [--feature-gates …] [-o text|json]`: checks every StatefulSet in the files as the API
// server admits it (defaulting, then upstream's validation plus Ordinal's extension rules — the rules the
// controller also applies), with field-pathed messages. Fields the schema does not declare are refused first,
// as kube-apiserver's strict field validation (kubectl's default) does. Exit 0: all valid; 1: an object is
// invalid or a file is not acceptable YAML (`FILE:LINE:COL: message`); 2: a file could not be read, or holds
// no StatefulSet.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Resources, type Resource } from '../../api/client.js';
import { InvalidError, StrictDecodingError, type FieldIssue } from '../../api/errors.js';
import { FeatureGateError, type Features } from '../../api/features.js';
import type { StatefulSet } from '../../api/types.js';
import { formatInvalid, formatIssue } from '../../api/validation/index.js';
import { admitStatefulSetCreate } from '../../cluster/memory/statefulset-admission.js';
import { processIO, type CommandIO } from '../explain/io.js';
import { outputOption, structured, type OutputFormat } from '../explain/output-format.js';
import { manifestObjects, type ManifestObject } from '../explain/manifest-docs.js';
import { featuresFrom } from '../explain/plan-now.js';
import { qualifiedName } from '../explain/set-ref.js';

export interface ValidateOptions {
  featureGates?: string;
  output?: OutputFormat;
}

export interface ObjectResult {
  file: string;
  where: string;
  /** `statefulset.apps/web`, or the object's kind and name when it was skipped. */
  object: string;
  outcome: 'valid' | 'invalid' | 'skipped';
  /** The API server's message for an invalid object. */
  message?: string;
  issues: ReportedIssue[];
}

/** A validation issue, or (type `UnknownField`) a field strict decoding refuses. */
export type ReportedIssue = (FieldIssue | { path: string; type: 'UnknownField'; detail: string }) & { message: string };

const RESOURCES: Record<string, Resource> = { 'apps/v1': Resources.statefulSets, 'apps.ordinal.dev/v1': Resources.ordinalStatefulSets };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describeObject(v: Record<string, unknown>): string {
  const meta = isObject(v.metadata) ? v.metadata : {};
  return `${String(v.apiVersion ?? '?')} ${String(v.kind ?? '?')} ${String(meta.name ?? '')}`.trim();
}

function issueResult(base: Omit<ObjectResult, 'outcome' | 'issues'>, message: string, issues: FieldIssue[]): ObjectResult {
  return { ...base, outcome: 'invalid', message, issues: issues.map((i) => ({ ...i, message: formatIssue(i) })) };
}

/** One object: skipped unless a StatefulSet; otherwise admitted as a create would be. */
export function validateObject(file: string, o: ManifestObject, features: Features): ObjectResult {
  if (!isObject(o.value) || o.value.kind !== 'StatefulSet') {
    const object = isObject(o.value) ? describeObject(o.value) : typeof o.value;
    return { file, where: o.where, object, outcome: 'skipped', issues: [] };
  }
  const set = o.value as StatefulSet;
  const name = typeof set.metadata?.name === 'string' ? set.metadata.name : '';
  const resource = RESOURCES[String(set.apiVersion)];
  if (resource === undefined) {
    const issue: FieldIssue = { path: 'apiVersion', type: 'NotSupported', value: set.apiVersion ?? null, detail: 'supported values: "apps/v1", "apps.ordinal.dev/v1"' };
    return issueResult({ file, where: o.where, object: `StatefulSet/${name}` }, formatIssue(issue), [issue]);
  }
  const base = { file, where: o.where, object: qualifiedName(resource, name) };
  try {
    admitStatefulSetCreate(resource, structuredClone({ ...set, metadata: { namespace: 'default', ...(isObject(set.metadata) ? set.metadata : {}) } }), features);
    return { ...base, outcome: 'valid', issues: [] };
  } catch (e) {
    if (e instanceof StrictDecodingError) {
      const issues = e.fields.map((path) => ({ path, type: 'UnknownField' as const, detail: '', message: `unknown field ${JSON.stringify(path)}` }));
      return { ...base, outcome: 'invalid', message: e.message, issues };
    }
    if (!(e instanceof InvalidError)) throw e;
    return issueResult(base, formatInvalid(resource.kind, resource.group, name, e.issues), e.issues);
  }
}

function textLines(r: ObjectResult): string[] {
  const head = `${r.file}: ${r.where}: ${r.object}`;
  if (r.outcome === 'valid') return [`${head}: valid`];
  if (r.outcome === 'skipped') return [`${head}: skipped (not a StatefulSet)`];
  return [`${head}: invalid`, ...r.issues.map((i) => `  - ${i.message}`)];
}

export type ReadFile = (path: string) => string;

/** Validates every file; returns the exit code (see the file comment). */
export function validateCommand(files: readonly string[], opts: ValidateOptions, io: CommandIO = processIO, read: ReadFile = (p) => readFileSync(p, 'utf8')): number {
  let features: Features;
  try {
    features = featuresFrom(opts.featureGates);
  } catch (e) {
    if (!(e instanceof FeatureGateError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 2;
  }
  const results: ObjectResult[] = [];
  let unreadable = false;
  let malformed = false;
  for (const file of files) {
    let text: string;
    try {
      text = read(file);
    } catch (e) {
      io.stderr(`${file}: cannot read: ${(e as Error).message}\n`);
      unreadable = true;
      continue;
    }
    const docs = manifestObjects(text);
    for (const error of docs.errors) io.stderr(`${file}:${error}\n`);
    malformed ||= docs.errors.length > 0;
    results.push(...docs.objects.map((o) => validateObject(file, o, features)));
  }
  if (opts.output === 'json' || opts.output === 'yaml') io.stdout(structured(results, opts.output));
  else if (results.length > 0) io.stdout(`${results.flatMap(textLines).join('\n')}\n`);
  const checked = results.filter((r) => r.outcome !== 'skipped');
  if (unreadable) return 2;
  if (malformed || checked.some((r) => r.outcome === 'invalid')) return 1;
  if (checked.length === 0) io.stderr('error: no StatefulSet found in the given files\n');
  return checked.length === 0 ? 2 : 0;
}

export function register(program: Command): void {
  program
    .command('validate')
    .description('validate StatefulSet manifests as the API server and the controller do (exit 0 valid, 1 invalid, 2 unreadable or none)')
    .argument('<file...>', 'YAML or JSON files (multi-document, kind: List and simulator scenarios too)')
    .option('--feature-gates <gates>', 'feature gates, e.g. StatefulSetRecreateStrategy=false')
    .addOption(outputOption())
    .action((files: string[], opts: ValidateOptions) => {
      process.exitCode = validateCommand(files, opts);
    });
}
