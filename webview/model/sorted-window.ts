/**
 * Records kept in id order with cheap appends, near-end inserts and drops from the front: the
 * shape of a trace stream (ids mostly arrive in order; a reconcile's reserved id arrives after
 * the requests it sent) read through a bounded window (the oldest fall off).
 */
export interface HasId {
  readonly id: number;
}

export class SortedWindow<T extends HasId> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  /** The i-th item, oldest first. */
  at(i: number): T | undefined {
    return i < 0 ? undefined : this.items[this.head + i];
  }

  first(): T | undefined {
    return this.at(0);
  }

  last(): T | undefined {
    return this.at(this.length - 1);
  }

  /** Inserts in id order (scanning back from the end, where late records land); returns its index. */
  insert(item: T): number {
    let i = this.items.length;
    while (i > this.head && this.items[i - 1]!.id > item.id) i--;
    if (i === this.items.length) this.items.push(item);
    else this.items.splice(i, 0, item);
    return i - this.head;
  }

  /** The index of the item with this id, or -1. */
  indexOfId(id: number): number {
    let lo = this.head;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.items[mid]!.id;
      if (v === id) return mid - this.head;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The index of the first item with an id >= `id` (length when there is none). */
  lowerBound(id: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.id < id) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  /** Drops the `n` oldest items; returns them. */
  dropFirst(n: number): T[] {
    const count = Math.max(0, Math.min(n, this.length));
    const dropped = this.items.slice(this.head, this.head + count);
    this.advance(count);
    return dropped;
  }

  /** Drops every item with an id below `id`; returns how many. */
  dropBelow(id: number): number {
    const count = this.lowerBound(id);
    this.advance(count);
    return count;
  }

  private advance(count: number): void {
    this.head += count;
    // Reclaim the dropped prefix once it dominates, keeping drops amortized O(1).
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }
}
