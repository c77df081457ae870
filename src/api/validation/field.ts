// Field issues as upstream's field.ErrorList (k8s.io/apimachinery/pkg/util/validation/field): constructors,
// path helpers, a bounded collector, and the API server's message format, so that a rejected object reads
// exactly as kube-apiserver would print it.

import { InvalidError, type FieldIssue } from '../errors.js';
import { renderValue } from './json.js';

/** At most this many issues are collected per object: huge inputs cost bounded work and a bounded message. */
export const MAX_ISSUES = 100;

/** Collects issues until `limit`; validators check `full` inside loops over caller-sized arrays. */
export class IssueList {
  readonly items: FieldIssue[] = [];
  constructor(readonly limit: number = MAX_ISSUES) {}

  get full(): boolean {
    return this.items.length >= this.limit;
  }

  add(...issues: FieldIssue[]): void {
    for (const issue of issues) {
      if (this.full) return;
      this.items.push(issue);
    }
  }
}

export const child = (path: string, ...names: string[]): string => [path, ...names].filter(Boolean).join('.');
export const index = (path: string, i: number): string => `${path}[${i}]`;
export const key = (path: string, k: string): string => `${path}[${k}]`;

// upstream: field/errors.go Required, Invalid, NotSupported, Forbidden, Duplicate, TooLong, TooMany
export const required = (path: string, detail = ''): FieldIssue => ({ path, type: 'Required', detail });
export const invalid = (path: string, value: unknown, detail: string): FieldIssue => ({
  path,
  type: 'Invalid',
  value,
  detail,
});
export const forbidden = (path: string, detail: string): FieldIssue => ({ path, type: 'Forbidden', detail });
export const duplicate = (path: string, value: unknown): FieldIssue => ({ path, type: 'Duplicate', value, detail: '' });
export const notFound = (path: string, value: unknown): FieldIssue => ({ path, type: 'NotFound', value, detail: '' });
export const tooLong = (path: string, maxBytes: number): FieldIssue => ({
  path,
  type: 'TooLong',
  detail: `may not be more than ${maxBytes} ${maxBytes === 1 ? 'byte' : 'bytes'}`,
});
export const tooMany = (path: string, actual: number, max: number): FieldIssue => ({
  path,
  type: 'TooMany',
  value: actual,
  detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
});
export function notSupported(path: string, value: unknown, supported: readonly string[]): FieldIssue {
  const detail = supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return { path, type: 'NotSupported', value, detail };
}

/** Upstream's IsNegativeErrorMsg, used by ValidateNonnegativeField. */
export const NEGATIVE = 'must be greater than or equal to 0';
/** Upstream's FieldImmutableErrorMsg, used by ValidateImmutableField. */
export const IMMUTABLE = 'field is immutable';

const TYPE_TEXT: Record<FieldIssue['type'], string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  NotFound: 'Not found',
  TooLong: 'Too long',
  TooMany: 'Too many',
};
const WITHOUT_VALUE: ReadonlySet<FieldIssue['type']> = new Set(['Required', 'Forbidden', 'TooLong']);

/**
 * One issue as field.Error.Error() prints it: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
 * Composite values are printed as JSON (upstream since #132314); an issue without a `value` key prints none.
 */
// upstream: field/errors.go ErrorBody
export function formatIssue(issue: FieldIssue): string {
  let body = TYPE_TEXT[issue.type] ?? String(issue.type);
  if (!WITHOUT_VALUE.has(issue.type) && 'value' in issue) body += `: ${renderValue(issue.value)}`;
  if (issue.detail) body += `: ${issue.detail}`;
  return `${issue.path}: ${body}`;
}

/**
 * The API server's 422 message: `StatefulSet.apps "web" is invalid: [a, b]`, or without brackets for one
 * (deduplicated) issue, as apierrors.NewInvalid with ErrorList.ToAggregate does.
 */
// upstream: apimachinery/pkg/api/errors NewInvalid
export function formatInvalid(kind: string, group: string, name: string, issues: FieldIssue[]): string {
  const qualified = group ? `${kind}.${group}` : kind;
  const messages = [...new Set(issues.map(formatIssue))];
  const body = messages.length === 0 ? '<nil>' : messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
  return `${qualified} ${JSON.stringify(name)} is invalid: ${body}`;
}

/** An InvalidError (422) carrying `issues`, with formatInvalid's message. */
export function validationError(kind: string, group: string, name: string, issues: FieldIssue[]): InvalidError {
  return new InvalidError(formatInvalid(kind, group, name, issues), issues);
}
