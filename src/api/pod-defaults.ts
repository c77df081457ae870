// Core (v1) defaulting that kube-apiserver applies to every pod template and pod (pkg/apis/core/v1
// defaults.go + the generated defaulters). The results are part of the hashed revision data, so they
// follow upstream exactly. "Empty" means what Go's zero value means: a missing key, null, or "" for strings.
//
// Applied: PodSpec (dnsPolicy, restartPolicy, securityContext, terminationGracePeriodSeconds, schedulerName);
// containers, initContainers and ephemeralContainers (imagePullPolicy, terminationMessagePath/Policy,
// resources {}, ports[].protocol, env[].valueFrom.fieldRef.apiVersion, probes, lifecycle httpGet);
// volumes (emptyDir when no source, defaultMode of secret/configMap/downwardAPI/projected, projected
// serviceAccountToken expirationSeconds, hostPath type, ephemeral claim volumeMode, image pullPolicy and the
// legacy iscsi/rbd/azureDisk/scaleIO defaults); PVC templates (status.phase, spec.volumeMode).
// Not applied: resource quantity canonicalisation (a serialisation concern) and pod-level resources.

import { cloneJson, isAbsent, isEmptyString, isObject, setOwn, type JsonObject } from './validation/json.js';
import type { PersistentVolumeClaim, Pod, PodSpec } from './types.js';

/** Sets `obj[k] = value` when the field holds Go's zero value (for strings also ""). */
function setDefault(obj: JsonObject, k: string, value: unknown): void {
  const current = obj[k];
  if (isAbsent(current) || (typeof value === 'string' && current === '')) obj[k] = value;
}

/** Sets a Go int32 field (no pointer) when it is 0 or missing. */
function setDefaultNonZero(obj: JsonObject, k: string, value: number): void {
  if (isAbsent(obj[k]) || obj[k] === 0) obj[k] = value;
}

const eachObject = (list: unknown, fn: (o: JsonObject) => void): void => {
  if (Array.isArray(list)) for (const item of list) if (isObject(item)) fn(item);
};
const at = (obj: JsonObject, k: string): JsonObject | undefined => (isObject(obj[k]) ? (obj[k] as JsonObject) : undefined);

const REFERENCE_PATH = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const REFERENCE_DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?$/;
const REFERENCE_TAG = /^[\w][\w.-]{0,127}$/;
const REFERENCE_DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;

function validRepository(name: string): boolean {
  const parts = name.split('/');
  const first = parts[0] ?? '';
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const path = hasDomain ? parts.slice(1) : parts;
  return name.length <= 255 && (!hasDomain || REFERENCE_DOMAIN.test(first)) && path.every((p) => REFERENCE_PATH.test(p));
}

/**
 * The tag parsers.ParseImageName reports: "latest" when neither tag nor digest is given, '' for a digest-only
 * reference or one that does not parse.
 */
// upstream: pkg/util/parsers ParseImageName
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : '';
  let name = at >= 0 ? image.slice(0, at) : image;
  let tag = '';
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  const valid = validRepository(name) && (!tag || REFERENCE_TAG.test(tag)) && (!digest || REFERENCE_DIGEST.test(digest));
  if (!valid) return '';
  return tag || digest ? tag : 'latest';
}

/** Always for `:latest` or an untagged image, IfNotPresent otherwise (also for digests and unparsable names). */
export const defaultPullPolicy = (image: unknown): string =>
  typeof image === 'string' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';

// upstream: core/v1/defaults.go SetDefaults_HTTPGetAction
function defaultHTTPGet(handler: JsonObject | undefined): void {
  const httpGet = handler && at(handler, 'httpGet');
  if (!httpGet) return;
  setDefault(httpGet, 'path', '/');
  setDefault(httpGet, 'scheme', 'HTTP');
}

// upstream: core/v1/defaults.go SetDefaults_Probe (+ the generated httpGet and grpc.service defaults)
function defaultProbe(probe: JsonObject | undefined): void {
  if (!probe) return;
  setDefaultNonZero(probe, 'timeoutSeconds', 1);
  setDefaultNonZero(probe, 'periodSeconds', 10);
  setDefaultNonZero(probe, 'successThreshold', 1);
  setDefaultNonZero(probe, 'failureThreshold', 3);
  defaultHTTPGet(probe);
  const grpc = at(probe, 'grpc');
  if (grpc && isAbsent(grpc.service)) grpc.service = '';
}

const defaultFieldRef = (holder: JsonObject | undefined): void => {
  const ref = holder && at(holder, 'fieldRef');
  if (ref) setDefault(ref, 'apiVersion', 'v1');
};

// upstream: core/v1/defaults.go SetDefaults_Container (+ generated port, env, probe and lifecycle defaults)
function defaultContainer(c: JsonObject): void {
  if (isEmptyString(c.imagePullPolicy)) c.imagePullPolicy = defaultPullPolicy(c.image);
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  if (isAbsent(c.resources)) c.resources = {};
  eachObject(c.ports, (p) => setDefault(p, 'protocol', 'TCP'));
  eachObject(c.env, (e) => defaultFieldRef(at(e, 'valueFrom')));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(at(c, probe));
  const lifecycle = at(c, 'lifecycle');
  if (lifecycle) for (const hook of ['postStart', 'preStop']) defaultHTTPGet(at(lifecycle, hook));
}

/** Per volume source: field defaults (upstream SetDefaults_* functions and +default tags). */
const VOLUME_SOURCE_DEFAULTS: Record<string, Record<string, unknown>> = {
  secret: { defaultMode: 0o644 },
  configMap: { defaultMode: 0o644 },
  downwardAPI: { defaultMode: 0o644 },
  projected: { defaultMode: 0o644 },
  hostPath: { type: '' },
  iscsi: { iscsiInterface: 'default' },
  rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  azureDisk: { cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false },
  scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' },
};

function defaultProjection(source: JsonObject): void {
  eachObject(at(source, 'downwardAPI')?.items, defaultFieldRef);
  const token = at(source, 'serviceAccountToken');
  if (token) setDefault(token, 'expirationSeconds', 3600);
}

// upstream: core/v1/defaults.go SetDefaults_Volume (+ the generated per-source defaults)
function defaultVolume(v: JsonObject): void {
  if (Object.keys(v).every((k) => k === 'name' || isAbsent(v[k]))) v.emptyDir = {};
  for (const [source, defaults] of Object.entries(VOLUME_SOURCE_DEFAULTS)) {
    const src = at(v, source);
    if (src) for (const [k, value] of Object.entries(defaults)) setDefault(src, k, value);
  }
  eachObject(at(v, 'downwardAPI')?.items, defaultFieldRef);
  eachObject(at(v, 'projected')?.sources, defaultProjection);
  const claim = at(at(v, 'ephemeral') ?? {}, 'volumeClaimTemplate');
  const claimSpec = claim && at(claim, 'spec');
  if (claimSpec) setDefault(claimSpec, 'volumeMode', 'Filesystem');
  const image = at(v, 'image');
  if (image && isEmptyString(image.pullPolicy)) image.pullPolicy = defaultPullPolicy(image.reference);
}

/** Applies the PodSpec defaults in place (the input must be a fresh copy). */
// upstream: core/v1/defaults.go SetDefaults_PodSpec (+ generated nested defaulters)
export function applyPodSpecDefaults(spec: JsonObject): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  eachObject(spec.volumes, defaultVolume);
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) eachObject(spec[list], defaultContainer);
}

/** A defaulted copy of a pod (template) spec; never mutates its input. Non-objects are returned unchanged. */
export function defaultPodSpec(spec: PodSpec): PodSpec {
  if (!isObject(spec)) return spec;
  const out = cloneJson(spec) as JsonObject;
  applyPodSpecDefaults(out);
  return out as PodSpec;
}

function requestsFromLimits(resources: JsonObject | undefined): void {
  const limits = resources && at(resources, 'limits');
  if (!resources || !limits) return;
  const requests = at(resources, 'requests') ?? {};
  for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) setOwn(requests, k, v);
  resources.requests = requests;
}

function hostPortFromContainerPort(port: JsonObject): void {
  if (isAbsent(port.hostPort) || port.hostPort === 0) port.hostPort = port.containerPort;
}

/**
 * A defaulted copy of a pod: the PodSpec defaults plus the pod-only ones (enableServiceLinks true, requests
 * copied from limits, host-network ports).
 */
// upstream: core/v1/defaults.go SetDefaults_Pod
export function defaultPod(pod: Pod): Pod {
  if (!isObject(pod)) return pod;
  const out = cloneJson(pod) as Pod & JsonObject;
  if (!isObject(out.spec)) return out;
  const spec = out.spec as unknown as JsonObject;
  applyPodSpecDefaults(spec);
  setDefault(spec, 'enableServiceLinks', true);
  for (const list of ['initContainers', 'containers']) {
    eachObject(spec[list], (c) => {
      requestsFromLimits(at(c, 'resources'));
      if (spec.hostNetwork === true) eachObject(c.ports, hostPortFromContainerPort);
    });
  }
  return out;
}

/** Applies the PVC (template) defaults in place: status.phase Pending, spec.volumeMode Filesystem. */
// upstream: core/v1/defaults.go SetDefaults_PersistentVolumeClaim, SetDefaults_PersistentVolumeClaimSpec
export function applyClaimDefaults(claim: JsonObject): void {
  if (isAbsent(claim.status)) claim.status = {};
  const status = at(claim, 'status');
  if (status) setDefault(status, 'phase', 'Pending');
  if (isAbsent(claim.spec)) claim.spec = {};
  const spec = at(claim, 'spec');
  if (spec) setDefault(spec, 'volumeMode', 'Filesystem');
}

/** A defaulted copy of a PersistentVolumeClaim (template). */
export function defaultClaim(claim: PersistentVolumeClaim): PersistentVolumeClaim {
  if (!isObject(claim)) return claim;
  const out = cloneJson(claim) as unknown as JsonObject;
  applyClaimDefaults(out);
  return out as unknown as PersistentVolumeClaim;
}
