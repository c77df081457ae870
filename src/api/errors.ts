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
  /** field.ErrorType: Required, Invalid, NotSupported, Forbidden, Duplicate, TooLong, TooMany. */
  type: 'Required' | 'Invalid' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'TooLong' | 'TooMany';
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

export const isNotFound = (e: unknown): boolean => e instanceof ApiError && e.code === 404;
export const isAlreadyExists = (e: unknown): boolean => e instanceof ApiError && e.reason === 'AlreadyExists';
export const isConflict = (e: unknown): boolean => e instanceof ApiError && e.reason === 'Conflict';
export const isGone = (e: unknown): boolean => e instanceof ApiError && e.code === 410;
export const isInvalid = (e: unknown): boolean => e instanceof ApiError && e.code === 422;
export const isForbidden = (e: unknown): boolean => e instanceof ApiError && e.code === 403;

/** Worth retrying with backoff: conflicts, throttling, server errors and transport failures. */
export function isRetryable(e: unknown): boolean {
  if (e instanceof ApiError) return e.code === 409 || e.code === 429 || e.code >= 500;
  return true;
}
