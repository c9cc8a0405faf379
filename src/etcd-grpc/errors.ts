/**
 * The gRPC status etcd answers for each of its errors (etcdserver/api/v3rpc/rpctypes): the code
 * and the text its clients print. A few of the store's error texts are already the client's
 * rendering of a status ("rpc error: code = Unknown desc = raft proposal dropped"): they are sent
 * as that code and description.
 */
import { StoreError, type StoreErrorCode } from '../engine/store/types';
import { BadRequest } from './codec';

/** grpc-js's status codes (the numbers are gRPC's own). */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type StatusCode = (typeof Code)[keyof typeof Code];

export interface GrpcStatus {
  code: StatusCode;
  details: string;
}

const CODES: Partial<Record<StoreErrorCode, StatusCode>> = {
  emptyKey: Code.INVALID_ARGUMENT,
  keyNotFound: Code.INVALID_ARGUMENT,
  valueProvided: Code.INVALID_ARGUMENT,
  leaseProvided: Code.INVALID_ARGUMENT,
  tooManyOps: Code.INVALID_ARGUMENT,
  duplicateKey: Code.INVALID_ARGUMENT,
  requestTooLarge: Code.INVALID_ARGUMENT,
  compacted: Code.OUT_OF_RANGE,
  futureRevision: Code.OUT_OF_RANGE,
  noSpace: Code.RESOURCE_EXHAUSTED,
  tooManyRequests: Code.RESOURCE_EXHAUSTED,
  messageTooLarge: Code.RESOURCE_EXHAUSTED,
  leaseNotFound: Code.NOT_FOUND,
  leaseExists: Code.FAILED_PRECONDITION,
  leaseTtlTooLarge: Code.OUT_OF_RANGE,
  watchCanceled: Code.CANCELLED,
  requestTimedOut: Code.UNAVAILABLE,
  timeoutDueToLeaderFail: Code.UNAVAILABLE,
  timeoutDueToConnectionLost: Code.UNAVAILABLE,
  leaderChanged: Code.UNAVAILABLE,
  noLeader: Code.UNAVAILABLE,
  stopped: Code.UNAVAILABLE,
  notLeader: Code.FAILED_PRECONDITION,
  badLeaderTransferee: Code.FAILED_PRECONDITION,
  deadlineExceeded: Code.DEADLINE_EXCEEDED,
};

const RENDERED = /^rpc error: code = (\w+) desc = (.*)$/s;
const BY_NAME = new Map<string, StatusCode>([
  ['Canceled', Code.CANCELLED],
  ['Unknown', Code.UNKNOWN],
  ['DeadlineExceeded', Code.DEADLINE_EXCEEDED],
  ['Unavailable', Code.UNAVAILABLE],
]);

/** An error etcd's auth layer gives before a request reaches the store. */
export class AuthError extends Error {
  constructor(
    readonly code: StatusCode,
    message: string,
  ) {
    super(message);
  }
}

export const AUTH = {
  userEmpty: () => new AuthError(Code.INVALID_ARGUMENT, 'etcdserver: user name is empty'),
  invalidToken: () => new AuthError(Code.UNAUTHENTICATED, 'etcdserver: invalid auth token'),
  authFailed: () => new AuthError(Code.INVALID_ARGUMENT, 'etcdserver: authentication failed, invalid user ID or password'),
  permissionDenied: () => new AuthError(Code.PERMISSION_DENIED, 'etcdserver: permission denied'),
  /** The maintenance server's admin check returns the auth store's own errors (gRPC code Unknown). */
  adminUserEmpty: () => new AuthError(Code.UNKNOWN, 'auth: user name is empty'),
  adminInvalidToken: () => new AuthError(Code.UNKNOWN, 'auth: invalid auth token'),
};

/** How an error from the engine or the request's decoding goes on the wire. Never throws. */
export function toStatus(err: unknown): GrpcStatus {
  if (err instanceof AuthError) return { code: err.code, details: err.message };
  if (err instanceof StoreError) {
    const rendered = RENDERED.exec(err.message);
    if (rendered) return { code: BY_NAME.get(rendered[1]!) ?? Code.UNKNOWN, details: rendered[2]! };
    return { code: CODES[err.code] ?? Code.UNKNOWN, details: err.message };
  }
  if (err instanceof BadRequest) return { code: Code.INVALID_ARGUMENT, details: err.message };
  if (err instanceof Unsupported) return { code: Code.UNIMPLEMENTED, details: err.message };
  // A bug in kubesim: say so without a stack.
  return { code: Code.INTERNAL, details: `kubesim: ${err instanceof Error ? err.message : String(err)}` };
}

/** An RPC kubesim's etcd does not serve (docs/deviations.md lists them). */
export class Unsupported extends Error {
  constructor(rpc: string) {
    super(`kubesim: the simulated etcd does not serve ${rpc}`);
  }
}
