import type { Compare, DeleteRangeRequest, PutRequest, RangeRequest, RequestOp, TxnRequest } from './types';

/** One op of a txn, told apart; undefined for an op with nothing set (etcd: "key not found"). */
export type OpKind =
  | { kind: 'range'; request: RangeRequest }
  | { kind: 'put'; request: PutRequest }
  | { kind: 'deleteRange'; request: DeleteRangeRequest }
  | { kind: 'txn'; request: TxnRequest };

export function opKind(op: RequestOp): OpKind | undefined {
  if ('range' in op && op.range) return { kind: 'range', request: op.range };
  if ('put' in op && op.put) return { kind: 'put', request: op.put };
  if ('deleteRange' in op && op.deleteRange) return { kind: 'deleteRange', request: op.deleteRange };
  if ('txn' in op && op.txn) return { kind: 'txn', request: op.txn };
  return undefined;
}

/** etcd's isTxnReadonly: only ranges at the top level (a nested txn counts as a write). */
export function isReadOnlyTxn(txn: TxnRequest): boolean {
  return [...txn.success, ...txn.failure].every((op) => opKind(op)?.kind === 'range');
}

/** etcdserverpb enum numbers. Anything else travels as an unknown number, as etcd would see it. */
export const COMPARE_TARGETS: Readonly<Record<string, number>> = { version: 0, create: 1, mod: 2, value: 3, lease: 4 };
export const COMPARE_RESULTS: Readonly<Record<string, number>> = { '=': 0, '>': 1, '<': 2, '!=': 3 };
export const SORT_ORDERS: Readonly<Record<string, number>> = { none: 0, ascend: 1, descend: 2 };
export const SORT_TARGETS: Readonly<Record<string, number>> = { key: 0, version: 1, create: 2, mod: 3, value: 4 };
export const UNKNOWN_ENUM = 99;

/** The compared value in the form its target takes: bytes for 'value', an integer otherwise. */
export function compareOperand(c: Compare): string | number {
  if (c.target === 'value') return typeof c.value === 'string' ? c.value : String(c.value);
  const n = typeof c.value === 'number' ? c.value : Number(c.value);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}
