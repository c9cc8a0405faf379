/**
 * The size of one member's bbolt file (etcd's backend, mvcc/backend over go.etcd.io/bbolt), as a
 * model of bbolt's page allocation rather than a count of bytes written:
 *
 * - The file is 4 KiB pages: two meta pages, then B+tree nodes. A node takes as many contiguous
 *   pages as its elements need (16-byte page header, 16-byte element header, key, value).
 * - etcd's key bucket is keyed by revision (8 bytes main, '_', 8 bytes sub; a tombstone adds 't')
 *   and holds each record's mvccpb.KeyValue: revisions only grow, so every write lands in the
 *   last leaf, and etcd writes it with a fill percent of 0.9 (batch_tx's sequential put). The
 *   small buckets (meta, members, cluster, alarm, auth) live inline in the root leaf; so does the
 *   key bucket while it is under a quarter page.
 * - Writes are batched: the backend commits its batch transaction every 100 ms (etcd's
 *   --backend-batch-interval) or after 10,000 changes (--backend-batch-limit). A commit is
 *   copy-on-write: every node it changed (and every branch above one, and the root leaf, which
 *   holds the meta bucket's consistent index) is written to newly allocated pages and its old
 *   pages are freed. Freed pages stay pending while the read transaction of the previous commit
 *   may still use them, and become free at the next commit.
 * - Allocation takes the first run of free pages long enough (bbolt's array freelist), and
 *   otherwise grows the file at its high water mark: the file never shrinks.
 * - A compaction deletes records from the key bucket: leaves lose elements, those under a
 *   quarter page merge with a neighbour (bbolt's rebalance), and their pages become free pages
 *   inside the file. Only a defragmentation, which copies every bucket into a new file at a
 *   fill percent of 0.9, gives the space back.
 * - etcd opens bbolt with NoFreelistSync on Linux: no freelist page is written, and on a
 *   restart the free list is rebuilt from the pages no node uses (pending pages become free).
 *
 * dbSizeBytes is etcd's backend Size() (tx.Size(): the high water mark), and dbSizeInUseBytes its
 * SizeInUse() (Size less the free pages), as `etcdctl endpoint status -w json` reports them.
 * Calibrated against etcd 3.4.23: a fresh member reports 20480 and 16384, and one holding 60
 * records of 1 KiB values after a defragmentation 106496 and 98304; test/unit/store/bolt.test.ts
 * holds those figures.
 */
import type { KeyValue } from '../types';
import { varintSize } from '../varint';

export const PAGE_SIZE = 4096;
const PAGE_HEADER = 16;
const LEAF_ELEMENT = 16;
const BRANCH_ELEMENT = 16;
/** A revision key: 8 bytes main, '_', 8 bytes sub (etcd's revToBytes); tombstones append 't'. */
const REVISION_KEY = 17;
/** etcd's sequential puts and its defragmentation fill nodes to 90%. */
const FILL_PERCENT = 0.9;
const SPLIT_THRESHOLD = FILL_PERCENT * PAGE_SIZE;
/** bbolt merges a node below a quarter page with a neighbour. */
const MERGE_THRESHOLD = PAGE_SIZE / 4;
/** A bucket smaller than this is stored inline in its parent's leaf. */
const INLINE_BUCKET = PAGE_SIZE / 4;
const MIN_KEYS = 2;
/** Children one branch page holds at the fill percent (16-byte element header + revision key). */
const BRANCH_FANOUT = Math.floor((SPLIT_THRESHOLD - PAGE_HEADER) / (BRANCH_ELEMENT + REVISION_KEY));
/** etcd's --backend-batch-interval and --backend-batch-limit. */
export const BATCH_INTERVAL_MS = 100;
export const BATCH_LIMIT = 10_000;
/** A lease record: its 8-byte ID and the leasepb.Lease (ID, TTL, remaining TTL). */
const LEASE_RECORD = LEAF_ELEMENT + 8 + 24;

function bytesOf(s: string): number {
  // Kubernetes keys are ASCII; values are JSON, mostly ASCII: count UTF-8 only when needed.
  // Native (simdutf), an order of magnitude faster than a charCodeAt loop over a JSON value.
  return Buffer.byteLength(s, 'utf8');
}

/** One record's element in the key bucket: header, revision key and the marshalled mvccpb.KeyValue. */
export function recordBytes(kv: KeyValue): number {
  const key = bytesOf(kv.key);
  let value = 1 + varintSize(key) + key;
  if (kv.version === 0) return LEAF_ELEMENT + REVISION_KEY + 1 + value;
  if (kv.createRevision) value += 1 + varintSize(kv.createRevision);
  if (kv.modRevision) value += 1 + varintSize(kv.modRevision);
  if (kv.version) value += 1 + varintSize(kv.version);
  if (kv.value.length > 0) {
    const v = bytesOf(kv.value);
    value += 1 + varintSize(v) + v;
  }
  if (kv.lease) value += 1 + varintSize(kv.lease);
  return LEAF_ELEMENT + REVISION_KEY + value;
}

function pagesFor(nodeBytes: number): number {
  return Math.max(1, Math.ceil(nodeBytes / PAGE_SIZE));
}

interface Leaf {
  /** The main revision of its first element: leaves are ordered by it. */
  first: number;
  /** Elements' bytes (without the page header). */
  bytes: number;
  count: number;
  /** Its first page, or -1 before it was first written. */
  pgid: number;
  pages: number;
  dirty: boolean;
}

interface Element {
  rev: number;
  size: number;
}

interface Branch {
  pgid: number;
  pages: number;
}

export interface BoltStats {
  /** tx.Size(): the high water mark of allocated pages, in bytes. */
  readonly sizeBytes: number;
  /** Size less the free pages. */
  readonly sizeInUseBytes: number;
  readonly pages: number;
  readonly freePages: number;
  readonly pendingPages: number;
  /** Commits of the batch transaction so far. */
  readonly commits: number;
}

export class BoltFile {
  /** The next page never allocated (meta.pgid). */
  private pgid: number;
  /** Free pages, ascending. */
  private free: number[];
  /** Pages freed by the last commit: free from the next one on. */
  private pending: number[];
  private rootPgid: number;
  private leaves: Leaf[] = [];
  /** The last leaf's elements (revision, size), which every write appends to: bbolt splits it exactly. */
  private tail: Element[] = [];
  /** The key bucket's branch levels, lowest first (empty while it is one leaf). */
  private branches: Branch[][] = [];
  private leaseBytes = 0;
  private leasePages: number[] = [];
  private leaseDirty = false;
  /** Changes in the batch not committed yet, and when the batch began. */
  private batched = 0;
  private batchStart = 0;
  private commits = 0;
  private size = { bytes: 0, inUse: 0 };

  constructor() {
    // A fresh etcd 3.4.23 member: meta pages 0 and 1, the root leaf, one page freed by its last
    // start-up commit (pending) and one free page: 20480 bytes, 16384 in use.
    this.pgid = 5;
    this.rootPgid = 4;
    this.free = [2];
    this.pending = [3];
    this.measure();
  }

  /** A record was written (a put or a tombstone) at `now`. */
  append(kv: KeyValue, now: number): void {
    this.settle(now);
    const size = recordBytes(kv);
    let last = this.leaves[this.leaves.length - 1];
    if (!last) {
      last = { first: kv.modRevision, bytes: 0, count: 0, pgid: -1, pages: 0, dirty: true };
      this.leaves.push(last);
      this.tail = [];
    }
    last.bytes += size;
    last.count++;
    last.dirty = true;
    this.tail.push({ rev: kv.modRevision, size });
    this.touch(now);
  }

  /** A compaction deleted this record from the key bucket. */
  remove(kv: KeyValue, now: number): void {
    this.settle(now);
    const i = this.leafOf(kv.modRevision);
    if (i < 0) return;
    const leaf = this.leaves[i]!;
    const size = recordBytes(kv);
    leaf.bytes = Math.max(0, leaf.bytes - size);
    leaf.count = Math.max(0, leaf.count - 1);
    leaf.dirty = true;
    if (i === this.leaves.length - 1) {
      const at = this.tail.findIndex((e) => e.rev === kv.modRevision && e.size === size);
      if (at >= 0) this.tail.splice(at, 1);
    }
    this.touch(now);
  }

  /** A lease was granted (+1) or revoked (-1): the lease bucket changes. */
  lease(delta: 1 | -1, now: number): void {
    this.settle(now);
    this.leaseBytes = Math.max(0, this.leaseBytes + delta * LEASE_RECORD);
    this.leaseDirty = true;
    this.touch(now);
  }

  /** Another write the backend makes (consistent index, compaction revision, alarm, member). */
  meta(now: number): void {
    this.settle(now);
    this.touch(now);
  }

  /** Commits the batch if its interval has passed by `now` (etcd's backend ticker). */
  settle(now: number): void {
    if (this.batched > 0 && now >= this.batchDue()) this.commit();
  }

  /** Commits whatever is batched now (a snapshot, a defragmentation or a stop forces it). */
  flush(): void {
    if (this.batched > 0) this.commit();
  }

  stats(now: number): BoltStats {
    this.settle(now);
    return {
      sizeBytes: this.size.bytes,
      sizeInUseBytes: this.size.inUse,
      pages: this.pgid,
      freePages: this.free.length,
      pendingPages: this.pending.length,
      commits: this.commits,
    };
  }

  /** etcd's Size() as of `now`. */
  sizeBytes(now: number): number {
    this.settle(now);
    return this.size.bytes;
  }

  /**
   * The member restarted: bbolt rebuilt its free list from the pages no node uses, so pages
   * pending at the stop are free.
   */
  reopen(): void {
    this.flush();
    this.free = mergeSorted(this.free, this.pending.sort((a, b) => a - b));
    this.pending = [];
    this.measure();
  }

  /**
   * etcd's Defrag: every bucket copied, in key order at a fill percent of 0.9, into a new file
   * (committed every 10,000 keys), which replaces the old one. `records` are the key bucket's
   * records (every revision the last compaction kept). The new file starts as bbolt creates
   * one (meta pages, a freelist page and an empty root leaf, both freed by the first commit);
   * opened again, its free list holds those two pages.
   */
  defragment(records: Iterable<KeyValue>): void {
    this.flush();
    const elements: Element[] = [];
    for (const kv of records) elements.push({ rev: kv.modRevision, size: recordBytes(kv) });
    elements.sort((a, b) => a.rev - b.rev);
    this.leaves = [];
    this.branches = [];
    this.tail = [];
    let pgid = 4;
    this.rootPgid = pgid++;
    if (elements.length > 0) {
      for (const node of split(elements)) {
        this.leaves.push({ first: node[0]!.rev, bytes: sum(node), count: node.length, pgid: -1, pages: 0, dirty: false });
        this.tail = node;
      }
      if (this.keyBucketInline()) {
        this.leaves[0]!.dirty = false;
      } else {
        for (const leaf of this.leaves) {
          leaf.pages = pagesFor(PAGE_HEADER + leaf.bytes);
          leaf.pgid = pgid;
          pgid += leaf.pages;
        }
        let below = this.leaves.length;
        while (below > 1) {
          const n = Math.ceil(below / BRANCH_FANOUT);
          const level: Branch[] = [];
          for (let i = 0; i < n; i++) {
            const children = Math.min(BRANCH_FANOUT, below - i * BRANCH_FANOUT);
            const pages = pagesFor(PAGE_HEADER + children * (BRANCH_ELEMENT + REVISION_KEY));
            level.push({ pgid, pages });
            pgid += pages;
          }
          this.branches.push(level);
          below = n;
        }
      }
    }
    this.leasePages = [];
    if (this.leaseBytes + PAGE_HEADER > INLINE_BUCKET) {
      const n = Math.ceil(this.leaseBytes / (SPLIT_THRESHOLD - PAGE_HEADER));
      for (let i = 0; i < n; i++) this.leasePages.push(pgid++);
    }
    this.leaseDirty = false;
    this.pgid = pgid;
    this.free = [2, 3];
    this.pending = [];
    this.batched = 0;
    this.commits++;
    this.measure();
  }

  private touch(now: number): void {
    if (this.batched === 0) this.batchStart = now;
    this.batched++;
    if (this.batched >= BATCH_LIMIT) this.commit();
  }

  /** The backend ticker's first tick after the batch began (ticks every 100 ms of virtual time). */
  private batchDue(): number {
    return (Math.floor(this.batchStart / BATCH_INTERVAL_MS) + 1) * BATCH_INTERVAL_MS;
  }

  private leafOf(rev: number): number {
    const leaves = this.leaves;
    let lo = 0;
    let hi = leaves.length - 1;
    if (hi < 0 || rev < leaves[0]!.first) return hi < 0 ? -1 : 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (leaves[mid]!.first <= rev) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private keyBucketInline(): boolean {
    return this.leaves.length === 1 && PAGE_HEADER + this.leaves[0]!.bytes <= INLINE_BUCKET;
  }

  /** One commit of the batch transaction: rebalance, spill (copy-on-write), release and measure. */
  private commit(): void {
    this.batched = 0;
    this.commits++;
    // Beginning the write transaction releases what the last one freed.
    if (this.pending.length > 0) {
      this.free = mergeSorted(this.free, this.pending.sort((a, b) => a - b));
      this.pending = [];
    }
    const structural = this.rebalance() || this.splitTail();
    // Leaves (unless the bucket is inline): copy-on-write of every dirty one.
    const inline = this.keyBucketInline();
    const dirtyIdx: number[] = [];
    for (let i = 0; i < this.leaves.length; i++) {
      const leaf = this.leaves[i]!;
      if (!leaf.dirty) continue;
      leaf.dirty = false;
      if (inline) {
        if (leaf.pgid >= 0) this.release(leaf.pgid, leaf.pages);
        leaf.pgid = -1;
        leaf.pages = 0;
        continue;
      }
      if (leaf.pgid >= 0) this.release(leaf.pgid, leaf.pages);
      leaf.pages = pagesFor(PAGE_HEADER + leaf.bytes);
      leaf.pgid = this.allocate(leaf.pages);
      dirtyIdx.push(i);
    }
    this.spillBranches(inline ? [] : dirtyIdx, structural);
    if (this.leaseDirty) {
      // Lease IDs are random: a change rewrites one leaf of the lease bucket and the branch above
      // it; its leaves are about half full (bbolt's default fill percent, random inserts).
      this.leaseDirty = false;
      const n = this.leaseBytes + PAGE_HEADER > INLINE_BUCKET ? Math.ceil(this.leaseBytes / (PAGE_SIZE / 2)) + (this.leaseBytes > PAGE_SIZE ? 1 : 0) : 0;
      const pages = this.leasePages;
      while (pages.length > n) this.release(pages.pop()!, 1);
      const rewrite = Math.min(pages.length, n > 1 ? 2 : 1);
      for (let k = pages.length - rewrite; k < pages.length; k++) {
        this.release(pages[k]!, 1);
        pages[k] = this.allocate(1);
      }
      while (pages.length < n) pages.push(this.allocate(1));
    }
    // The root leaf holds the inline buckets (the meta bucket's consistent index changes at every apply).
    this.release(this.rootPgid, 1);
    this.rootPgid = this.allocate(1);
    this.measure();
  }

  /** bbolt's rebalance: nodes under a quarter page (or empty) merge into a neighbour. */
  private rebalance(): boolean {
    let changed = false;
    const leaves = this.leaves;
    for (let i = 0; i < leaves.length; i++) {
      const leaf = leaves[i]!;
      if (!leaf.dirty) continue;
      if (leaf.count > 0 && PAGE_HEADER + leaf.bytes >= MERGE_THRESHOLD) continue;
      if (leaves.length === 1) {
        if (leaf.count === 0) {
          if (leaf.pgid >= 0) this.release(leaf.pgid, leaf.pages);
          leaves.length = 0;
          this.tail = [];
          changed = true;
        }
        break;
      }
      // Merge into the left neighbour; the first leaf takes its right neighbour in.
      const into = i > 0 ? leaves[i - 1]! : leaf;
      const from = i > 0 ? leaf : leaves[i + 1]!;
      const fromIdx = i > 0 ? i : i + 1;
      // Merged into the tail's left neighbour, the tail's elements follow it.
      if (fromIdx === leaves.length - 1) this.tail = approximateElements(into).concat(this.tail);
      into.bytes += from.bytes;
      into.count += from.count;
      into.dirty = true;
      if (from.pgid >= 0) this.release(from.pgid, from.pages);
      leaves.splice(fromIdx, 1);
      changed = true;
      i = Math.max(-1, i - 2);
    }
    return changed;
  }

  /** The last leaf, past a page, splits into leaves filled to 90% (bbolt's node.split). */
  private splitTail(): boolean {
    const last = this.leaves[this.leaves.length - 1];
    if (!last || PAGE_HEADER + last.bytes < PAGE_SIZE || this.tail.length <= 2 * MIN_KEYS) return false;
    const nodes = split(this.tail);
    if (nodes.length === 1) return false;
    this.leaves.pop();
    nodes.forEach((node, n) => {
      const bytes = sum(node);
      this.leaves.push(n === 0 ? { ...last, bytes, count: node.length, dirty: true } : { first: node[0]!.rev, bytes, count: node.length, pgid: -1, pages: 0, dirty: true });
    });
    this.tail = nodes[nodes.length - 1]!;
    return true;
  }

  /**
   * Copy-on-write of the branch levels above the leaves: a branch is rewritten when a leaf
   * below it was; when the number of leaves changed, every level is laid out again.
   */
  private spillBranches(dirtyLeaves: number[], structural: boolean): void {
    let below = this.leaves.length;
    const wantLevels: number[] = [];
    while (below > 1) {
      below = Math.ceil(below / BRANCH_FANOUT);
      wantLevels.push(below);
    }
    let dirty = new Set(dirtyLeaves.map((i) => Math.floor(i / BRANCH_FANOUT)));
    const levels: Branch[][] = [];
    let children = this.leaves.length;
    for (let l = 0; l < wantLevels.length; l++) {
      const n = wantLevels[l]!;
      const old = this.branches[l] ?? [];
      const level: Branch[] = [];
      const next = new Set<number>();
      for (let i = 0; i < n; i++) {
        const count = Math.min(BRANCH_FANOUT, children - i * BRANCH_FANOUT);
        const pages = pagesFor(PAGE_HEADER + count * (BRANCH_ELEMENT + REVISION_KEY));
        const prev = old[i];
        if (prev && !structural && !dirty.has(i) && prev.pages === pages) {
          level.push(prev);
          continue;
        }
        if (prev) this.release(prev.pgid, prev.pages);
        level.push({ pgid: this.allocate(pages), pages });
        next.add(Math.floor(i / BRANCH_FANOUT));
      }
      for (let i = n; i < old.length; i++) this.release(old[i]!.pgid, old[i]!.pages);
      levels.push(level);
      dirty = next;
      children = n;
    }
    for (let l = wantLevels.length; l < this.branches.length; l++) for (const b of this.branches[l]!) this.release(b.pgid, b.pages);
    this.branches = levels;
  }

  private release(pgid: number, pages: number): void {
    if (pgid < 0) return;
    for (let i = 0; i < pages; i++) this.pending.push(pgid + i);
  }

  /** bbolt's array freelist: the first run of `n` contiguous free pages, else the high water mark. */
  private allocate(n: number): number {
    const free = this.free;
    if (free.length > 0) {
      if (n === 1) return free.shift()!;
      let start = 0;
      for (let i = 1; i <= free.length; i++) {
        if (i - start === n) {
          const pgid = free[start]!;
          free.splice(start, n);
          return pgid;
        }
        if (i < free.length && free[i] !== free[i - 1]! + 1) start = i;
      }
    }
    const pgid = this.pgid;
    this.pgid += n;
    return pgid;
  }

  private measure(): void {
    this.size = { bytes: this.pgid * PAGE_SIZE, inUse: (this.pgid - this.free.length) * PAGE_SIZE };
  }
}

function sum(elements: readonly Element[]): number {
  let total = 0;
  for (const e of elements) total += e.size;
  return total;
}

/** bbolt's node.split: parts filled up to the threshold, at least two elements each; nodes of four or fewer never split. */
function split(elements: Element[]): Element[][] {
  const nodes: Element[][] = [];
  let total = sum(elements);
  let from = 0;
  for (;;) {
    const left = elements.length - from;
    if (left <= 2 * MIN_KEYS || PAGE_HEADER + total < PAGE_SIZE) {
      nodes.push(from === 0 ? elements : elements.slice(from));
      return nodes;
    }
    let sz = PAGE_HEADER;
    let index = 0;
    for (let i = 0; i < left - MIN_KEYS; i++) {
      index = i;
      const el = elements[from + i]!.size;
      if (i >= MIN_KEYS && sz + el > SPLIT_THRESHOLD) break;
      sz += el;
    }
    const part = elements.slice(from, from + index);
    nodes.push(part);
    total -= sum(part);
    from += index;
  }
}

/** The elements of a leaf that are not tracked one by one: its bytes spread evenly over its count. */
function approximateElements(leaf: Leaf): Element[] {
  const each = leaf.count > 0 ? leaf.bytes / leaf.count : 0;
  return Array.from({ length: leaf.count }, () => ({ rev: leaf.first, size: each }));
}

function mergeSorted(a: number[], b: number[]): number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! <= b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
