/**
 * A bounded map of recent results: past its size the oldest entry goes. The managedFields caches
 * use it so that what they keep does not grow with the number of objects in the cluster.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): V {
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }
}
