import { compareBytes } from '../keys';
import { opKind } from '../requests';
import { StoreError, type DeleteRangeRequest, type PutRequest, type RangeRequest, type RequestOp, type TxnRequest } from '../types';

/** The checks etcd's gRPC layer makes before a request reaches the store (v3rpc/key.go). */

export function checkRange(r: RangeRequest): void {
  if (!r.key) throw new StoreError('emptyKey');
}

export function checkPut(r: PutRequest): void {
  if (!r.key) throw new StoreError('emptyKey');
  if (r.ignoreValue && r.value) throw new StoreError('valueProvided');
  if (r.ignoreLease && r.lease) throw new StoreError('leaseProvided');
}

export function checkDeleteRange(r: DeleteRangeRequest): void {
  if (!r.key) throw new StoreError('emptyKey');
}

/**
 * Op counts (the largest of compares, success and failure may not exceed `maxOps`; a nested txn
 * gets what its parent leaves), empty keys, empty ops; then overlapping writes per branch.
 */
export function checkTxn(r: TxnRequest, maxOps: number): void {
  checkTxnShape(r, maxOps);
  checkOverlaps(r.success);
  checkOverlaps(r.failure);
}

function checkTxnShape(r: TxnRequest, maxOps: number): void {
  const ops = Math.max(r.compare.length, r.success.length, r.failure.length);
  if (ops > maxOps) throw new StoreError('tooManyOps');
  for (const c of r.compare) if (!c.key) throw new StoreError('emptyKey');
  for (const op of r.success) checkOp(op, maxOps - ops);
  for (const op of r.failure) checkOp(op, maxOps - ops);
}

function checkOp(op: RequestOp, maxOps: number): void {
  const parsed = opKind(op);
  if (!parsed) throw new StoreError('keyNotFound');
  switch (parsed.kind) {
    case 'range':
      return checkRange(parsed.request);
    case 'put':
      return checkPut(parsed.request);
    case 'deleteRange':
      return checkDeleteRange(parsed.request);
    case 'txn':
      return checkTxnShape(parsed.request, maxOps);
  }
}

/** A deleted interval: [begin, end), or the single key begin when end is undefined. */
interface Interval {
  begin: string;
  end: string | undefined;
}

function intersects(dels: Interval[], key: string): boolean {
  return dels.some((d) =>
    d.end === undefined ? d.begin === key : compareBytes(d.begin, key) <= 0 && compareBytes(key, d.end) < 0,
  );
}

/**
 * etcd's checkIntervals: within one branch, a key may not be put twice or both put and deleted,
 * counting nested txns (whose then/else branches may put the same key, being exclusive). The
 * order of the checks matters and is etcd's: a nested txn's puts meet this level's deletes and
 * earlier nested txns' deletes, this level's puts meet everything. A range end of "\0" is taken
 * literally here, as etcd does, so such a delete overlaps nothing.
 */
function checkOverlaps(ops: RequestOp[]): { puts: Set<string>; dels: Interval[] } {
  const dels: Interval[] = [];
  for (const op of ops) {
    const parsed = opKind(op);
    if (parsed?.kind !== 'deleteRange') continue;
    const { key, rangeEnd } = parsed.request;
    dels.push({ begin: key, end: rangeEnd ? rangeEnd : undefined });
  }
  const puts = new Set<string>();
  for (const op of ops) {
    const parsed = opKind(op);
    if (parsed?.kind !== 'txn') continue;
    const then = checkOverlaps(parsed.request.success);
    const otherwise = checkOverlaps(parsed.request.failure);
    for (const key of then.puts) {
      if (puts.has(key) || intersects(dels, key)) throw new StoreError('duplicateKey');
      puts.add(key);
    }
    for (const key of otherwise.puts) {
      if ((puts.has(key) && !then.puts.has(key)) || intersects(dels, key)) throw new StoreError('duplicateKey');
      puts.add(key);
    }
    dels.push(...then.dels, ...otherwise.dels);
  }
  for (const op of ops) {
    const parsed = opKind(op);
    if (parsed?.kind !== 'put') continue;
    const key = parsed.request.key;
    if (puts.has(key) || intersects(dels, key)) throw new StoreError('duplicateKey');
    puts.add(key);
  }
  return { puts, dels };
}
