import type { Timer } from '../../clock';
import type { WatchListener } from '../types';
import type { KeyCompare } from './btree';

export type WatcherState = 'synced' | 'unsynced' | 'closed';

/** One watch on the memory store (etcd's watcher). */
export class Watcher {
  state: WatcherState = 'unsynced';
  /** Canceled by its owner: nothing more is delivered, not even what is already queued. */
  dropped = false;
  /** etcd's per-watch progress flag: true when no events went out since the last progress tick. */
  idle = true;
  progressTimer: Timer | undefined;

  constructor(
    readonly id: number,
    readonly key: string,
    /** undefined: the single key; '': every key from `key` on; else an exclusive bound. */
    readonly end: string | undefined,
    /** The lowest revision this watcher still has to see. */
    public minRev: number,
    readonly prevKv: boolean,
    readonly noPut: boolean,
    readonly noDelete: boolean,
    readonly listener: WatchListener,
  ) {}
}

/** Watchers indexed for matching a changed key: single-key watchers by key, ranges in a list. */
export class WatcherGroup {
  private readonly byKey = new Map<string, Set<Watcher>>();
  private readonly ranges = new Set<Watcher>();
  private readonly members = new Set<Watcher>();

  constructor(private readonly compare: KeyCompare) {}

  get size(): number {
    return this.members.size;
  }

  /** In the order they were added. */
  all(): Iterable<Watcher> {
    return this.members;
  }

  add(w: Watcher): void {
    this.members.add(w);
    if (w.end !== undefined) {
      this.ranges.add(w);
      return;
    }
    let set = this.byKey.get(w.key);
    if (!set) this.byKey.set(w.key, (set = new Set()));
    set.add(w);
  }

  delete(w: Watcher): boolean {
    if (!this.members.delete(w)) return false;
    if (w.end !== undefined) {
      this.ranges.delete(w);
    } else {
      const set = this.byKey.get(w.key);
      set?.delete(w);
      if (set?.size === 0) this.byKey.delete(w.key);
    }
    return true;
  }

  /** Calls `visit` for every watcher whose range holds `key`. */
  matching(key: string, visit: (w: Watcher) => void): void {
    const exact = this.byKey.get(key);
    if (exact) for (const w of exact) visit(w);
    for (const w of this.ranges) {
      if (this.compare(w.key, key) > 0) continue;
      if (w.end === '' || this.compare(key, w.end!) < 0) visit(w);
    }
  }
}
