import type { KeyValue } from '../types';
import { BPlusTree } from './btree';
import { KeyIndex } from './key-index';
import { KeyOrder } from './key-order';

/**
 * The ordered key index (etcd's treeIndex): key -> KeyIndex in a B+tree, for point reads and
 * range scans at any retained revision.
 */
export class TreeIndex {
  private readonly order = new KeyOrder();
  private readonly tree = new BPlusTree<KeyIndex>(this.order.compare);
  /** Keys with more than one record: the only ones a compaction has to look at. */
  private withHistory: KeyIndex[] = [];

  readonly compare = this.order.compare;

  get size(): number {
    return this.tree.size;
  }

  /** The key's newest record, live or tombstone, if the index holds the key. */
  latest(key: string): KeyValue | undefined {
    return this.tree.get(key)?.latest;
  }

  get(key: string, rev: number): KeyValue | undefined {
    return this.tree.get(key)?.at(rev);
  }

  /**
   * Visits the live records at `rev` of keys in [key, end) in key order ('' as end: no upper
   * bound) until `visit` returns false.
   */
  range(key: string, end: string, rev: number, visit: (kv: KeyValue) => boolean | void): void {
    const bounded = end !== '';
    const compare = this.compare;
    this.tree.scan(key, (k, index) => {
      if (bounded && compare(k, end) >= 0) return false;
      const kv = index.at(rev);
      return kv ? visit(kv) : true;
    });
  }

  /** Records a put or a tombstone as the key's newest record. */
  append(kv: KeyValue): void {
    const index = this.tree.get(kv.key);
    if (!index) {
      this.order.admit(kv.key);
      this.tree.set(kv.key, new KeyIndex(kv));
      return;
    }
    index.append(kv);
    if (!index.queued) {
      index.queued = true;
      this.withHistory.push(index);
    }
  }

  /** Forgets history below `rev` (see KeyIndex.compact); keys left empty leave the tree. */
  compact(rev: number): void {
    const still: KeyIndex[] = [];
    for (const index of this.withHistory) {
      const key = index.latest.key;
      if (index.compact(rev)) {
        this.tree.delete(key);
      } else if (index.hasHistory) {
        still.push(index);
      } else {
        index.queued = false;
      }
    }
    this.withHistory = still;
  }
}
