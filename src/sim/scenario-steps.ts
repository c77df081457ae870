// The `steps` list: each step is a mapping with exactly one action key.

import type { Features } from '../api/features.js';
import { ORDINAL_V1 } from '../api/types.js';
import { endpointUrl, httpStatus } from './scenario-cluster.js';
import {
  DEFAULT_NAMESPACE,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  type ObjectRef,
  type ObjectTarget,
  type RolloutSignal,
  type Step,
  type WaitTarget,
} from './scenario-types.js';
import { parseExpect } from './scenario-expect.js';
import { checkFieldsOf, parseObject, resourceFor } from './scenario-objects.js';
import {
  type Issues,
  type Obj,
  at,
  boolField,
  describe,
  enumField,
  isObject,
  noUnknownKeys,
  numberField,
  objectField,
  optional,
  stringField,
} from './scenario-fields.js';

export const STEP_KEYS = ['waitFor', 'apply', 'patch', 'setImage', 'deletePod', 'advance', 'restartController', 'expect', 'delete', 'endpoint', 'pause', 'resume', 'promote', 'abort', 'retry'] as const;
type StepKey = (typeof STEP_KEYS)[number];
// The keys each step's mapping accepts, exported so the scenario docs test can check every one is documented.
export const STEP_OPTION_KEYS: Readonly<Partial<Record<StepKey, readonly string[]>>> = { waitFor: ['timeoutSeconds'] };
export const WAIT_POD_KEYS = ['pod', 'namespace', 'condition'] as const;
export const WAIT_SET_KEYS = ['statefulset', 'namespace', 'condition'] as const;
export const PATCH_KEYS = ['kind', 'apiVersion', 'name', 'namespace', 'merge'] as const;
export const DELETE_KEYS = ['kind', 'apiVersion', 'name', 'namespace'] as const;
export const SET_IMAGE_KEYS = ['name', 'namespace', 'container', 'image'] as const;
export const DELETE_POD_KEYS = ['name', 'namespace'] as const;
export const ENDPOINT_KEYS = ['url', 'status'] as const;
/** pause, resume, abort and retry; promote also takes `full`. */
export const SIGNAL_KEYS = ['name', 'namespace'] as const;
export const PROMOTE_KEYS = ['name', 'namespace', 'full'] as const;

/** What earlier objects and steps created, so `patch`/`setImage` can find a StatefulSet's apiVersion. */
export interface ParseContext {
  features: Features;
  /** `namespace/name` of each StatefulSet → its apiVersion. */
  statefulSets: Map<string, string>;
}

export const refKey = (ref: ObjectRef): string => `${ref.namespace}/${ref.name}`;

export function parseStep(v: unknown, path: string, issues: Issues, ctx: ParseContext): Step | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const keys = Object.keys(obj).filter((k): k is StepKey => (STEP_KEYS as readonly string[]).includes(k));
  if (keys.length !== 1) {
    return issues.add(path, `must have exactly one of ${STEP_KEYS.join(', ')}` + (keys.length ? `, got ${keys.join(', ')}` : ''));
  }
  const key = keys[0] as StepKey;
  noUnknownKeys(obj, [key, ...(STEP_OPTION_KEYS[key] ?? [])], path, issues);
  const body = parseBody(key, obj, path, issues, ctx);
  return body && ({ raw: v, ...body } as Step);
}

type Body = Step extends infer S ? (S extends unknown ? Omit<S, 'raw'> : never) : never;

function parseBody(key: StepKey, obj: Obj, path: string, issues: Issues, ctx: ParseContext): Body | undefined {
  const p = at(path, key);
  const v = obj[key];
  switch (key) {
    case 'waitFor':
      return parseWaitFor(v, obj, path, issues);
    case 'apply':
      return parseApply(v, p, issues, ctx);
    case 'patch':
      return parsePatch(v, p, issues, ctx);
    case 'delete': {
      const body = objectField(v, p, issues);
      if (body) noUnknownKeys(body, DELETE_KEYS, p, issues);
      const target = body && parseTarget(body, p, issues, ctx);
      return target && { kind: 'delete', target };
    }
    case 'setImage':
      return parseSetImage(v, p, issues, ctx);
    case 'deletePod': {
      if (isObject(v)) noUnknownKeys(v, DELETE_POD_KEYS, p, issues);
      const pod = parseRef(v, p, issues, 'name');
      return pod && { kind: 'deletePod', pod };
    }
    case 'advance': {
      const seconds = numberField(v, p, issues, { min: 0 });
      return seconds === undefined ? undefined : { kind: 'advance', seconds };
    }
    case 'restartController':
      if (v !== null && v !== true && !(isObject(v) && Object.keys(v).length === 0)) {
        return issues.add(p, `takes no options ({}), got ${describe(v)}`);
      }
      return { kind: 'restartController' };
    case 'expect': {
      const expect = parseExpect(v, p, issues);
      return expect && { kind: 'expect', expect };
    }
    case 'endpoint':
      return parseEndpoint(v, p, issues);
    case 'pause':
    case 'resume':
    case 'promote':
    case 'abort':
    case 'retry':
      return parseSignal(key, v, p, issues, ctx);
  }
}

/** `endpoint: {url, status}`: status a code, or null (the URL refuses connections from then on). */
function parseEndpoint(v: unknown, path: string, issues: Issues): Body | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, ENDPOINT_KEYS, path, issues);
  const url = endpointUrl(obj['url'], at(path, 'url'), issues);
  if (!('status' in obj)) return issues.add(at(path, 'status'), 'required (a status code, or null: connection refused)');
  const status = obj['status'] === null ? null : httpStatus(obj['status'], at(path, 'status'), issues);
  return url === undefined || status === undefined ? undefined : { kind: 'endpoint', url, status };
}

/** A rollout signal to an apps.ordinal.dev/v1 StatefulSet: `web` or `{name, namespace}` (promote: `full`). */
function parseSignal(key: RolloutSignal, v: unknown, path: string, issues: Issues, ctx: ParseContext): Body | undefined {
  if (isObject(v)) noUnknownKeys(v, key === 'promote' ? PROMOTE_KEYS : SIGNAL_KEYS, path, issues);
  const set = parseRef(v, path, issues, 'name');
  const full = isObject(v) && key === 'promote' ? optional(v, 'full', path, issues, boolField) : undefined;
  if (!set) return undefined;
  const apiVersion = statefulSetApiVersion(set, path, issues, ctx);
  if (apiVersion === undefined) return undefined;
  if (apiVersion !== ORDINAL_V1) return issues.add(at(path, 'name'), `StatefulSet ${refKey(set)} is ${apiVersion}: ${key} is a signal to a staged rollout of an ${ORDINAL_V1} StatefulSet`);
  return { kind: key, set, apiVersion, ...(full !== undefined ? { full } : {}) };
}

/** `web-3`, or `{name: web-3, namespace: ns}`. */
function parseRef(v: unknown, path: string, issues: Issues, nameKey: string): ObjectRef | undefined {
  if (typeof v === 'string') return v ? { namespace: DEFAULT_NAMESPACE, name: v } : issues.add(path, 'must not be empty');
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  const name = stringField(obj[nameKey], at(path, nameKey), issues);
  const namespace = optional(obj, 'namespace', path, issues, stringField) ?? DEFAULT_NAMESPACE;
  return name === undefined ? undefined : { namespace, name };
}

function parseWaitFor(v: unknown, step: Obj, path: string, issues: Issues): Body | undefined {
  const p = at(path, 'waitFor');
  const timeoutSeconds =
    optional(step, 'timeoutSeconds', path, issues, (x, q, i) => numberField(x, q, i, { positive: true })) ??
    DEFAULT_WAIT_TIMEOUT_SECONDS;
  const target = parseWaitTarget(v, p, issues);
  return target && { kind: 'waitFor', target, timeoutSeconds };
}

function parseWaitTarget(v: unknown, path: string, issues: Issues): WaitTarget | undefined {
  if (v === 'Converged') return { kind: 'allConverged' };
  if (typeof v === 'string') return issues.add(path, `must be Converged, {pod, condition} or {statefulset, condition}, got ${describe(v)}`);
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  if ('pod' in obj === 'statefulset' in obj) return issues.add(path, 'must have exactly one of pod, statefulset');
  if ('pod' in obj) {
    noUnknownKeys(obj, WAIT_POD_KEYS, path, issues);
    const ref = parseRef({ ...obj, name: obj['pod'] }, path, issues, 'name');
    const condition = enumField(obj['condition'] ?? 'Ready', at(path, 'condition'), issues, ['Ready', 'Deleted'] as const);
    return ref && condition && { kind: 'pod', ref, condition };
  }
  noUnknownKeys(obj, WAIT_SET_KEYS, path, issues);
  const ref = parseRef({ ...obj, name: obj['statefulset'] }, path, issues, 'name');
  const conditions = ['Converged', 'ProgressDeadlineExceeded', 'RolloutAborted'] as const;
  const condition = enumField(obj['condition'] ?? 'Converged', at(path, 'condition'), issues, conditions);
  return ref && condition && { kind: 'statefulset', ref, condition };
}

function parseApply(v: unknown, path: string, issues: Issues, ctx: ParseContext): Body | undefined {
  const object = parseObject(v, path, issues, ctx.features);
  if (!object) return undefined;
  if (object.resource.kind === 'StatefulSet') {
    const ref = { namespace: object.object.metadata.namespace ?? DEFAULT_NAMESPACE, name: object.object.metadata.name ?? '' };
    ctx.statefulSets.set(refKey(ref), String(object.object.apiVersion));
  }
  return { kind: 'apply', object };
}

/** The object a `patch` or `delete` step names: `kind`, `name`, `namespace` and `apiVersion` (given or known). */
function parseTarget(obj: Obj, path: string, issues: Issues, ctx: ParseContext): ObjectTarget | undefined {
  const kind = stringField(obj['kind'], at(path, 'kind'), issues);
  const ref = parseRef(obj, path, issues, 'name');
  const given = optional(obj, 'apiVersion', path, issues, stringField);
  if (!kind || !ref) return undefined;
  const apiVersion = given ?? defaultApiVersion(kind, ref, path, issues, ctx);
  if (!apiVersion) return undefined;
  if (!resourceFor(apiVersion, kind)) return issues.add(at(path, 'kind'), `unsupported apiVersion/kind ${apiVersion} ${kind}`);
  return { ...ref, kind, apiVersion };
}

function parsePatch(v: unknown, path: string, issues: Issues, ctx: ParseContext): Body | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, PATCH_KEYS, path, issues);
  const target = parseTarget(obj, path, issues, ctx);
  const merge = objectField(obj['merge'], at(path, 'merge'), issues);
  if (!target || !merge) return undefined;
  // The merged object is checked again by the API server when the step runs; a typo is caught here first.
  if (!checkFieldsOf(resourceFor(target.apiVersion, target.kind)!, merge, at(path, 'merge'), issues)) return undefined;
  return { kind: 'patch', target, merge };
}

const CORE_KINDS: Record<string, string> = {
  Pod: 'v1',
  PersistentVolumeClaim: 'v1',
  StorageClass: 'storage.k8s.io/v1',
  Service: 'v1',
  Namespace: 'v1',
  ControllerRevision: 'apps/v1',
  PodDisruptionBudget: 'policy/v1',
};

function defaultApiVersion(kind: string, ref: ObjectRef, path: string, issues: Issues, ctx: ParseContext): string | undefined {
  if (kind !== 'StatefulSet') return CORE_KINDS[kind] ?? issues.add(at(path, 'kind'), `unsupported kind ${kind}`);
  return statefulSetApiVersion(ref, path, issues, ctx);
}

function statefulSetApiVersion(ref: ObjectRef, path: string, issues: Issues, ctx: ParseContext): string | undefined {
  const known = ctx.statefulSets.get(refKey(ref));
  if (known) return known;
  return issues.add(at(path, 'name'), `no StatefulSet ${refKey(ref)} among the objects or earlier apply steps (or give apiVersion)`);
}

function parseSetImage(v: unknown, path: string, issues: Issues, ctx: ParseContext): Body | undefined {
  const obj = objectField(v, path, issues);
  if (!obj) return undefined;
  noUnknownKeys(obj, SET_IMAGE_KEYS, path, issues);
  const set = parseRef(obj, path, issues, 'name');
  const container = stringField(obj['container'], at(path, 'container'), issues);
  const image = stringField(obj['image'], at(path, 'image'), issues);
  if (!set || !container || !image) return undefined;
  const apiVersion = statefulSetApiVersion(set, path, issues, ctx);
  return apiVersion === undefined ? undefined : { kind: 'setImage', set, apiVersion, container, image };
}
