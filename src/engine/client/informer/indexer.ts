/**
 * client-go's thread-safe store with indices (cache.Indexer): the informer's objects by key,
 * and for each registered index function the keys under each index value. Listing order is
 * the order objects arrived in, so it is deterministic.
 */
import type { Selector } from '../../api/labels';
import type { KubeObject } from '../../api/types';
import { NAMESPACE_INDEX, namespaceIndexFunc, type IndexFunc } from './indexers';
import { metaNamespaceKey } from './keys';

export class Indexer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunc<T>> = { [NAMESPACE_INDEX]: namespaceIndexFunc }) {
    this.addIndexers(indexers);
  }

  /** Registers index functions and indexes what is already stored. Names must be new. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
      this.indexers.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) addToIndex(index, fn(obj), key);
    }
  }

  hasIndex(name: string): boolean {
    return this.indexers.has(name);
  }

  /** Adds or replaces the object under its key. */
  set(obj: T): T | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.reindex(key, old, obj);
    return old;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.items.delete(key);
    this.reindex(key, old, undefined);
    return old;
  }

  /** Replaces the whole content (a relist). */
  replace(objects: readonly T[]): void {
    this.items.clear();
    for (const index of this.indices.values()) index.clear();
    for (const obj of objects) this.set(obj);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  getByName(namespace: string, name: string): T | undefined {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  get size(): number {
    return this.items.size;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  list(selector?: Selector): T[] {
    const out: T[] = [];
    for (const obj of this.items.values()) if (!selector || selector.matches(obj.metadata.labels ?? {})) out.push(obj);
    return out;
  }

  /** The objects of one namespace (a namespace lister), optionally through a label selector. */
  listNamespace(namespace: string, selector?: Selector): T[] {
    const objs = this.indexers.has(NAMESPACE_INDEX) ? this.byIndex(NAMESPACE_INDEX, namespace) : this.list().filter((o) => (o.metadata.namespace ?? '') === namespace);
    return selector ? objs.filter((o) => selector.matches(o.metadata.labels ?? {})) : objs;
  }

  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k)!);
  }

  indexKeys(indexName: string, value: string): string[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`Index with name ${indexName} does not exist`);
    return [...(index.get(value) ?? [])];
  }

  /** The values an index currently holds objects under. */
  indexValues(indexName: string): string[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`Index with name ${indexName} does not exist`);
    return [...index.keys()];
  }

  private reindex(key: string, old: T | undefined, obj: T | undefined): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      const before = old ? fn(old) : [];
      const after = obj ? fn(obj) : [];
      if (before.length === 1 && after.length === 1 && before[0] === after[0]) continue;
      for (const v of before) {
        const keys = index.get(v);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) index.delete(v);
      }
      addToIndex(index, after, key);
    }
  }
}

function addToIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const v of values) {
    let keys = index.get(v);
    if (!keys) index.set(v, (keys = new Set()));
    keys.add(key);
  }
}
