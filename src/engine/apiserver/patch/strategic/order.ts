/**
 * The order of merged lists. Strategic merge patch sorts the patch's items by the patch (or
 * $setElementOrder) and the server-only items by the live list, then interleaves the two. The
 * comparison it hands to sort.SliceStable is not a strict weak order (items it cannot place
 * compare "less"), so the result depends on Go's exact algorithm, reproduced here.
 */
import type { JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { errBadArgType, errNoMergeKey } from './errors';
import { goTypeName } from '../govalue';
import { own } from '../../../api/own';

/** Go's == on two interface{} values holding decoded JSON scalars. */
export function goEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const an = a ?? null;
  const bn = b ?? null;
  return an === bn && goTypeName(an) === goTypeName(bn);
}

/** Whether list elements are maps (reflect.Map) or something else. */
export type ElemKind = 'map' | 'other';

function keyOf(item: JsonValue | undefined, mergeKey: string, kind: ElemKind): JsonValue | undefined {
  if (kind !== 'map') return item;
  return isObject(item) ? own(item, mergeKey) : undefined;
}

/** The position of an item in l, by merge key for maps and by value otherwise; -1 if absent. */
export function indexOf(l: readonly JsonValue[] | undefined, item: JsonValue, mergeKey: string, kind: ElemKind): number {
  if (!l) return -1;
  const want = keyOf(item, mergeKey, kind);
  return l.findIndex((v) => goEqual(keyOf(v, mergeKey, kind), want));
}

/** normalizeElementOrder: patch items in patch order, server-only items in live order, interleaved. */
export function normalizeElementOrder(
  patch: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: JsonValue[] | undefined,
  serverOrder: JsonValue[] | undefined,
  mergeKey: string,
  kind: ElemKind,
): JsonValue[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServer = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServer, sortedPatch, serverOrder, mergeKey, kind);
}

function normalizeSliceOrder(toSort: JsonValue[], order: JsonValue[] | undefined, mergeKey: string, kind: ElemKind): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order ?? []]) {
      for (const item of list) {
        if (!isObject(item)) throw errBadArgType('map', item);
        if (own(item, mergeKey) === undefined) throw errNoMergeKey(item, mergeKey);
      }
    }
    items = [];
    for (const v of toSort) {
      if (isObject(v) && v.$patch === 'delete') toDelete.push(v);
      else items.push(v);
    }
  } else {
    items = [...toSort];
    toDelete = [];
  }
  goSliceStable(items, (a, b) => {
    const ia = indexOf(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexOf(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return items.concat(toDelete);
}

/**
 * mergeSortedSlice: inserts each left (server-only) item into right (patch items) before the
 * first right item it precedes in the live order; items it cannot compare go after.
 */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: JsonValue[] | undefined, mergeKey: string, kind: ElemKind): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]!);
    else if (j >= right.length) out.push(left[i++]!);
    else {
      const li = indexOf(serverOrder, left[i]!, mergeKey, kind);
      const ri = indexOf(serverOrder, right[j]!, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}

/** Splits scalars into those present in partitionBy and the rest, keeping their order. */
export function partitionPrimitives(list: JsonValue[], partitionBy: readonly JsonValue[]): [JsonValue[], JsonValue[]] {
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of list) (partitionBy.some((p) => goEqual(p, v)) ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

/** Splits maps by whether partitionBy has an item with the same merge key value. */
export function partitionMaps(list: JsonValue[], partitionBy: readonly JsonValue[], mergeKey: string): [JsonValue[], JsonValue[]] {
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of list) {
    if (!isObject(v)) throw errBadArgType('map', v);
    const key = own(v, mergeKey);
    if (key === undefined) throw errNoMergeKey(v, mergeKey);
    (findByMergeKey(partitionBy, mergeKey, key) >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** findMapInSliceBasedOnKeyValue: the index of the first map whose merge key equals value. */
export function findByMergeKey(list: readonly JsonValue[], mergeKey: string, value: JsonValue): number {
  for (let k = 0; k < list.length; k++) {
    const item = list[k];
    if (!isObject(item)) throw new Error(`value for key ${k} is not a map`);
    if (own(item, mergeKey) !== undefined && goEqual(own(item, mergeKey), value)) return k;
  }
  return -1;
}

/** sort.SliceStable: insertion sort over blocks of 20, then SymMerge passes. */
export function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const lessAt = (i: number, j: number): boolean => less(data[i]!, data[j]!);
  const swap = (i: number, j: number): void => {
    const t = data[i]!;
    data[i] = data[j]!;
    data[j] = t;
  };
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, n: number): void => {
    for (let i = 0; i < n; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const n = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = n - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}
