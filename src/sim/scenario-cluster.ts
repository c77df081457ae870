// The `cluster`, `faults` and `controller` blocks of a scenario file, with defaults.

import { FeatureGateError, defaultFeatures, withFeatures } from '../api/features.js';
import type { Seconds } from '../cluster/kubelet/config.js';
import type { Allocatable } from '../cluster/kubelet/resize.js';
import { parseQuantity, quantityText } from '../api/validation/quantity.js';
import { EXPANSION_MODES, type StorageClassBehavior, type StorageConfig } from '../cluster/storage/storage-actor.js';
import type { ClusterSpec, ControllerTarget, FaultSpec, ImageSpec } from './scenario-types.js';
import { parseMetrics } from './scenario-metrics.js';
import {
  type Issues,
  type Obj,
  at,
  boolField,
  enumField,
  listField,
  noUnknownKeys,
  numberField,
  objectField,
  optional,
  stringField,
} from './scenario-fields.js';

const seconds = (v: unknown, p: string, i: Issues) => numberField(v, p, i, { min: 0 });
export const SECONDS_SAMPLE_KEYS = ['samples'] as const;

/** A number of seconds, or `{samples: [s, …]}` (non-empty) that each pod draws one of. */
function secondsOrSamples(v: unknown, p: string, i: Issues): Seconds | undefined {
  if (typeof v === 'number' || typeof v !== 'object' || v === null || Array.isArray(v)) return seconds(v, p, i);
  const obj = objectField(v, p, i);
  if (!obj) return undefined;
  noUnknownKeys(obj, SECONDS_SAMPLE_KEYS, p, i);
  const list = listField(obj['samples'], at(p, 'samples'), i);
  if (list === undefined) return undefined;
  if (list.length === 0) return i.add(at(p, 'samples'), 'must not be empty');
  const samples = list.map((x, k) => seconds(x, `${at(p, 'samples')}[${k}]`, i));
  return samples.every((x): x is number => x !== undefined) ? { samples } : undefined;
}
/** A non-empty list of pod-name globs. */
function podGlobs(v: unknown, p: string, i: Issues): string[] | undefined {
  const list = listField(v, p, i);
  if (list === undefined) return undefined;
  if (list.length === 0) return i.add(p, 'must not be empty');
  const globs = list.map((x, k) => stringField(x, `${p}[${k}]`, i));
  return globs.every((x): x is string => x !== undefined) ? globs : undefined;
}
const rate = (v: unknown, p: string, i: Issues) => numberField(v, p, i, { min: 0, max: 1 });
// The keys each block accepts, exported so the scenario docs test can check every one is documented.
export const CLUSTER_KEYS = ['podStartSeconds', 'podTerminationSeconds', 'images', 'maxObjects', 'storage', 'allocatable', 'analysisEndpoints', 'metrics', 'preUpdateHookSeconds'] as const;
export const ALLOCATABLE_KEYS = ['cpu', 'memory'] as const;
export const STORAGE_KEYS = ['bindSeconds', 'expansionSeconds', 'classes'] as const;
export const STORAGE_CLASS_KEYS = ['expansion', 'expansionSeconds'] as const;
export const IMAGE_KEYS = ['behavior', 'startSeconds', 'seconds', 'pods'] as const;
export const IMAGE_BEHAVIORS = ['ImagePullBackOff', 'CrashLoopBackOff', 'NotReadyAfter'] as const;
export const FAULT_KEYS = ['apiErrors', 'conflicts', 'watch'] as const;
export const API_ERROR_KEYS = ['rate', 'verbs'] as const;
export const CONFLICT_KEYS = ['rate'] as const;
export const WATCH_FAULT_KEYS = ['delaySeconds', 'breakEverySeconds', 'goneRate'] as const;
export const FAULT_VERBS = ['create', 'delete', 'update', 'patch'] as const;
export const CONTROLLER_KEYS = ['featureGates', 'target'] as const;

export function parseCluster(v: unknown, path: string, issues: Issues): ClusterSpec {
  const spec: ClusterSpec = { podStartSeconds: 1, podTerminationSeconds: 1, images: {} };
  if (v === undefined) return spec;
  const obj = objectField(v, path, issues);
  if (!obj) return spec;
  noUnknownKeys(obj, CLUSTER_KEYS, path, issues);
  spec.podStartSeconds = optional(obj, 'podStartSeconds', path, issues, secondsOrSamples) ?? spec.podStartSeconds;
  spec.podTerminationSeconds = optional(obj, 'podTerminationSeconds', path, issues, secondsOrSamples) ?? spec.podTerminationSeconds;
  const maxObjects = optional(obj, 'maxObjects', path, issues, (x, p, i) => numberField(x, p, i, { integer: true, min: 1 }));
  if (maxObjects !== undefined) spec.maxObjects = maxObjects;
  const allocatable = optional(obj, 'allocatable', path, issues, parseAllocatable);
  if (allocatable) spec.allocatable = allocatable;
  const storage = optional(obj, 'storage', path, issues, (x, p, i) => parseStorage(x, p, i));
  if (storage) spec.storage = storage;
  const endpoints = optional(obj, 'analysisEndpoints', path, issues, parseEndpoints);
  if (endpoints) spec.analysisEndpoints = endpoints;
  const metrics = optional(obj, 'metrics', path, issues, parseMetrics);
  if (metrics) spec.metrics = metrics;
  const hookSeconds = optional(obj, 'preUpdateHookSeconds', path, issues, secondsOrSamples);
  if (hookSeconds !== undefined) spec.preUpdateHookSeconds = hookSeconds;
  const images = optional(obj, 'images', path, issues, objectField) ?? {};
  for (const [key, value] of Object.entries(images)) {
    const image = parseImage(value, at(at(path, 'images'), key), issues);
    if (image) spec.images[key] = image;
  }
  return spec;
}

/** An http:// or https:// URL, as a step's analysis names it. */
export function endpointUrl(v: unknown, path: string, issues: Issues): string | undefined {
  const url = stringField(v, path, issues);
  if (url === undefined) return undefined;
  return /^https?:\/\//.test(url) ? url : issues.add(path, `must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
}

/** An HTTP status code an endpoint answers. */
export const httpStatus = (v: unknown, path: string, issues: Issues): number | undefined => numberField(v, path, issues, { integer: true, min: 100, max: 599 });

/** `{"<url>": <status code>}`: what each analysis endpoint answers. */
function parseEndpoints(v: unknown, path: string, issues: Issues): Record<string, number> | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const out: Record<string, number> = {};
  for (const [url, status] of Object.entries(obj)) {
    const p = at(path, url);
    if (endpointUrl(url, p, issues) === undefined) continue;
    const code = httpStatus(status, p, issues);
    if (code !== undefined) out[url] = code;
  }
  return out;
}

/** The node's allocatable `{cpu, memory}`: non-negative Kubernetes quantities (a number reads as its text). */
function parseAllocatable(v: unknown, path: string, issues: Issues): Allocatable | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, ALLOCATABLE_KEYS, path, issues);
  const out: Allocatable = {};
  for (const key of ALLOCATABLE_KEYS) {
    if (obj[key] === undefined) continue;
    const text = quantityText(obj[key]);
    const parsed = text === undefined ? undefined : parseQuantity(text);
    if (text === undefined || parsed === undefined || 'error' in parsed || parsed.negative) issues.add(at(path, key), 'must be a non-negative quantity, e.g. "4", "500m", "8Gi"');
    else out[key] = text;
  }
  return out;
}

function parseStorage(v: unknown, path: string, issues: Issues): StorageConfig | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, STORAGE_KEYS, path, issues);
  const config: StorageConfig = {
    bindSeconds: optional(obj, 'bindSeconds', path, issues, seconds) ?? 0,
    expansionSeconds: optional(obj, 'expansionSeconds', path, issues, secondsOrSamples) ?? 10,
    classes: {},
  };
  const classes = optional(obj, 'classes', path, issues, objectField) ?? {};
  for (const [name, value] of Object.entries(classes)) {
    const p = at(at(path, 'classes'), name);
    const cls = objectField(value, p, issues);
    if (!cls) continue;
    noUnknownKeys(cls, STORAGE_CLASS_KEYS, p, issues);
    const behavior: StorageClassBehavior = {};
    const expansion = optional(cls, 'expansion', p, issues, (x, q, i) => enumField(x, q, i, EXPANSION_MODES));
    if (expansion) behavior.expansion = expansion;
    const after = optional(cls, 'expansionSeconds', p, issues, seconds);
    if (after !== undefined) behavior.expansionSeconds = after;
    config.classes[name] = behavior;
  }
  return config;
}

function parseImage(v: unknown, path: string, issues: Issues): ImageSpec | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, IMAGE_KEYS, path, issues);
  const image: ImageSpec = {};
  const behavior = optional(obj, 'behavior', path, issues, (x, p, i) => enumField(x, p, i, IMAGE_BEHAVIORS));
  if (behavior) image.behavior = behavior;
  const startSeconds = optional(obj, 'startSeconds', path, issues, secondsOrSamples);
  if (startSeconds !== undefined) image.startSeconds = startSeconds;
  const after = optional(obj, 'seconds', path, issues, seconds);
  if (after !== undefined) image.seconds = after;
  const pods = optional(obj, 'pods', path, issues, podGlobs);
  if (pods !== undefined) image.pods = pods;
  if (behavior === 'NotReadyAfter' && after === undefined) issues.add(at(path, 'seconds'), 'required for behavior NotReadyAfter');
  if (behavior !== 'NotReadyAfter' && after !== undefined) issues.add(at(path, 'seconds'), 'only allowed with behavior NotReadyAfter');
  return image;
}

export function parseFaults(v: unknown, path: string, issues: Issues): FaultSpec | undefined {
  if (v === undefined) return undefined;
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, FAULT_KEYS, path, issues);
  const faults: FaultSpec = {};
  const apiErrors = optional(obj, 'apiErrors', path, issues, objectField);
  if (apiErrors) faults.apiErrors = parseApiErrors(apiErrors, at(path, 'apiErrors'), issues);
  const conflicts = optional(obj, 'conflicts', path, issues, objectField);
  if (conflicts) {
    noUnknownKeys(conflicts, CONFLICT_KEYS, at(path, 'conflicts'), issues);
    faults.conflicts = { rate: rate(conflicts['rate'], at(at(path, 'conflicts'), 'rate'), issues) ?? 0 };
  }
  const watch = optional(obj, 'watch', path, issues, objectField);
  if (watch) faults.watch = parseWatchFaults(watch, at(path, 'watch'), issues);
  return faults;
}

function parseApiErrors(obj: Obj, path: string, issues: Issues): NonNullable<FaultSpec['apiErrors']> {
  noUnknownKeys(obj, API_ERROR_KEYS, path, issues);
  const verbs = optional(obj, 'verbs', path, issues, listField);
  const checked = (verbs ?? [...FAULT_VERBS]).map((x, i) => enumField(x, at(at(path, 'verbs'), i), issues, FAULT_VERBS));
  return {
    rate: rate(obj['rate'], at(path, 'rate'), issues) ?? 0,
    verbs: checked.filter((x): x is (typeof FAULT_VERBS)[number] => x !== undefined),
  };
}

function parseWatchFaults(obj: Obj, path: string, issues: Issues): NonNullable<FaultSpec['watch']> {
  noUnknownKeys(obj, WATCH_FAULT_KEYS, path, issues);
  const out: NonNullable<FaultSpec['watch']> = {};
  const delay = optional(obj, 'delaySeconds', path, issues, seconds);
  if (delay !== undefined) out.delaySeconds = delay;
  const every = optional(obj, 'breakEverySeconds', path, issues, (x, p, i) => numberField(x, p, i, { positive: true }));
  if (every !== undefined) out.breakEverySeconds = every;
  const gone = optional(obj, 'goneRate', path, issues, rate);
  if (gone !== undefined) out.goneRate = gone;
  return out;
}

export interface ParsedController {
  featureGates: Record<string, boolean>;
  /** Undefined: decided from the objects' apiVersions. */
  target?: ControllerTarget;
}

export function parseController(v: unknown, path: string, issues: Issues): ParsedController {
  const out: ParsedController = { featureGates: {} };
  if (v === undefined) return out;
  const obj = objectField(v, path, issues);
  if (!obj) return out;
  noUnknownKeys(obj, CONTROLLER_KEYS, path, issues);
  const gates = optional(obj, 'featureGates', path, issues, objectField) ?? {};
  for (const [name, value] of Object.entries(gates)) {
    const gatePath = at(at(path, 'featureGates'), name);
    const on = boolField(value, gatePath, issues);
    if (on === undefined) continue;
    try {
      withFeatures(defaultFeatures(), { [name]: on });
      out.featureGates[name] = on;
    } catch (e) {
      if (!(e instanceof FeatureGateError)) throw e;
      issues.add(gatePath, e.message);
    }
  }
  const target = optional(obj, 'target', path, issues, (x, p, i) => enumField(x, p, i, ['crd', 'native'] as const));
  if (target) out.target = target;
  return out;
}
