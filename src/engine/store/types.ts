/**
 * The storage interface: etcd v3's KV, Watch and Lease services, with etcd's semantics.
 * Two backends implement it (memory, and a real etcd through the etcd3 client); the API
 * server is its only user. Keys and values are strings (Kubernetes keys are ASCII paths and
 * values are JSON); sizes are counted in UTF-8 bytes as etcd counts them.
 *
 * Ranges follow etcd: `rangeEnd` undefined selects the single key; `rangeEnd === '\0'` selects
 * every key >= `key`; otherwise the half-open interval [key, rangeEnd). `prefixEnd(p)` gives the
 * range end for a prefix.
 */
import type { StoreSnapshot } from './snapshot';

export interface KeyValue {
  key: string;
  /** Empty for keys-only reads and for delete events. */
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
  lease: number;
}

export interface ResponseHeader {
  /** The store's current revision when the request was served. */
  revision: number;
}

export type SortOrder = 'none' | 'ascend' | 'descend';
export type SortTarget = 'key' | 'version' | 'create' | 'mod' | 'value';

export interface RangeRequest {
  key: string;
  /** Served by the member the client talks to, without a ReadIndex round (may be stale). */
  serializable?: boolean;
  rangeEnd?: string;
  /** 0 means no limit. */
  limit?: number;
  /** Read as of this revision; 0 or absent means the current revision. */
  revision?: number;
  keysOnly?: boolean;
  countOnly?: boolean;
  sortOrder?: SortOrder;
  sortTarget?: SortTarget;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  /** Whether more keys matched than `limit` returned. */
  more: boolean;
  /** The number of keys in the range, regardless of limit. */
  count: number;
}

export interface PutRequest {
  key: string;
  value: string;
  lease?: number;
  prevKv?: boolean;
  /** Keep the key's current value (etcd's ignore_value). */
  ignoreValue?: boolean;
  /** Keep the key's current lease (etcd's ignore_lease). */
  ignoreLease?: boolean;
}

export interface PutResponse {
  header: ResponseHeader;
  prevKv?: KeyValue;
}

export interface DeleteRangeRequest {
  key: string;
  rangeEnd?: string;
  prevKv?: boolean;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prevKvs: KeyValue[];
}

export type CompareTarget = 'value' | 'version' | 'create' | 'mod' | 'lease';
export type CompareResult = '=' | '!=' | '<' | '>';

export interface Compare {
  key: string;
  rangeEnd?: string;
  target: CompareTarget;
  result: CompareResult;
  /** A string for 'value'; a number for the other targets. */
  value: string | number;
}

export type RequestOp =
  | { range: RangeRequest }
  | { put: PutRequest }
  | { deleteRange: DeleteRangeRequest }
  | { txn: TxnRequest };

export type ResponseOp =
  | { range: RangeResponse }
  | { put: PutResponse }
  | { deleteRange: DeleteRangeResponse }
  | { txn: TxnResponse };

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface CompactResponse {
  header: ResponseHeader;
}

export type EventType = 'PUT' | 'DELETE';

export interface WatchEvent {
  type: EventType;
  /** For DELETE: key and modRevision only (the deletion's revision), as etcd sends it. */
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchRequest {
  key: string;
  rangeEnd?: string;
  /** Deliver events from this revision on (inclusive); 0 or absent means from the next write. */
  startRevision?: number;
  prevKv?: boolean;
  /** Send empty progress responses periodically while the watch is idle. */
  progressNotify?: boolean;
  filters?: Array<'noput' | 'nodelete'>;
}

export interface WatchResponse {
  header: ResponseHeader;
  /** All events of one revision arrive in one response, in the order the txn applied them. */
  events: WatchEvent[];
  /** Set when the watch was canceled because its start revision has been compacted. */
  compactRevision?: number;
  canceled?: boolean;
  cancelReason?: string;
  /** True for an empty response that only reports the store's revision. */
  progressNotify?: boolean;
}

export interface Watch {
  /** Resolves once the watch is registered, so that writes after it are seen. */
  readonly ready: Promise<void>;
  /** Asks for a progress notification (etcd's RequestProgress). */
  requestProgress(): void;
  cancel(): Promise<void>;
}

export type WatchListener = (response: WatchResponse) => void;

export interface LeaseGrantResponse {
  header: ResponseHeader;
  id: number;
  ttl: number;
}

export interface LeaseKeepAliveResponse {
  header: ResponseHeader;
  id: number;
  ttl: number;
}

export interface LeaseTimeToLiveResponse {
  header: ResponseHeader;
  id: number;
  /** Remaining seconds; -1 if the lease has expired or does not exist. */
  ttl: number;
  grantedTtl: number;
  keys: string[];
}

export interface StoreStatus {
  revision: number;
  compactRevision: number;
  keys: number;
}

export type BackendName = 'memory' | 'etcd';

export interface Store {
  readonly backend: BackendName;
  range(request: RangeRequest): Promise<RangeResponse>;
  put(request: PutRequest): Promise<PutResponse>;
  deleteRange(request: DeleteRangeRequest): Promise<DeleteRangeResponse>;
  txn(request: TxnRequest): Promise<TxnResponse>;
  /** Discards history before `revision`; reads and watches below it fail from then on. */
  compact(revision: number): Promise<CompactResponse>;
  watch(request: WatchRequest, listener: WatchListener): Watch;
  leaseGrant(ttlSeconds: number, id?: number): Promise<LeaseGrantResponse>;
  leaseRevoke(id: number): Promise<ResponseHeader>;
  leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse>;
  leaseTimeToLive(id: number, keys?: boolean): Promise<LeaseTimeToLiveResponse>;
  status(): Promise<StoreStatus>;
  /** Everything needed to start again where the store is now (memory backend only). */
  snapshot?(): StoreSnapshot;
  close(): Promise<void>;
}

/** etcd's client-visible error codes, each with the server's exact message. */
export const StoreErrors = {
  emptyKey: 'etcdserver: key is not provided',
  compacted: 'etcdserver: mvcc: required revision has been compacted',
  futureRevision: 'etcdserver: mvcc: required revision is a future revision',
  duplicateKey: 'etcdserver: duplicate key given in txn request',
  tooManyOps: 'etcdserver: too many operations in txn request',
  requestTooLarge: 'etcdserver: request is too large',
  leaseNotFound: 'etcdserver: requested lease not found',
  leaseExists: 'etcdserver: lease already exists',
  leaseTtlTooLarge: 'etcdserver: too large lease TTL',
  watchCanceled: 'etcdserver: watch canceled',
  keyNotFound: 'etcdserver: key not found',
  valueProvided: 'etcdserver: value is provided',
  leaseProvided: 'etcdserver: lease is provided',
  /** gRPC's own limit (max-request-bytes + 512 KiB); the message carries the sizes, see grpcTooLarge. */
  messageTooLarge: 'grpc: received message larger than max',
  /** ErrGRPCNoSpace (gRPC code ResourceExhausted): the backend quota is exhausted or the NOSPACE alarm is raised. */
  noSpace: 'etcdserver: mvcc: database space exceeded',
  // etcdserver's errors (etcdserver/errors.go) as its clients receive them.
  requestTimedOut: 'etcdserver: request timed out',
  timeoutDueToLeaderFail: 'etcdserver: request timed out, possibly due to previous leader failure',
  timeoutDueToConnectionLost: 'etcdserver: request timed out, possibly due to connection lost',
  leaderChanged: 'etcdserver: leader changed',
  noLeader: 'etcdserver: no leader',
  /** MoveLeader sent to a member that does not lead (gRPC code FailedPrecondition). */
  notLeader: 'etcdserver: not leader',
  badLeaderTransferee: 'etcdserver: bad leader transferee',
  /** MoveLeader whose transferee did not take over within the request timeout (not in etcd's gRPC error map: code Unknown). */
  leaderTransferTimeout: 'etcdserver: request timed out, leader transfer took too long',
  stopped: 'etcdserver: server stopped',
  tooManyRequests: 'etcdserver: too many requests',
  /** raft.ErrProposalDropped, which etcd passes to the client as gRPC code Unknown. */
  proposalDropped: 'rpc error: code = Unknown desc = raft proposal dropped',
  /** A proposal that waited for a leader past the request timeout: etcd 3.4.23 answers so (gRPC code Unknown). */
  proposalDeadline: 'rpc error: code = Unknown desc = context deadline exceeded',
  /** The member went away while the request was in flight (its connection closed). */
  unavailable: 'rpc error: code = Unavailable desc = transport is closing',
  /** The client's own deadline passed while it retried a read (kube-apiserver's request timeout). */
  deadlineExceeded: 'context deadline exceeded',
} as const;

export type StoreErrorCode = keyof typeof StoreErrors;

export class StoreError extends Error {
  constructor(readonly code: StoreErrorCode, message: string = StoreErrors[code]) {
    super(message);
    this.name = 'StoreError';
  }
}

/** etcd's default request size limit (--max-request-bytes): 1.5 MiB. */
export const MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
/** etcd's default --max-txn-ops. */
export const MAX_TXN_OPS = 128;
/** gRPC's receive limit on etcd's server: --max-request-bytes plus 512 KiB of overhead. */
export const MAX_GRPC_MESSAGE_BYTES = MAX_REQUEST_BYTES + 512 * 1024;

/** The error gRPC gives for a request message above MAX_GRPC_MESSAGE_BYTES. */
export function grpcTooLarge(size: number): StoreError {
  return new StoreError('messageTooLarge', `${StoreErrors.messageTooLarge} (${size} vs. ${MAX_GRPC_MESSAGE_BYTES})`);
}

/** The range end that selects every key starting with `prefix` (clientv3.GetPrefixRangeEnd). */
export function prefixEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  // No byte can be incremented: select everything from the key on.
  return '\0';
}
