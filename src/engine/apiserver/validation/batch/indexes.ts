/**
 * Index-interval lists of Indexed Jobs ("1,3-5,7"), as status.completedIndexes,
 * status.failedIndexes and successPolicy succeededIndexes hold them.
 */
import { goQuote } from '../../../api/gofmt';
import { atoi } from '../../../api/strconv';

type Interval = [number, number];

/** parseIndexInterval: "x" or "x-y" with x < y < completions, or the reason it is not. */
function parseIndexInterval(s: string, completions: number): Interval | string {
  const limits = s.split('-');
  if (limits.length > 2) return `the fragment ${goQuote(s)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const parse = (t: string): number | string => {
    const n = atoi(t);
    if (!n.ok) return `cannot convert string to integer for index: ${goQuote(t)}`;
    if (n.value >= completions) return `too large index: ${goQuote(t)}`;
    return n.value;
  };
  const x = parse(limits[0]!);
  if (typeof x === 'string') return x;
  if (limits.length === 1) return [x, x];
  const y = parse(limits[1]!);
  if (typeof y === 'string') return y;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** validateIndexesFormat: the number of indexes listed, or the first format error. */
export function validateIndexesFormat(indexes: string, completions: number): number | string {
  if (indexes.length === 0) return 0;
  let last: number | undefined;
  let total = 0;
  for (const part of indexes.split(',')) {
    const r = parseIndexInterval(part, completions);
    if (typeof r === 'string') return r;
    if (last !== undefined && last >= r[0]) return `non-increasing order, previous: ${last}, current: ${r[0]}`;
    total += r[1] - r[0] + 1;
    last = r[1];
  }
  return total;
}

/** validateFailedIndexesNotOverlapCompleted: the first index listed as both, if any. */
export function failedOverlapsCompleted(completed: string, failed: string, completions: number): string | undefined {
  if (completed.length === 0 || failed.length === 0) return undefined;
  const parseAll = (s: string): (Interval | undefined)[] => s.split(',').map((p) => {
    const r = parseIndexInterval(p, completions);
    return typeof r === 'string' ? undefined : r;
  });
  const cs = parseAll(completed);
  const fs = parseAll(failed);
  let ci = 0;
  let fi = 0;
  while (ci < cs.length && fi < fs.length) {
    const c = cs[ci];
    const f = fs[fi];
    // An unparsable interval is skipped; the format rule reports it.
    if (!c) ci++;
    else if (!f) fi++;
    else if (c[0] <= f[1] && f[0] <= c[1]) return `failedIndexes and completedIndexes overlap at index: ${Math.max(c[0], f[0])}`;
    else if (c[0] <= f[0]) ci++;
    else fi++;
  }
  return undefined;
}
