// A rolling block's staged-rollout fields (apps.ordinal.dev/v1 only): `paused`, `steps` and the background
// `analysis`. In an apps/v1 object each is Forbidden, as every extension field. The CRD schema
// (schema/steps-schema.ts) says the same.

import { parseGoDuration } from '../duration.js';
import { EXTENSION_ONLY } from './context.js';
import { child, forbidden, index, invalid, NEGATIVE, required, tooMany, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { isValidPercent } from './names.js';
import { validatePrometheusFields } from './prometheus-analysis.js';
import { arrayAt, int32At, objectAt, stringAt, typeIssue } from './values.js';

/** The CRD's bound on steps. */
export const MAX_STEPS = 32;
/** A step's durations: Go's, from milliseconds up (`30s`, `10m`, `1h30m`, `1.5h`); the CRD checks the same pattern. */
export const STEP_DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$';
export const STEP_DURATION_MESSAGE = 'must be a duration such as 30s, 10m or 1h30m';
export const POSITIVE_DURATION = 'must be greater than 0';
export const HTTP_STATUS_MESSAGE = 'must be an HTTP status code (100-599)';
export const HTTP_URL_MESSAGE = 'must be an http:// or https:// URL';
const durationPattern = new RegExp(STEP_DURATION_PATTERN);
export const ROLLOUT_COUNT_MESSAGE = "the rollout's analysis runs until the rollout completes: count is a step's";
const FIELDS = ['paused', 'steps', 'analysis'] as const;

/** apps/v1: each field set is Forbidden. */
export function forbidSteps(block: JsonObject, path: string, out: IssueList): void {
  for (const f of FIELDS) if (!isAbsent(block[f])) out.add(forbidden(child(path, f), EXTENSION_ONLY));
}

/** A positive duration of STEP_DURATION_PATTERN (`30s`, `10m`). */
function durationAt(v: unknown, path: string, out: IssueList): void {
  const text = stringAt(v, path, out);
  if (text === undefined) return;
  if (!durationPattern.test(text)) out.add(invalid(path, text, STEP_DURATION_MESSAGE));
  else if (parseGoDuration(text) <= 0) out.add(invalid(path, text, POSITIVE_DURATION));
}

function nonNegativeAt(v: unknown, path: string, out: IssueList, min = 0): void {
  const n = int32At(v, path, out);
  if (n !== undefined && n < min) out.add(invalid(path, n, min === 0 ? NEGATIVE : `must be greater than or equal to ${min}`));
}

/** interval, count, failureLimit and timeout of an HTTP or Prometheus check; `background`: count is Forbidden. */
function validateTiming(check: JsonObject, path: string, out: IssueList, background: boolean): void {
  durationAt(check.interval, child(path, 'interval'), out);
  durationAt(check.timeout, child(path, 'timeout'), out);
  if (background && !isAbsent(check.count)) out.add(forbidden(child(path, 'count'), ROLLOUT_COUNT_MESSAGE));
  else nonNegativeAt(check.count, child(path, 'count'), out, 1);
  nonNegativeAt(check.failureLimit, child(path, 'failureLimit'), out);
}

/** An HTTP check's target, shared by analyses and preUpdate hooks: `url` (required, http or https) and `expectedStatus`. */
export function validateHttpTarget(http: JsonObject, path: string, out: IssueList): void {
  const urlPath = child(path, 'url');
  const url = stringAt(http.url, urlPath, out);
  if (url === undefined) out.add(required(urlPath));
  else if (!/^https?:\/\//.test(url) || !URL.canParse(url)) out.add(invalid(urlPath, url, HTTP_URL_MESSAGE));
  const statusPath = child(path, 'expectedStatus');
  const status = int32At(http.expectedStatus, statusPath, out);
  if (status !== undefined && (status < 100 || status > 599)) out.add(invalid(statusPath, status, HTTP_STATUS_MESSAGE));
}

function validateHttp(v: unknown, path: string, out: IssueList, background = false): void {
  const http = objectAt(v, path, out);
  if (http === undefined) return;
  validateHttpTarget(http, path, out);
  validateTiming(http, path, out, background);
}

function validatePrometheus(v: unknown, path: string, out: IssueList, background = false): void {
  const prometheus = objectAt(v, path, out);
  if (prometheus === undefined) return;
  validatePrometheusFields(prometheus, path, out);
  validateTiming(prometheus, path, out, background);
}

function validateAnalysis(v: unknown, path: string, out: IssueList): void {
  const analysis = objectAt(v, path, out);
  if (analysis === undefined) return;
  const has = { http: !isAbsent(analysis.http), prometheus: !isAbsent(analysis.prometheus), readiness: !isAbsent(analysis.readiness) };
  if (Number(has.http) + Number(has.prometheus) + Number(has.readiness) !== 1) out.add(invalid(path, analysis, 'exactly one of http, prometheus and readiness'));
  if (has.http) validateHttp(analysis.http, child(path, 'http'), out);
  if (has.prometheus) validatePrometheus(analysis.prometheus, child(path, 'prometheus'), out);
  if (has.readiness) {
    const readinessPath = child(path, 'readiness');
    const readiness = objectAt(analysis.readiness, readinessPath, out);
    if (readiness === undefined) return;
    if (isAbsent(readiness.duration)) out.add(required(child(readinessPath, 'duration')));
    else durationAt(readiness.duration, child(readinessPath, 'duration'), out);
    nonNegativeAt(readiness.failureLimit, child(readinessPath, 'failureLimit'), out);
  }
}

/** `replicas`: a count ≥ 0 or "N%" up to 100%. */
function validateStepReplicas(v: unknown, path: string, out: IssueList): void {
  if (typeof v === 'string') {
    for (const msg of isValidPercent(v)) out.add(invalid(path, v, msg));
    if (isValidPercent(v).length === 0 && Number(v.slice(0, -1)) > 100) out.add(invalid(path, v, 'must not be greater than 100%'));
  } else nonNegativeAt(v, path, out);
}

function validateStep(v: unknown, path: string, out: IssueList): void {
  const step = objectAt(v, path, out);
  if (step === undefined) return;
  const has = { partition: !isAbsent(step.partition), replicas: !isAbsent(step.replicas) };
  if (has.partition === has.replicas) out.add(invalid(path, step, 'exactly one of partition and replicas'));
  if (has.partition) nonNegativeAt(step.partition, child(path, 'partition'), out);
  if (has.replicas) validateStepReplicas(step.replicas, child(path, 'replicas'), out);
  if (!isAbsent(step.pause) && !isAbsent(step.analysis)) out.add(invalid(path, step, 'a step waits for a pause or an analysis, not both'));
  if (!isAbsent(step.pause)) {
    const pause = objectAt(step.pause, child(path, 'pause'), out);
    if (pause !== undefined && !isAbsent(pause.duration)) durationAt(pause.duration, child(path, 'pause', 'duration'), out);
  }
  if (!isAbsent(step.analysis)) validateAnalysis(step.analysis, child(path, 'analysis'), out);
}

/** The rolling block's `analysis`: a background check, an HTTP one or a Prometheus query, without `count`. */
function validateRolloutAnalysis(v: unknown, path: string, out: IssueList): void {
  const analysis = objectAt(v, path, out);
  if (analysis === undefined) return;
  const has = { http: !isAbsent(analysis.http), prometheus: !isAbsent(analysis.prometheus) };
  if (has.http === has.prometheus) out.add(invalid(path, analysis, 'exactly one of http and prometheus'));
  if (has.http) validateHttp(analysis.http, child(path, 'http'), out, true);
  if (has.prometheus) validatePrometheus(analysis.prometheus, child(path, 'prometheus'), out, true);
}

/** apps.ordinal.dev/v1: `paused`, `steps` and `analysis` of a rolling block at `path`. */
export function validateSteps(block: JsonObject, path: string, out: IssueList): void {
  if (!isAbsent(block.paused) && typeof block.paused !== 'boolean') out.add(typeIssue(child(path, 'paused'), block.paused, 'boolean'));
  if (!isAbsent(block.analysis)) validateRolloutAnalysis(block.analysis, child(path, 'analysis'), out);
  if (isAbsent(block.steps)) return;
  const stepsPath = child(path, 'steps');
  const steps = arrayAt(block.steps, stepsPath, out);
  if (steps === undefined) return;
  if (steps.length > MAX_STEPS) out.add(tooMany(stepsPath, steps.length, MAX_STEPS));
  steps.forEach((s, i) => validateStep(s, index(stepsPath, i), out));
}
