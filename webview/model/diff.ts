/**
 * A line diff (Myers' O(ND) algorithm) between two versions of an object's YAML: the object at
 * a revision against the one before it. Every line is kept, so the diff reads as the whole
 * object with its changes marked.
 */
export type DiffOp = ' ' | '-' | '+';

export interface DiffLine {
  readonly op: DiffOp;
  readonly text: string;
}

/** Beyond this many edits the middle is shown as removed then added (bounds time and memory). */
const MAX_EDITS = 2000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const same = (lines: readonly string[]): DiffLine[] => lines.map((text) => ({ op: ' ', text }));
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  return [...same(a.slice(0, prefix)), ...middle, ...same(a.slice(a.length - suffix))];
}

function myers(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const removeThenAdd = (): DiffLine[] => [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  if (n === 0 || m === 0) return removeThenAdd();
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return removeThenAdd();
  // Walk the recorded frontiers back from (n, m) to (0, 0).
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) out.push({ op: ' ', text: a[--x]! }), y--;
    if (d === 0) break;
    if (x === prevX) out.push({ op: '+', text: b[--y]! });
    else out.push({ op: '-', text: a[--x]! });
  }
  return out.reverse();
}

/** A run of unchanged lines left out of a compact diff. */
export interface Skipped {
  readonly skipped: number;
}

/**
 * The diff with long unchanged runs folded: `context` lines are kept on each side of every
 * change, the rest of each run becomes one Skipped entry.
 */
export function foldUnchanged(lines: readonly DiffLine[], context = 3): (DiffLine | Skipped)[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const out: (DiffLine | Skipped)[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped > 0) out.push({ skipped });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped > 0) out.push({ skipped });
  return out;
}

/** How many lines were added and removed. */
export function diffStat(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === '+') added++;
    else if (l.op === '-') removed++;
  }
  return { added, removed };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
