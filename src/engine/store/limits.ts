import { utf8Length } from './keys';
import { varintSize } from './varint';
import {
  COMPARE_RESULTS,
  COMPARE_TARGETS,
  SORT_ORDERS,
  SORT_TARGETS,
  UNKNOWN_ENUM,
  compareOperand,
  opKind,
} from './requests';
import {
  MAX_GRPC_MESSAGE_BYTES,
  MAX_REQUEST_BYTES,
  StoreError,
  grpcTooLarge,
  type Compare,
  type DeleteRangeRequest,
  type PutRequest,
  type RangeRequest,
  type RequestOp,
  type TxnRequest,
} from './types';
import { own } from '../api/own';

/**
 * etcd's two request size limits, computed from the protobuf encoding (proto3: fields holding
 * their default are not sent; a set oneof member is):
 * - gRPC refuses a message above MAX_GRPC_MESSAGE_BYTES before etcd sees it;
 * - etcd refuses a write whose raft entry (the request plus a header) is above MAX_REQUEST_BYTES.
 * Sizes are first bounded cheaply (3 bytes per UTF-16 unit), and only measured exactly when
 * the bound comes near a limit, so that small requests pay nothing.
 */

type Len = (s: string) => number;
const upperBound: Len = (s) => 3 * s.length;

/**
 * The raft entry's header: field 100 (2-byte tag, 1-byte length) around a request ID, a 10-byte
 * varint when the member ID's low 16 bits have their top bit set (half of all members; one
 * byte less otherwise).
 */
const RAFT_HEADER_BYTES = 14;

export type MessageSize<T> = (request: T, len: Len) => number;

export function checkGrpcSize<T>(size: MessageSize<T>, request: T): void {
  if (size(request, upperBound) <= MAX_GRPC_MESSAGE_BYTES) return;
  const exact = size(request, utf8Length);
  if (exact > MAX_GRPC_MESSAGE_BYTES) throw grpcTooLarge(exact);
}

/** etcd's "request is too large" check on a write's raft entry. */
export function checkRaftSize<T>(size: MessageSize<T>, request: T): void {
  if (RAFT_HEADER_BYTES + message(1, size(request, upperBound)) <= MAX_REQUEST_BYTES) return;
  if (RAFT_HEADER_BYTES + message(1, size(request, utf8Length)) > MAX_REQUEST_BYTES) throw new StoreError('requestTooLarge');
}


function bytes(tag: number, length: number): number {
  return length === 0 ? 0 : tag + varintSize(length) + length;
}

function int(n: number | undefined): number {
  return n ? 1 + varintSize(n) : 0;
}

function bool(b: boolean | undefined): number {
  return b ? 2 : 0;
}

function message(tag: number, size: number): number {
  return tag + varintSize(size) + size;
}

function enumOf(table: Readonly<Record<string, number>>, name: string | undefined): number {
  return name === undefined ? 0 : own(table, name) ?? 0;
}

export function rangeSize(r: RangeRequest, len: Len): number {
  return (
    bytes(1, len(r.key)) +
    bytes(1, len(r.rangeEnd ?? '')) +
    int(r.limit) +
    int(r.revision) +
    int(enumOf(SORT_ORDERS, r.sortOrder)) +
    int(enumOf(SORT_TARGETS, r.sortTarget)) +
    bool(r.keysOnly) +
    bool(r.countOnly)
  );
}

export function putSize(p: PutRequest, len: Len): number {
  return bytes(1, len(p.key)) + bytes(1, len(p.value)) + int(p.lease) + bool(p.prevKv) + bool(p.ignoreValue) + bool(p.ignoreLease);
}

export function deleteRangeSize(d: DeleteRangeRequest, len: Len): number {
  return bytes(1, len(d.key)) + bytes(1, len(d.rangeEnd ?? '')) + bool(d.prevKv);
}

function compareSize(c: Compare, len: Len): number {
  const operand = compareOperand(c);
  // The oneof member is sent even when it holds its default: tag plus value.
  const union = typeof operand === 'string' ? 1 + varintSize(len(operand)) + len(operand) : 1 + varintSize(operand);
  return (
    int(COMPARE_RESULTS[c.result] ?? UNKNOWN_ENUM) +
    int(COMPARE_TARGETS[c.target] ?? UNKNOWN_ENUM) +
    bytes(1, len(c.key)) +
    union +
    bytes(2, len(c.rangeEnd ?? ''))
  );
}

function opSize(op: RequestOp, len: Len): number {
  const parsed = opKind(op);
  if (!parsed) return 0;
  switch (parsed.kind) {
    case 'range':
      return message(1, rangeSize(parsed.request, len));
    case 'put':
      return message(1, putSize(parsed.request, len));
    case 'deleteRange':
      return message(1, deleteRangeSize(parsed.request, len));
    case 'txn':
      return message(1, txnSize(parsed.request, len));
  }
}

export function txnSize(t: TxnRequest, len: Len): number {
  let size = 0;
  for (const c of t.compare) size += message(1, compareSize(c, len));
  for (const op of t.success) size += message(1, opSize(op, len));
  for (const op of t.failure) size += message(1, opSize(op, len));
  return size;
}
