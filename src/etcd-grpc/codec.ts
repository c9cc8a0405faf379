/**
 * etcd's v3 protobuf messages (as @grpc/proto-loader decodes them: snake_case fields, bytes as
 * Buffers, 64-bit integers as decimal strings, enums as numbers, absent fields undefined) to the
 * store's requests, and the store's responses back. Keys and values are UTF-8 on both sides:
 * kubesim's store holds strings, so bytes that are not UTF-8 do not survive (docs/deviations.md).
 */
import { COMPARE_RESULTS, COMPARE_TARGETS, SORT_ORDERS, SORT_TARGETS } from '../engine/store/requests';
import type {
  Compare,
  DeleteRangeRequest,
  DeleteRangeResponse,
  KeyValue,
  PutRequest,
  PutResponse,
  RangeRequest,
  RangeResponse,
  RequestOp,
  ResponseOp,
  SortOrder,
  SortTarget,
  TxnRequest,
  TxnResponse,
  WatchEvent,
  WatchRequest,
} from '../engine/store/types';
import type { MemberHeader } from '../engine/store/etcdserver/server';

/** A decoded message: fields by their proto names. */
export type Msg = Record<string, unknown>;

export class BadRequest extends Error {}

const text = (b: unknown): string => (Buffer.isBuffer(b) ? b.toString('utf8') : typeof b === 'string' ? b : '');
const optText = (b: unknown): string | undefined => {
  const s = text(b);
  return s === '' ? undefined : s;
};

/** An int64 field: proto-loader gives a decimal string; kubesim's revisions and lease IDs are safe integers. */
export function int64(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) throw new BadRequest(`invalid integer ${String(v)}`);
  return n;
}

const bool = (v: unknown): boolean | undefined => (v === true ? true : undefined);

function invert(table: Readonly<Record<string, number>>): Map<number, string> {
  return new Map(Object.entries(table).map(([k, v]) => [v, k]));
}
const TARGET_BY_NUMBER = invert(COMPARE_TARGETS);
const RESULT_BY_NUMBER = invert(COMPARE_RESULTS);
const ORDER_BY_NUMBER = invert(SORT_ORDERS);
const SORT_TARGET_BY_NUMBER = invert(SORT_TARGETS);

function enumName(table: Map<number, string>, v: unknown): string {
  const n = typeof v === 'number' ? v : 0;
  // An unknown number travels as itself: the store treats it as etcd treats an unknown enum.
  return table.get(n) ?? String(n);
}

function clean<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

export function rangeRequest(m: Msg): RangeRequest {
  return clean<RangeRequest>({
    key: text(m.key),
    rangeEnd: optText(m.range_end),
    limit: int64(m.limit) || undefined,
    revision: int64(m.revision) || undefined,
    sortOrder: m.sort_order ? (enumName(ORDER_BY_NUMBER, m.sort_order) as SortOrder) : undefined,
    sortTarget: m.sort_target ? (enumName(SORT_TARGET_BY_NUMBER, m.sort_target) as SortTarget) : undefined,
    serializable: bool(m.serializable),
    keysOnly: bool(m.keys_only),
    countOnly: bool(m.count_only),
  });
}

export function putRequest(m: Msg): PutRequest {
  return clean<PutRequest>({
    key: text(m.key),
    value: text(m.value),
    lease: int64(m.lease) || undefined,
    prevKv: bool(m.prev_kv),
    ignoreValue: bool(m.ignore_value),
    ignoreLease: bool(m.ignore_lease),
  });
}

export function deleteRangeRequest(m: Msg): DeleteRangeRequest {
  return clean<DeleteRangeRequest>({ key: text(m.key), rangeEnd: optText(m.range_end), prevKv: bool(m.prev_kv) });
}

function compare(m: Msg): Compare {
  const target = enumName(TARGET_BY_NUMBER, m.target) as Compare['target'];
  let value: string | number;
  switch (m.target_union) {
    case 'value':
      value = text(m.value);
      break;
    case 'create_revision':
    case 'mod_revision':
    case 'lease':
    case 'version':
      // A numeric target: the int64 field the union names.
      value = int64(m[m.target_union]);
      break;
    default:
      value = target === 'value' ? '' : 0;
  }
  return clean<Compare>({ key: text(m.key), rangeEnd: optText(m.range_end), target, result: enumName(RESULT_BY_NUMBER, m.result) as Compare['result'], value });
}

function requestOp(m: Msg, depth: number): RequestOp {
  if (m.request_range) return { range: rangeRequest(m.request_range as Msg) };
  if (m.request_put) return { put: putRequest(m.request_put as Msg) };
  if (m.request_delete_range) return { deleteRange: deleteRangeRequest(m.request_delete_range as Msg) };
  if (m.request_txn) return { txn: txnRequest(m.request_txn as Msg, depth + 1) };
  // An op with nothing set: the store answers etcd's "key not found".
  return {} as RequestOp;
}

/** Nested txns deeper than this are refused (the protobuf decoder already bounds the message size). */
const MAX_TXN_DEPTH = 64;

export function txnRequest(m: Msg, depth = 0): TxnRequest {
  if (depth > MAX_TXN_DEPTH) throw new BadRequest('txn nested too deeply');
  const list = (v: unknown): Msg[] => (Array.isArray(v) ? (v as Msg[]) : []);
  return {
    compare: list(m.compare).map(compare),
    success: list(m.success).map((op) => requestOp(op, depth)),
    failure: list(m.failure).map((op) => requestOp(op, depth)),
  };
}

export function watchCreateRequest(m: Msg): WatchRequest {
  const filters = (Array.isArray(m.filters) ? (m.filters as number[]) : []).map((f) => (f === 0 ? 'noput' : 'nodelete') as 'noput' | 'nodelete');
  // etcd's watch server: an empty key watches from "\0", the smallest key; a range end of "\0" means every key >= key.
  const key = text(m.key) || '\0';
  return clean<WatchRequest>({
    key,
    rangeEnd: optText(m.range_end),
    startRevision: int64(m.start_revision) || undefined,
    prevKv: bool(m.prev_kv),
    progressNotify: bool(m.progress_notify),
    filters: filters.length > 0 ? filters : undefined,
  });
}

// --- responses ------------------------------------------------------------------------------

export function header(h: MemberHeader): Msg {
  return { cluster_id: h.clusterId, member_id: h.memberId, revision: h.revision, raft_term: h.raftTerm };
}

export function keyValue(kv: KeyValue): Msg {
  return {
    key: Buffer.from(kv.key, 'utf8'),
    create_revision: kv.createRevision,
    mod_revision: kv.modRevision,
    version: kv.version,
    value: Buffer.from(kv.value, 'utf8'),
    lease: kv.lease,
  };
}

/** Inner responses of a txn carry only the revision in their header, as etcd's do. */
const inner = (revision: number): Msg => ({ revision });

export function rangeResponse(r: RangeResponse, h: Msg): Msg {
  return { header: h, kvs: r.kvs.map(keyValue), more: r.more, count: r.count };
}

export function putResponse(r: PutResponse, h: Msg): Msg {
  return { header: h, ...(r.prevKv ? { prev_kv: keyValue(r.prevKv) } : {}) };
}

export function deleteRangeResponse(r: DeleteRangeResponse, h: Msg): Msg {
  return { header: h, deleted: r.deleted, prev_kvs: r.prevKvs.map(keyValue) };
}

function responseOp(op: ResponseOp): Msg {
  if ('range' in op) return { response_range: rangeResponse(op.range, inner(op.range.header.revision)) };
  if ('put' in op) return { response_put: putResponse(op.put, inner(op.put.header.revision)) };
  if ('deleteRange' in op) return { response_delete_range: deleteRangeResponse(op.deleteRange, inner(op.deleteRange.header.revision)) };
  return { response_txn: txnResponse(op.txn, inner(op.txn.header.revision)) };
}

export function txnResponse(r: TxnResponse, h: Msg): Msg {
  return { header: h, succeeded: r.succeeded, responses: r.responses.map(responseOp) };
}

export function watchEvent(e: WatchEvent): Msg {
  return { type: e.type === 'DELETE' ? 1 : 0, kv: keyValue(e.kv), ...(e.prevKv ? { prev_kv: keyValue(e.prevKv) } : {}) };
}
