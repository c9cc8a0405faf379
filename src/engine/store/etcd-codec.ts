import type * as E from 'etcd3';
import { COMPARE_RESULTS, COMPARE_TARGETS, SORT_ORDERS, SORT_TARGETS, UNKNOWN_ENUM, compareOperand, opKind } from './requests';
import {
  StoreError,
  StoreErrors,
  type Compare,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type KeyValue,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type RequestOp,
  type ResponseHeader,
  type ResponseOp,
  type StoreErrorCode,
  type TxnRequest,
  type TxnResponse,
  type WatchEvent,
  type WatchRequest,
} from './types';
import { own, setOwn } from '../api/own';

/**
 * Translation between the store's requests and etcd3's protobuf objects. Fields holding their
 * proto3 default are left out, so that what goes on the wire is what limits.ts measures.
 */

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');
const int = (s: string | undefined): number => (s ? Number(s) : 0);

function enumOf(table: Readonly<Record<string, number>>, name: string | undefined, unknown: number): number | undefined {
  if (name === undefined) return undefined;
  const n = own(table, name) ?? unknown;
  return n === 0 ? undefined : n;
}

function withoutDefaults<T extends object>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === false || v === 0) continue;
    if (Buffer.isBuffer(v) && v.length === 0) continue;
    setOwn(out, k, v);
  }
  return out as T;
}

export function rangeRequest(r: RangeRequest): E.IRangeRequest {
  return withoutDefaults<E.IRangeRequest>({
    key: bytes(r.key),
    range_end: bytes(r.rangeEnd ?? ''),
    limit: r.limit,
    revision: r.revision,
    // Unknown sort settings travel as the defaults (etcd would crash on an unknown target).
    sort_order: enumOf(SORT_ORDERS, r.sortOrder, 0),
    sort_target: enumOf(SORT_TARGETS, r.sortTarget, 0),
    keys_only: r.keysOnly,
    count_only: r.countOnly,
  });
}

export function putRequest(p: PutRequest): E.IPutRequest {
  return withoutDefaults<E.IPutRequest>({
    key: bytes(p.key),
    value: bytes(p.value),
    lease: p.lease,
    prev_kv: p.prevKv,
    ignore_value: p.ignoreValue,
    ignore_lease: p.ignoreLease,
  });
}

export function deleteRangeRequest(d: DeleteRangeRequest): E.IDeleteRangeRequest {
  return withoutDefaults<E.IDeleteRangeRequest>({ key: bytes(d.key), range_end: bytes(d.rangeEnd ?? ''), prev_kv: d.prevKv });
}

function compare(c: Compare): E.ICompare {
  const operand = compareOperand(c);
  const out = withoutDefaults<E.ICompare>({
    key: bytes(c.key),
    range_end: bytes(c.rangeEnd ?? ''),
    target: enumOf(COMPARE_TARGETS, c.target, UNKNOWN_ENUM),
    result: enumOf(COMPARE_RESULTS, c.result, UNKNOWN_ENUM),
  });
  // The oneof member is always set, even to its default, as etcd's own client does.
  switch (c.target) {
    case 'value':
      out.value = bytes(String(operand));
      break;
    case 'create':
      out.create_revision = operand;
      break;
    case 'mod':
      out.mod_revision = operand;
      break;
    case 'lease':
      out.lease = operand;
      break;
    default:
      out.version = operand;
  }
  return out;
}

function requestOp(op: RequestOp): E.IRequestOp {
  const parsed = opKind(op);
  if (!parsed) return {};
  switch (parsed.kind) {
    case 'range':
      return { request_range: rangeRequest(parsed.request) };
    case 'put':
      return { request_put: putRequest(parsed.request) };
    case 'deleteRange':
      return { request_delete_range: deleteRangeRequest(parsed.request) };
    case 'txn':
      return { request_txn: txnRequest(parsed.request) };
  }
}

export function txnRequest(t: TxnRequest): E.ITxnRequest {
  return { compare: t.compare.map(compare), success: t.success.map(requestOp), failure: t.failure.map(requestOp) };
}

export function watchCreateRequest(w: WatchRequest): E.IWatchCreateRequest {
  const filters = (w.filters ?? []).map((f) => (f === 'noput' ? 0 : 1));
  return {
    ...withoutDefaults<E.IWatchCreateRequest>({
      key: bytes(w.key),
      range_end: bytes(w.rangeEnd ?? ''),
      start_revision: w.startRevision,
      progress_notify: w.progressNotify,
      prev_kv: w.prevKv,
    }),
    ...(filters.length > 0 ? { filters } : {}),
  };
}

export function header(h: E.IResponseHeader | undefined): ResponseHeader {
  return { revision: int(h?.revision) };
}

export function keyValue(kv: E.IKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value ? kv.value.toString('utf8') : '',
    createRevision: int(kv.create_revision),
    modRevision: int(kv.mod_revision),
    version: int(kv.version),
    lease: int(kv.lease),
  };
}

export function rangeResponse(r: E.IRangeResponse): RangeResponse {
  return { header: header(r.header), kvs: (r.kvs ?? []).map(keyValue), more: r.more === true, count: int(r.count) };
}

export function putResponse(r: E.IPutResponse): PutResponse {
  const out: PutResponse = { header: header(r.header) };
  if (r.prev_kv) out.prevKv = keyValue(r.prev_kv);
  return out;
}

export function deleteRangeResponse(r: E.IDeleteRangeResponse): DeleteRangeResponse {
  return { header: header(r.header), deleted: int(r.deleted), prevKvs: (r.prev_kvs ?? []).map(keyValue) };
}

function responseOp(op: E.IResponseOp): ResponseOp {
  if (op.response_range) return { range: rangeResponse(op.response_range) };
  if (op.response_put) return { put: putResponse(op.response_put) };
  if (op.response_delete_range) return { deleteRange: deleteRangeResponse(op.response_delete_range) };
  return { txn: txnResponse(op.response_txn) };
}

export function txnResponse(r: E.ITxnResponse): TxnResponse {
  return { header: header(r.header), succeeded: r.succeeded === true, responses: (r.responses ?? []).map(responseOp) };
}

export function watchEvent(e: E.IEvent): WatchEvent {
  const event: WatchEvent = { type: e.type === 'Delete' ? 'DELETE' : 'PUT', kv: keyValue(e.kv) };
  if (e.prev_kv) event.prevKv = keyValue(e.prev_kv);
  return event;
}

const BY_TEXT = new Map<string, StoreErrorCode>(
  (Object.keys(StoreErrors) as StoreErrorCode[]).map((code) => [StoreErrors[code], code]),
);

/**
 * etcd's status text with gRPC's "<code> <NAME>: " prefix removed, as a StoreError when it is
 * one of etcd's. etcd3 rewrites "lease not found" into its own sentence; the server's is used.
 */
export function storeError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const text = message.replace(/^\d+ [A-Z_]+: /, '');
  const code = BY_TEXT.get(text);
  if (code) return new StoreError(code);
  if (text.includes(StoreErrors.leaseNotFound)) return new StoreError('leaseNotFound');
  if (text.startsWith(StoreErrors.messageTooLarge)) return new StoreError('messageTooLarge', text);
  return err instanceof Error ? err : new Error(message);
}
