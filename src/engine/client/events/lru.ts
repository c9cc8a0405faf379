/** k8s.io/utils/lru: a bounded map that forgets the least recently used entry. */
export class Lru<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  add(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
