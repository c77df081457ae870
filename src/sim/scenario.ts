// Reads a scenario file (YAML or JSON), validates every field with field-pathed messages and
// fills in the defaults. A file with any issue throws ScenarioError before anything runs (exit 2).

import { readFileSync } from 'node:fs';
import { defaultFeatures, withFeatures, type Features } from '../api/features.js';
import { ORDINAL_V1 } from '../api/types.js';
import { loadYamlDocuments, YamlError } from '../api/yaml-loader.js';
import { parseCluster, parseController, parseFaults } from './scenario-cluster.js';
import { parseObject } from './scenario-objects.js';
import { type ParseContext, parseStep, refKey } from './scenario-steps.js';
import {
  DEFAULT_END_SECONDS,
  DEFAULT_NAMESPACE,
  type ControllerTarget,
  type Scenario,
  type ScenarioObject,
  type Step,
} from './scenario-types.js';
import { Issues, ScenarioError, at, enumField, listField, noUnknownKeys, numberField, objectField, optional, stringField } from './scenario-fields.js';

/** The top-level keys of a scenario file (docs/scenarios.md documents each). */
export const TOP_KEYS = ['kind', 'name', 'seed', 'endSeconds', 'cluster', 'faults', 'controller', 'objects', 'steps'];

/** Reads and parses a scenario file; throws ScenarioError (file unreadable, bad syntax, bad fields). */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ScenarioError(path, [{ path: '', message: `cannot read file: ${(e as Error).message}` }]);
  }
  return parseScenario(text, path);
}

/** Parses scenario text (YAML 1.2, so JSON too); throws ScenarioError listing every issue. */
export function parseScenario(text: string, source = 'scenario'): Scenario {
  let docs: unknown[];
  try {
    docs = loadYamlDocuments(text);
  } catch (e) {
    if (!(e instanceof YamlError)) throw e;
    throw new ScenarioError(source, [{ path: '', message: e.message }], e.message);
  }
  if (docs.length > 1) throw new ScenarioError(source, [{ path: '', message: 'must be a single YAML document' }]);
  return scenarioFromDocument(docs[0] ?? null, source);
}

/** A parsed YAML document (or one built in memory) as a Scenario, with the same checks as a file. */
export function scenarioFromDocument(doc: unknown, source = 'scenario'): Scenario {
  const issues = new Issues();
  const scenario = parseTop(doc, issues);
  if (issues.list.length > 0 || !scenario) throw new ScenarioError(source, issues.list);
  return scenario;
}

function parseTop(v: unknown, issues: Issues): Scenario | undefined {
  const obj = objectField(v, '', issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, TOP_KEYS, '', issues);
  enumField(obj['kind'], 'kind', issues, ['Scenario'] as const);
  const name = optional(obj, 'name', '', issues, stringField);
  const seed = optional(obj, 'seed', '', issues, (x, p, i) => numberField(x, p, i, { integer: true, min: 0, max: 2 ** 32 - 1 })) ?? 1;
  const endSeconds = optional(obj, 'endSeconds', '', issues, (x, p, i) => numberField(x, p, i, { positive: true })) ?? DEFAULT_END_SECONDS;
  const cluster = parseCluster(obj['cluster'], 'cluster', issues);
  const faults = parseFaults(obj['faults'], 'faults', issues);
  const controller = parseController(obj['controller'], 'controller', issues);
  const ctx: ParseContext = { features: featuresOf(controller.featureGates), statefulSets: new Map() };
  const objects = parseObjects(obj['objects'], issues, ctx);
  const steps = parseSteps(obj['steps'], issues, ctx);
  const target = controller.target ?? defaultTarget(ctx.statefulSets);
  const scenario: Scenario = { kind: 'Scenario', seed, endSeconds, cluster, controller: { featureGates: controller.featureGates, target }, objects, steps };
  if (name !== undefined) scenario.name = name;
  if (faults !== undefined) scenario.faults = faults;
  return scenario;
}

function featuresOf(gates: Record<string, boolean>): Features {
  return withFeatures(defaultFeatures(), gates);
}

/** The features a scenario's controller (and API server) run with. */
export function scenarioFeatures(scenario: Scenario): Features {
  return featuresOf(scenario.controller.featureGates);
}

function parseObjects(v: unknown, issues: Issues, ctx: ParseContext): ScenarioObject[] {
  if (v === undefined) return [];
  const list = listField(v, 'objects', issues) ?? [];
  const out: ScenarioObject[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const parsed = parseObject(item, at('objects', i), issues, ctx.features);
    if (!parsed) return;
    const key = `${parsed.resource.plural}.${parsed.resource.group}/${parsed.object.metadata.namespace ?? ''}/${parsed.object.metadata.name}`;
    if (seen.has(key)) issues.add(at(at('objects', i), 'metadata'), `duplicate object ${parsed.object.kind} ${parsed.object.metadata.name}`);
    seen.add(key);
    if (parsed.resource.kind === 'StatefulSet') {
      const ref = { namespace: parsed.object.metadata.namespace ?? DEFAULT_NAMESPACE, name: parsed.object.metadata.name ?? '' };
      ctx.statefulSets.set(refKey(ref), String(parsed.object.apiVersion));
    }
    out.push(parsed);
  });
  return out;
}

function parseSteps(v: unknown, issues: Issues, ctx: ParseContext): Step[] {
  if (v === undefined) return [];
  const list = listField(v, 'steps', issues) ?? [];
  const out: Step[] = [];
  list.forEach((item, i) => {
    const step = parseStep(item, at('steps', i), issues, ctx);
    if (step) out.push(step);
  });
  return out;
}

function defaultTarget(sets: Map<string, string>): ControllerTarget {
  const versions = new Set(sets.values());
  if (versions.has(ORDINAL_V1)) return versions.size > 1 ? 'both' : 'crd';
  return 'native';
}
