import type { KeyValue } from '../types';
import { BPlusTree } from './btree';
import { KeyIndex, isTombstone } from './key-index';
import { KeyOrder } from './key-order';

/**
 * The key index (etcd's treeIndex): key -> history, in a B+tree for range scans and in a hash
 * map for point reads (a tree descent over a million keys costs ~20 cache-missing string
 * comparisons). Most keys have a single live record, held bare; a KeyIndex appears only once
 * a key has history.
 */
type Entry = KeyValue | KeyIndex;

function recordAt(entry: Entry, rev: number): KeyValue | undefined {
  if (entry instanceof KeyIndex) return entry.at(rev);
  return entry.modRevision <= rev ? entry : undefined;
}

export class TreeIndex {
  private readonly order = new KeyOrder();
  private readonly tree = new BPlusTree<Entry>(this.order.compare);
  private readonly byKey = new Map<string, Entry>();
  /** Every KeyIndex in the tree (keys with history): all a compaction has to look at. */
  private withHistory: KeyIndex[] = [];

  readonly compare = this.order.compare;

  /** The key's newest record, live or tombstone, if the index holds the key. */
  latest(key: string): KeyValue | undefined {
    const entry = this.byKey.get(key);
    return entry instanceof KeyIndex ? entry.latest : entry;
  }

  get(key: string, rev: number): KeyValue | undefined {
    const entry = this.byKey.get(key);
    return entry && recordAt(entry, rev);
  }

  /**
   * Visits the live records at `rev` of keys in [key, end) in key order ('' as end: no upper
   * bound) until `visit` returns false.
   */
  range(key: string, end: string, rev: number, visit: (kv: KeyValue) => boolean | void): void {
    const bounded = end !== '';
    const compare = this.compare;
    this.tree.scan(key, (k, entry) => {
      if (bounded && compare(k, end) >= 0) return false;
      const kv = recordAt(entry, rev);
      return kv ? visit(kv) : true;
    });
  }

  /** Visits each key's history (its records oldest first, tombstones included), in no set order. */
  forEachKey(visit: (records: readonly KeyValue[]) => void): void {
    for (const entry of this.byKey.values()) visit(entry instanceof KeyIndex ? entry.records() : [entry]);
  }

  /** Visits every record the index holds (each key's history, oldest first), in key order. */
  forEachRecord(visit: (kv: KeyValue) => void): void {
    this.tree.scan('', (_key, entry) => {
      if (entry instanceof KeyIndex) for (const kv of entry.records()) visit(kv);
      else visit(entry);
    });
  }

  /** Records a put or a tombstone as the key's newest record. */
  append(kv: KeyValue): void {
    const entry = this.byKey.get(kv.key);
    if (!entry) {
      this.order.admit(kv.key);
      this.store(kv.key, kv);
    } else if (entry instanceof KeyIndex) {
      entry.append(kv);
    } else {
      const index = new KeyIndex(entry);
      index.append(kv);
      this.withHistory.push(index);
      this.store(kv.key, index);
    }
  }

  /** Forgets history below `rev` (see KeyIndex.compact); keys left empty leave the tree. */
  compact(rev: number, dropped?: (kv: KeyValue) => void): void {
    const still: KeyIndex[] = [];
    for (const index of this.withHistory) {
      const key = index.latest.key;
      if (index.compact(rev, dropped)) {
        this.tree.delete(key);
        this.byKey.delete(key);
      } else if (index.hasHistory) {
        still.push(index);
      } else {
        // Back to a bare record: the one left is live (a tombstone never stands alone).
        if (!isTombstone(index.latest)) this.store(key, index.latest);
      }
    }
    this.withHistory = still;
  }

  private store(key: string, entry: Entry): void {
    this.tree.set(key, entry);
    this.byKey.set(key, entry);
  }
}
