import { compareBytes, normalizeRangeEnd } from './keys';
import { opKind } from './requests';
import type {
  DeleteRangeRequest,
  DeleteRangeResponse,
  EventType,
  PutRequest,
  RequestOp,
  ResponseOp,
  TxnRequest,
  TxnResponse,
} from './types';

/**
 * The watch events a write made, as far as its request and response tell: every put, and every
 * single-key delete that deleted something. A range delete does not name its keys, so it is
 * left out (watches are then not waited for).
 */
export interface Change {
  key: string;
  type: EventType;
}

export function putChanges(r: PutRequest): Change[] {
  return [{ key: r.key, type: 'PUT' }];
}

export function deleteChanges(r: DeleteRangeRequest, response: DeleteRangeResponse): Change[] {
  return normalizeRangeEnd(r.rangeEnd) === undefined && response.deleted > 0 ? [{ key: r.key, type: 'DELETE' }] : [];
}

export function txnChanges(r: TxnRequest, response: TxnResponse): Change[] {
  const ops = response.succeeded ? r.success : r.failure;
  return ops.flatMap((op, i) => opChanges(op, response.responses[i]));
}

function opChanges(op: RequestOp, response: ResponseOp | undefined): Change[] {
  const parsed = opKind(op);
  if (!parsed || !response) return [];
  if (parsed.kind === 'put') return putChanges(parsed.request);
  if (parsed.kind === 'deleteRange' && 'deleteRange' in response) return deleteChanges(parsed.request, response.deleteRange);
  if (parsed.kind === 'txn' && 'txn' in response) return txnChanges(parsed.request, response.txn);
  return [];
}

/** Whether [key, end) (end as normalizeRangeEnd gives it) holds `candidate`, in etcd's byte order. */
export function rangeHolds(key: string, end: string | undefined, candidate: string): boolean {
  if (end === undefined) return candidate === key;
  return compareBytes(key, candidate) <= 0 && (end === '' || compareBytes(candidate, end) < 0);
}
