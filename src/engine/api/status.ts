/**
 * metav1.Status errors as kube-apiserver returns them (k8s.io/apimachinery/pkg/api/errors).
 * Every rejection in the engine is a StatusError; the HTTP facade serializes `status` as is,
 * and `formatKubectlError` prints it the way kubectl does.
 */
import { aggregateMessage, type ErrorList } from './field';
import { goQuote } from './gofmt';
import type * as meta from './generated/meta-v1';
import type { StatusCause, StatusDetails } from './generated/meta-v1';

export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | '';

export type { StatusCause, StatusDetails };

/** A metav1.Status as the engine makes it: always a v1 Status with a code, its reason one of StatusReason. */
export type Status = meta.Status & {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  reason?: StatusReason;
  code: number;
};

/** A GroupResource or GroupKind: `deployments.apps`, `pods` (core group prints bare). */
export interface GroupThing {
  group: string;
  name: string;
}

export function qualified(g: GroupThing): string {
  return g.group === '' ? g.name : `${g.name}.${g.group}`;
}

export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Omit<Status, 'kind' | 'apiVersion' | 'metadata' | 'status'> & { status?: 'Failure' }) {
    super(status.message ?? '');
    this.name = 'StatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', ...status };
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }
}

function details(resource: GroupThing, name: string, extra: Partial<StatusDetails> = {}): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (resource.group) d.group = resource.group;
  if (resource.name) d.kind = resource.name;
  return { ...d, ...extra };
}

export function notFoundError(resource: GroupThing, name: string): StatusError {
  return new StatusError({
    code: 404,
    reason: 'NotFound',
    message: `${qualified(resource)} ${goQuote(name)} not found`,
    details: details(resource, name),
  });
}

export function alreadyExistsError(resource: GroupThing, name: string): StatusError {
  return new StatusError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualified(resource)} ${goQuote(name)} already exists`,
    details: details(resource, name),
  });
}

export function generateNameConflictError(resource: GroupThing, name: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualified(resource)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
    details: details(resource, name, { retryAfterSeconds }),
  });
}

export function forbiddenError(resource: GroupThing, name: string, reason: string): StatusError {
  let message: string;
  if (!resource.group && !resource.name) message = `forbidden: ${reason}`;
  else if (!name) message = `${qualified(resource)} is forbidden: ${reason}`;
  else message = `${qualified(resource)} ${goQuote(name)} is forbidden: ${reason}`;
  return new StatusError({ code: 403, reason: 'Forbidden', message, details: details(resource, name) });
}

export function conflictError(resource: GroupThing, name: string, reason: string): StatusError {
  return new StatusError({
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${qualified(resource)} ${goQuote(name)}: ${reason}`,
    details: details(resource, name),
  });
}

/** The optimistic-concurrency failure text (registry.OptimisticLockErrorMsg). */
export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function applyConflictError(causes: StatusCause[], message: string): StatusError {
  return new StatusError({ code: 409, reason: 'Conflict', message, details: { causes } });
}

export function goneError(message: string): StatusError {
  return new StatusError({ code: 410, reason: 'Gone', message });
}

export function resourceExpiredError(message: string): StatusError {
  return new StatusError({ code: 410, reason: 'Expired', message });
}

/** NewInvalid: 422 with one cause per field error and the aggregated message. */
export function invalidError(kind: GroupThing, name: string, errs: ErrorList): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: e.body(), field: e.field }));
  const agg = aggregateMessage(errs);
  const base = `${qualified(kind)} ${goQuote(name)} is invalid`;
  return new StatusError({
    code: 422,
    reason: 'Invalid',
    message: agg ? `${base}: ${agg}` : base,
    details: { ...details(kind, name), causes },
  });
}

export function badRequestError(message: string): StatusError {
  return new StatusError({ code: 400, reason: 'BadRequest', message });
}

export function unauthorizedError(message = 'Unauthorized'): StatusError {
  return new StatusError({ code: 401, reason: 'Unauthorized', message });
}

export function methodNotSupportedError(resource: GroupThing, action: string): StatusError {
  return new StatusError({
    code: 405,
    reason: 'MethodNotAllowed',
    message: `${action} is not supported on resources of kind ${goQuote(qualified(resource))}`,
    details: details(resource, ''),
  });
}

export function requestEntityTooLargeError(message: string): StatusError {
  return new StatusError({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${message}` });
}

export function unsupportedMediaTypeError(contentType: string, supported: string[]): StatusError {
  return new StatusError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] },
  });
}

export function internalServerError(err: Error | string): StatusError {
  const msg = typeof err === 'string' ? err : err.message;
  return new StatusError({
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: ${msg}`,
    details: { causes: [{ message: msg }] },
  });
}

export function tooManyRequestsError(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError({ code: 429, reason: 'TooManyRequests', message, details: { retryAfterSeconds } });
}

export function serviceUnavailableError(message: string): StatusError {
  return new StatusError({ code: 503, reason: 'ServiceUnavailable', message });
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}
