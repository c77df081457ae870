// Error constructors with the API server's exact wording, so callers and tests see what a real
// kube-apiserver would send (apimachinery's errors package).

import type { Resource } from '../../api/client.js';
import { AlreadyExistsError, ApiError, ConflictError, GoneError, NotFoundError } from '../../api/errors.js';

/** `pods`, `statefulsets.apps`, `statefulsets.apps.ordinal.dev`: how error messages name a resource. */
export function qualifiedResource(res: Resource): string {
  return res.group ? `${res.plural}.${res.group}` : res.plural;
}

export const notFound = (res: Resource, name: string): NotFoundError =>
  new NotFoundError(`${qualifiedResource(res)} "${name}" not found`);

export const alreadyExists = (res: Resource, name: string): AlreadyExistsError =>
  new AlreadyExistsError(`${qualifiedResource(res)} "${name}" already exists`);

export const staleConflict = (res: Resource, name: string): ConflictError =>
  new ConflictError(
    `Operation cannot be fulfilled on ${qualifiedResource(res)} "${name}": the object has been modified; ` +
      'please apply your changes to the latest version and try again',
  );

export const uidConflict = (res: Resource, name: string, want: string, have: string | undefined): ConflictError =>
  new ConflictError(
    `Operation cannot be fulfilled on ${qualifiedResource(res)} "${name}": Precondition failed: ` +
      `UID in precondition: ${want}, UID in object meta: ${have ?? ''}`,
  );

export const tooOld = (requested: string, oldest: string): GoneError =>
  new GoneError(`too old resource version: ${requested} (${oldest})`);

export const internalError = (detail: string): ApiError =>
  new ApiError(`Internal error occurred: ${detail}`, 500, 'InternalError');

export const badRequest = (detail: string): ApiError => new ApiError(detail, 400, 'BadRequest');

// upstream: apiserver admission/plugin/resourcequota/controller.go (message) + apimachinery errors.NewForbidden
/** 403 Forbidden from an object-count quota: `pods "web-7" is forbidden: exceeded quota: NAME, requested: ...`. */
export function quotaExceeded(res: Resource, name: string, quota: string, used: number, limit: number): ApiError {
  const counted = `count/${qualifiedResource(res)}`;
  const detail = `exceeded quota: ${quota}, requested: ${counted}=1, used: ${counted}=${used}, limited: ${counted}=${limit}`;
  const subject = name ? `${qualifiedResource(res)} "${name}"` : qualifiedResource(res);
  return new ApiError(`${subject} is forbidden: ${detail}`, 403, 'Forbidden');
}

/** Resources without a status subresource answer `updateStatus` like a missing route. */
export const noSubresource = (res: Resource, sub: string): NotFoundError =>
  new NotFoundError(`the server could not find the requested resource (put ${qualifiedResource(res)} ${sub})`);
