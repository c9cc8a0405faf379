/** A binary heap keyed by string (backend/heap): add-or-update, delete and lookup by key in O(log n). */
export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get length(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i]!;
    this.removeAt(i);
    return item;
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0]!;
    this.removeAt(0);
    return top;
  }

  list(): T[] {
    return this.items.slice();
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keyOf(this.items[i]!));
    if (i !== last) {
      this.items[i] = this.items[last]!;
      this.index.set(this.keyOf(this.items[i]!), i);
      this.items.pop();
      this.fix(i);
    } else {
      this.items.pop();
    }
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  private up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[p]!)) break;
      this.swap(i, p);
      i = p;
    }
    return i !== start;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(this.items[l]!, this.items[m]!)) m = l;
      if (r < n && this.less(this.items[r]!, this.items[m]!)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const x = this.items[a]!;
    const y = this.items[b]!;
    this.items[a] = y;
    this.items[b] = x;
    this.index.set(this.keyOf(y), a);
    this.index.set(this.keyOf(x), b);
  }
}
