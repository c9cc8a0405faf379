/**
 * List functions Kubernetes 1.35 enables: its own lists library (k8s.io/apiserver/pkg/cel/
 * library/lists.go: isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's ext.Lists at
 * version 3 (slice, flatten, distinct, reverse, sort, sortBy, lists.range) and ext.Sets
 * (sets.contains, sets.equivalent, sets.intersects).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { addDurations, celCompare, celEquals, celError, durationZero } from '../values';

type List = readonly unknown[];

function comparable(list: List, fn: string): void {
  for (let i = 1; i < list.length; i++) celCompare(list[i - 1], list[i], fn);
}

function isSorted(list: List): boolean {
  for (let i = 1; i < list.length; i++) if (celCompare(list[i - 1], list[i], 'isSorted') > 0) return false;
  return true;
}

function sum(list: List, zero: unknown): unknown {
  let acc: unknown = zero;
  for (const v of list) {
    if (typeof acc === 'bigint' && typeof v === 'bigint') {
      acc = acc + v;
      if ((acc as bigint) > 9223372036854775807n || (acc as bigint) < -9223372036854775808n) throw celError('integer overflow');
    } else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
    else acc = v;
  }
  return acc;
}

function extreme(list: List, fn: 'min' | 'max'): unknown {
  if (list.length === 0) throw celError(`${fn}(list) cannot be called on an empty list`);
  let best = list[0];
  for (const v of list.slice(1)) {
    const c = celCompare(v, best, fn);
    if ((fn === 'min' && c < 0) || (fn === 'max' && c > 0)) best = v;
  }
  return best;
}

function indexOf(list: List, v: unknown): bigint {
  for (let i = 0; i < list.length; i++) if (celEquals(list[i], v)) return BigInt(i);
  return -1n;
}

function lastIndexOf(list: List, v: unknown): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], v)) return BigInt(i);
  return -1n;
}

function flatten(list: List, depth: bigint): unknown[] {
  if (depth < 0n) throw celError('level must be non-negative');
  const out: unknown[] = [];
  for (const v of list) {
    if (Array.isArray(v) && depth > 0n) out.push(...flatten(v, depth - 1n));
    else out.push(v);
  }
  return out;
}

function distinct(list: List): unknown[] {
  const out: unknown[] = [];
  for (const v of list) if (!out.some((o) => celEquals(o, v))) out.push(v);
  return out;
}

function slice(list: List, start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n) throw celError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw celError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (end > BigInt(list.length)) throw celError(`cannot slice(${start}, ${end}), list is length ${list.length}`);
  return list.slice(Number(start), Number(end));
}

function sortList(list: List): unknown[] {
  comparable(list, 'sort');
  return [...list].sort((a, b) => celCompare(a, b, 'sort'));
}

function contains(list: List, sub: List): boolean {
  return sub.every((s) => list.some((l) => celEquals(l, s)));
}

export function registerLists(env: Environment): void {
  env
    .registerFunction('list<A>.isSorted(): bool', isSorted)
    .registerFunction('list<int>.sum(): int', (l: List) => sum(l, 0n))
    .registerFunction('list<double>.sum(): double', (l: List) => sum(l, 0))
    .registerFunction('list<google.protobuf.Duration>.sum(): google.protobuf.Duration', (l: List) => (l.length === 0 ? durationZero() : l.reduce((a, b) => addDurations(a, b))))
    .registerFunction('list<A>.min(): A', (l: List) => extreme(l, 'min'))
    .registerFunction('list<A>.max(): A', (l: List) => extreme(l, 'max'))
    .registerFunction('list<A>.indexOf(A): int', indexOf)
    .registerFunction('list<A>.lastIndexOf(A): int', lastIndexOf)
    .registerFunction('list<A>.slice(int, int): list<A>', slice)
    .registerFunction('list.flatten(): list', (l: List) => flatten(l, 1n))
    .registerFunction('list.flatten(int): list', flatten)
    .registerFunction('list<A>.distinct(): list<A>', distinct)
    .registerFunction('list<A>.reverse(): list<A>', (l: List) => [...l].reverse())
    .registerFunction('list<A>.sort(): list<A>', sortList)
    .registerFunction('ListsNamespace.range(int): list<int>', (_ns: unknown, n: bigint) => Array.from({ length: Number(n < 0n ? 0n : n) }, (_, i) => BigInt(i)))
    .registerFunction('SetsNamespace.contains(list<A>, list<A>): bool', (_ns: unknown, a: List, b: List) => contains(a, b))
    .registerFunction('SetsNamespace.equivalent(list<A>, list<A>): bool', (_ns: unknown, a: List, b: List) => contains(a, b) && contains(b, a))
    .registerFunction('SetsNamespace.intersects(list<A>, list<A>): bool', (_ns: unknown, a: List, b: List) => a.some((x) => b.some((y) => celEquals(x, y))));
}

