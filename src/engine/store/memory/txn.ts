import { compareBytes, normalizeRangeEnd } from '../keys';
import { compareOperand, isReadOnlyTxn, opKind } from '../requests';
import {
  StoreError,
  type Compare,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type KeyValue,
  type PutRequest,
  type PutResponse,
  type RequestOp,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
} from '../types';
import type { KvStore, ReadView, WriteTxn } from './kv-store';
import { applyRange } from './range';

/** The branch a txn takes and, for each nested txn on it, the branch that one takes. */
interface TxnPath {
  succeeded: boolean;
  nested: TxnPath[];
}

/**
 * etcd's Txn apply (applierV3backend.Txn): all compares, nested ones included, are decided on
 * the store as it was before the txn; the taken branches' puts and ranges are checked; then the
 * ops run in one write txn, so the whole txn is one revision (or none if nothing changed).
 */
export function applyTxn(store: KvStore, leaseExists: (id: number) => boolean, r: TxnRequest): TxnResponse {
  const isWrite = !isReadOnlyTxn(r);
  const before = store.read();
  const path = decidePath(before, r);
  if (isWrite) checkTaken(r, path, (op) => checkPut(before, leaseExists, op));
  checkTaken(r, path, (op) => checkRangeRevision(before, op));
  if (!isWrite) return { header: { revision: before.rev }, succeeded: path.succeeded, responses: runOps(before, undefined, r, path) };
  const txn = store.write();
  const responses = runOps(txn.view(), txn, r, path);
  return { header: { revision: txn.end() }, succeeded: path.succeeded, responses };
}

export function applyPut(txn: WriteTxn, p: PutRequest): PutResponse {
  const needPrev = p.ignoreValue || p.ignoreLease || p.prevKv;
  const prev = needPrev ? txn.range(p.key, undefined).kvs[0] : undefined;
  if ((p.ignoreValue || p.ignoreLease) && !prev) throw new StoreError('keyNotFound');
  const value = p.ignoreValue && prev ? prev.value : p.value;
  const lease = p.ignoreLease && prev ? prev.lease : p.lease ?? 0;
  const response: PutResponse = { header: { revision: txn.put(p.key, value, lease) } };
  if (p.prevKv && prev) response.prevKv = prev;
  return response;
}

export function applyDeleteRange(txn: WriteTxn, d: DeleteRangeRequest): DeleteRangeResponse {
  const end = normalizeRangeEnd(d.rangeEnd);
  const prevKvs = d.prevKv ? txn.range(d.key, end).kvs : [];
  const [deleted, revision] = txn.deleteRange(d.key, end);
  return { header: { revision }, deleted, prevKvs };
}

function decidePath(view: ReadView, r: TxnRequest): TxnPath {
  const succeeded = r.compare.every((c) => applyCompare(view, c));
  const nested: TxnPath[] = [];
  for (const op of succeeded ? r.success : r.failure) {
    const parsed = opKind(op);
    if (parsed?.kind === 'txn') nested.push(decidePath(view, parsed.request));
  }
  return { succeeded, nested };
}

function checkTaken(r: TxnRequest, path: TxnPath, check: (op: RequestOp) => void): void {
  let n = 0;
  for (const op of path.succeeded ? r.success : r.failure) {
    const parsed = opKind(op);
    if (parsed?.kind === 'txn') checkTaken(parsed.request, path.nested[n++]!, check);
    else check(op);
  }
}

function checkPut(view: ReadView, leaseExists: (id: number) => boolean, op: RequestOp): void {
  const parsed = opKind(op);
  if (parsed?.kind !== 'put') return;
  const p = parsed.request;
  if ((p.ignoreValue || p.ignoreLease) && view.range(p.key, undefined).kvs.length === 0) throw new StoreError('keyNotFound');
  if (p.lease && !leaseExists(p.lease)) throw new StoreError('leaseNotFound');
}

function checkRangeRevision(view: ReadView, op: RequestOp): void {
  const parsed = opKind(op);
  if (parsed?.kind !== 'range') return;
  const rev = parsed.request.revision ?? 0;
  if (rev === 0) return;
  if (rev > view.rev) throw new StoreError('futureRevision');
  if (rev < view.firstRev) throw new StoreError('compacted');
}

function runOps(view: ReadView, txn: WriteTxn | undefined, r: TxnRequest, path: TxnPath): ResponseOp[] {
  const responses: ResponseOp[] = [];
  let n = 0;
  for (const op of path.succeeded ? r.success : r.failure) {
    const parsed = opKind(op);
    if (!parsed) continue;
    switch (parsed.kind) {
      case 'range':
        responses.push({ range: applyRange(txn ? txn.view() : view, parsed.request) });
        break;
      case 'put':
        responses.push({ put: applyPut(txn!, parsed.request) });
        break;
      case 'deleteRange':
        responses.push({ deleteRange: applyDeleteRange(txn!, parsed.request) });
        break;
      case 'txn': {
        const nested = path.nested[n++]!;
        // etcd never fills a nested txn's header: its revision reads 0.
        responses.push({ txn: { header: { revision: 0 }, succeeded: nested.succeeded, responses: runOps(view, txn, parsed.request, nested) } });
        break;
      }
    }
  }
  return responses;
}

const ABSENT: KeyValue = { key: '', value: '', createRevision: 0, modRevision: 0, version: 0, lease: 0 };

/** A compare holds for every key in its range; with no key it compares a zero record, except
 *  that a value compare then fails (etcd cannot tell a missing value from an empty one). */
function applyCompare(view: ReadView, c: Compare): boolean {
  const { kvs } = view.range(c.key, normalizeRangeEnd(c.rangeEnd));
  if (kvs.length === 0) return c.target === 'value' ? false : compareKv(c, ABSENT);
  return kvs.every((kv) => compareKv(c, kv));
}

/** An unknown target compares as equal and an unknown result holds, as in etcd 3.4. */
function compareKv(c: Compare, kv: KeyValue): boolean {
  const operand = compareOperand(c);
  let result = 0;
  if (typeof operand === 'string') {
    if (c.target === 'value') result = compareBytes(kv.value, operand);
  } else {
    switch (c.target) {
      case 'version':
        result = kv.version - operand;
        break;
      case 'create':
        result = kv.createRevision - operand;
        break;
      case 'mod':
        result = kv.modRevision - operand;
        break;
      case 'lease':
        result = kv.lease - operand;
        break;
    }
  }
  switch (c.result) {
    case '=':
      return result === 0;
    case '!=':
      return result !== 0;
    case '>':
      return result > 0;
    case '<':
      return result < 0;
    default:
      return true;
  }
}
