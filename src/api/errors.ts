// API errors as a small class hierarchy with predicates. Both cluster adapters translate
// their failures into these, so the runtime's retry and conflict handling is shared.

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    /** HTTP status code as the API server would send it. */
    readonly code: number,
    /** metav1.StatusReason, e.g. Conflict, NotFound, AlreadyExists, Gone, Invalid. */
    readonly reason: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super(message, 404, 'NotFound');
  }
}

export class AlreadyExistsError extends ApiError {
  override name = 'AlreadyExistsError';
  constructor(message: string) {
    super(message, 409, 'AlreadyExists');
  }
}

export class ConflictError extends ApiError {
  override name = 'ConflictError';
  constructor(message: string) {
    super(message, 409, 'Conflict');
  }
}

export class GoneError extends ApiError {
  override name = 'GoneError';
  constructor(message: string) {
    super(message, 410, 'Gone');
  }
}

export interface FieldIssue {
  /** Field path as upstream prints it, e.g. `spec.updateStrategy.rollingUpdate.maxUnavailable`. */
  path: string;
  /** field.ErrorType: Required, Invalid, NotSupported, Forbidden, Duplicate, NotFound, TooLong, TooMany. */
  type: 'Required' | 'Invalid' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'NotFound' | 'TooLong' | 'TooMany';
  /** The offending value, when upstream prints one. */
  value?: unknown;
  detail: string;
}

export class InvalidError extends ApiError {
  override name = 'InvalidError';
  constructor(
    message: string,
    readonly issues: FieldIssue[],
  ) {
    super(message, 422, 'Invalid');
  }
}

/** 400 from strict field validation: the object has fields its schema does not declare. */
export class StrictDecodingError extends ApiError {
  override name = 'StrictDecodingError';
  constructor(
    message: string,
    /** Paths of the unknown fields, e.g. `spec.replicaz`. */
    readonly fields: string[],
  ) {
    super(message, 400, 'BadRequest');
  }
}

/** One of metav1.Status details.causes (`reason` is the CauseType, as on the wire). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** The CauseType of a PodDisruptionBudget's answer to an eviction (policy/v1 DisruptionBudgetCause). */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/**
 * 429 TooManyRequests from pods/eviction: a PodDisruptionBudget does not allow the disruption now (its cause,
 * of reason DisruptionBudget, says which and why). The pod was left alone; the request may be made again later.
 */
export class DisruptionBudgetRefusal extends ApiError {
  override name = 'DisruptionBudgetRefusal';
  constructor(
    message: string,
    readonly causes: StatusCause[],
    /** details.retryAfterSeconds (0: none suggested). */
    readonly retryAfterSeconds: number,
  ) {
    super(message, 429, 'TooManyRequests');
  }

  /** The budget's own words (the DisruptionBudget cause), else the message. */
  get budgetMessage(): string {
    return this.causes.find((c) => c.reason === DISRUPTION_BUDGET_CAUSE)?.message ?? this.message;
  }
}

// upstream: pkg/registry/core/pod/storage/eviction.go EvictionREST.Create (len(pdbs) > 1)
export const MULTIPLE_BUDGETS_MESSAGE = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/**
 * pods/eviction of a pod that more than one PodDisruptionBudget selects: kube-apiserver answers 500 with a
 * Status of no reason and evicts nothing, however the budgets stand; only a plain delete can remove the pod.
 */
export class MultipleBudgetsError extends ApiError {
  override name = 'MultipleBudgetsError';
  constructor() {
    super(MULTIPLE_BUDGETS_MESSAGE, 500, '');
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof ApiError && e.code === 404;
export const isAlreadyExists = (e: unknown): boolean => e instanceof ApiError && e.reason === 'AlreadyExists';
export const isConflict = (e: unknown): boolean => e instanceof ApiError && e.reason === 'Conflict';
export const isGone = (e: unknown): boolean => e instanceof ApiError && e.code === 410;
export const isInvalid = (e: unknown): boolean => e instanceof ApiError && e.code === 422;
export const isForbidden = (e: unknown): boolean => e instanceof ApiError && e.code === 403;
export const isBudgetRefusal = (e: unknown): e is DisruptionBudgetRefusal => e instanceof DisruptionBudgetRefusal;
export const isMultipleBudgets = (e: unknown): e is MultipleBudgetsError => e instanceof MultipleBudgetsError;

/** Worth retrying with backoff: conflicts, throttling, server errors and transport failures. */
export function isRetryable(e: unknown): boolean {
  if (e instanceof ApiError) return e.code === 409 || e.code === 429 || e.code >= 500;
  return true;
}
