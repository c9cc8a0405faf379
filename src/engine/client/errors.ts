/**
 * apimachinery's errors.IsNotFound / IsConflict / ... over the StatusErrors the client throws,
 * and the conversion of a failed response's Status body into one.
 */
import { StatusError, type Status, type StatusReason } from '../api/status';
import { isObject, type JsonObject } from '../api/types';

/** The StatusError a non-2xx response stands for (errors.FromObject, or a generic one by code). */
export function responseError(code: number, body: JsonObject): StatusError {
  if (body.kind === 'Status' && typeof body.code === 'number') {
    const s = body as Status;
    return new StatusError({ code: s.code, reason: s.reason, message: s.message, details: s.details });
  }
  return new StatusError({ code, reason: reasonForCode(code), message: `the server responded with the status code ${code} but did not return more information` });
}

/** errors.ReasonForError's fallback: the reason implied by an HTTP code. */
function reasonForCode(code: number): StatusReason {
  switch (code) {
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 500: return 'InternalError';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return '';
  }
}

function reasonOf(err: unknown): StatusReason | undefined {
  return err instanceof StatusError ? err.reason : undefined;
}

function hasCause(err: unknown, cause: string): boolean {
  return err instanceof StatusError && (err.status.details?.causes ?? []).some((c) => c.reason === cause);
}

export const isNotFound = (err: unknown): boolean => reasonOf(err) === 'NotFound';
export const isAlreadyExists = (err: unknown): boolean => reasonOf(err) === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => reasonOf(err) === 'Conflict';
export const isInvalid = (err: unknown): boolean => reasonOf(err) === 'Invalid';
export const isForbidden = (err: unknown): boolean => reasonOf(err) === 'Forbidden';
export const isGone = (err: unknown): boolean => reasonOf(err) === 'Gone';
export const isResourceExpired = (err: unknown): boolean => reasonOf(err) === 'Expired';
export const isTooManyRequests = (err: unknown): boolean => reasonOf(err) === 'TooManyRequests' || (err instanceof StatusError && err.code === 429);
export const isInternalError = (err: unknown): boolean => reasonOf(err) === 'InternalError';
export const isBadRequest = (err: unknown): boolean => reasonOf(err) === 'BadRequest';
export const isTimeout = (err: unknown): boolean => reasonOf(err) === 'Timeout';

/** The reflector's isExpiredError: 410 Expired or Gone ("too old resource version"). */
export const isExpired = (err: unknown): boolean => isResourceExpired(err) || isGone(err);

/** The reflector's isTooLargeResourceVersionError (a 504 with the ResourceVersionTooLarge cause). */
export const isTooLargeResourceVersion = (err: unknown): boolean => hasCause(err, 'ResourceVersionTooLarge');

/** The error a watch ERROR event carries. */
export function watchEventError(object: JsonObject): StatusError {
  return responseError(typeof object.code === 'number' ? object.code : 500, isObject(object) ? object : {});
}
