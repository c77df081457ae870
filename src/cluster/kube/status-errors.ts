// Translates an API server error response (a metav1.Status body, or whatever a proxy sent) into the
// ApiError hierarchy of src/api/errors.ts, so the runtime's conflict and retry handling is shared with the
// in-memory cluster. Classification is by HTTP status and Status.reason, as apimachinery's errors package.

import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  DISRUPTION_BUDGET_CAUSE,
  DisruptionBudgetRefusal,
  GoneError,
  InvalidError,
  MULTIPLE_BUDGETS_MESSAGE,
  MultipleBudgetsError,
  NotFoundError,
  type FieldIssue,
  type StatusCause,
} from '../../api/errors.js';

interface StatusBody {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: { causes?: StatusCause[]; retryAfterSeconds?: number };
}

/** metav1.CauseType → field.ErrorType. */
const CAUSE_TYPES: Record<string, FieldIssue['type']> = {
  FieldValueRequired: 'Required',
  FieldValueInvalid: 'Invalid',
  FieldValueNotSupported: 'NotSupported',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate',
  FieldValueTooLong: 'TooLong',
  FieldValueTooMany: 'TooMany',
};

/** Reasons apimachinery assigns when a response carries no Status (`newUnstructuredResponseError`). */
const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export function parseStatus(body: string): StatusBody | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && (parsed as StatusBody).kind === 'Status') return parsed as StatusBody;
  } catch {
    // not JSON: a proxy's or load balancer's page
  }
  return undefined;
}

function issuesOf(status: StatusBody | undefined): FieldIssue[] {
  return (status?.details?.causes ?? []).map((c) => ({
    path: c.field ?? '',
    type: CAUSE_TYPES[c.reason ?? ''] ?? 'Invalid',
    detail: c.message ?? '',
  }));
}

/** The error for a non-2xx response; `what` names the request for messages without a Status body. */
export function toApiError(code: number, body: string, what: string): ApiError {
  const status = parseStatus(body);
  const reason = status?.reason || REASON_BY_CODE[code] || (code >= 500 ? 'InternalError' : 'Unknown');
  const message =
    status?.message ||
    `the server responded with the status code ${code} but did not return more information (${what})`;
  if (code === 404) return new NotFoundError(message);
  if (code === 410 || reason === 'Expired' || reason === 'Gone') return new GoneError(message);
  if (code === 409) return reason === 'AlreadyExists' ? new AlreadyExistsError(message) : new ConflictError(message);
  if (code === 422) return new InvalidError(message, issuesOf(status));
  // pods/eviction: a PodDisruptionBudget's refusal, and a pod of more than one budget
  const causes = status?.details?.causes ?? [];
  if (code === 429 && causes.some((c) => c.reason === DISRUPTION_BUDGET_CAUSE)) return new DisruptionBudgetRefusal(message, causes, status?.details?.retryAfterSeconds ?? 0);
  if (code === 500 && status?.message === MULTIPLE_BUDGETS_MESSAGE && !status.reason) return new MultipleBudgetsError();
  return new ApiError(message, code, reason);
}

/** A watch ERROR event's object (a Status) as an error: 410/Expired become GoneError (relist). */
export function watchStatusError(object: unknown): ApiError {
  const status = (object ?? {}) as StatusBody;
  const code = typeof status.code === 'number' && status.code > 0 ? status.code : 500;
  return toApiError(code, JSON.stringify({ ...status, kind: 'Status' }), 'watch');
}
