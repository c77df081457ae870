// A Prometheus analysis (apps.ordinal.dev/v1: `steps[].analysis.prometheus` and the rolling block's
// `analysis.prometheus`): the server's address, the PromQL queries with their placeholders, the CEL
// successCondition (success-condition.ts compiles it), and the policies for a check with no verdict. The CRD
// schema (schema/steps-schema.ts) checks what it can express of the same.

import { compileCondition, MAX_CONDITION_LENGTH } from '../success-condition.js';
import { child, invalid, notSupported, required, tooLong, type IssueList } from './field.js';
import { isAbsent, type JsonObject } from './json.js';
import { stringAt } from './values.js';

export const ANALYSIS_POLICIES = ['Fail', 'Pause', 'Ignore'] as const;
/** The placeholders a query may use (rollout-analysis.ts in the controller fills them in). */
export const QUERY_PLACEHOLDERS = ['revision', 'baselineRevision', 'namespace', 'set', 'pods'] as const;
export const MAX_QUERY_LENGTH = 4096;
export const PROMETHEUS_ADDRESS_MESSAGE = 'must be an http:// or https:// URL';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of `query` that are not QUERY_PLACEHOLDERS. */
export function unknownPlaceholders(query: string): string[] {
  const known: readonly string[] = QUERY_PLACEHOLDERS;
  return [...query.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => !known.includes(name));
}

function queryAt(v: unknown, path: string, out: IssueList, needed: boolean): void {
  const query = stringAt(v, path, out);
  if (query === undefined) {
    if (needed && isAbsent(v)) out.add(required(path));
    return;
  }
  if (query.trim() === '') return out.add(required(path));
  if (query.length > MAX_QUERY_LENGTH) return out.add(tooLong(path, MAX_QUERY_LENGTH));
  const unknown = unknownPlaceholders(query);
  if (unknown.length > 0) out.add(invalid(path, query, `unknown placeholder {{${unknown[0]}}}: a query may use ${QUERY_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`));
}

function policyAt(v: unknown, path: string, out: IssueList): void {
  const policy = stringAt(v, path, out);
  if (policy !== undefined && !(ANALYSIS_POLICIES as readonly string[]).includes(policy)) out.add(notSupported(path, policy, ANALYSIS_POLICIES));
}

/**
 * The address, queries, condition and policies of a Prometheus analysis at `path`; the caller checks interval,
 * count, failureLimit and timeout as for an HTTP check.
 */
export function validatePrometheusFields(prometheus: JsonObject, path: string, out: IssueList): void {
  const addressPath = child(path, 'address');
  const address = stringAt(prometheus.address, addressPath, out);
  if (address === undefined) {
    if (isAbsent(prometheus.address)) out.add(required(addressPath));
  } else if (!/^https?:\/\//.test(address) || !URL.canParse(address) || new URL(address).hostname === '') out.add(invalid(addressPath, address, PROMETHEUS_ADDRESS_MESSAGE));
  queryAt(prometheus.query, child(path, 'query'), out, true);
  queryAt(prometheus.baselineQuery, child(path, 'baselineQuery'), out, false);
  const conditionPath = child(path, 'successCondition');
  const condition = stringAt(prometheus.successCondition, conditionPath, out);
  if (condition === undefined) {
    if (isAbsent(prometheus.successCondition)) out.add(required(conditionPath));
  } else if (condition.length > MAX_CONDITION_LENGTH) out.add(tooLong(conditionPath, MAX_CONDITION_LENGTH));
  else {
    const compiled = compileCondition(condition, !isAbsent(prometheus.baselineQuery));
    if (!compiled.ok) out.add(invalid(conditionPath, condition, compiled.message));
  }
  policyAt(prometheus.noDataPolicy, child(path, 'noDataPolicy'), out);
  policyAt(prometheus.errorPolicy, child(path, 'errorPolicy'), out);
}
