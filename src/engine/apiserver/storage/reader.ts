/**
 * Read access to cluster state for the API server's own parts (authorizers, admission plugins,
 * allocators), the way kube-apiserver's plugins use informers and, where they must be exact,
 * live reads.
 */
import type { KubeObject } from '../../api/types';

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** A change of the watch cache, as a follower hears it. */
export interface CachedEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: KubeObject;
}

export interface ObjectReader {
  /** A consistent read of one object (from the store). */
  get(resource: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** A consistent list, of one namespace or (namespace '') of all. */
  list(resource: GroupResource, namespace?: string): Promise<KubeObject[]>;
  /** The watch cache's view: synchronous and shared, possibly a moment behind the store. */
  cached(resource: GroupResource, namespace?: string): readonly KubeObject[];
  /**
   * Follows the watch cache of a resource: its objects now as ADDED, then every change as the
   * cache applies it (for indexes kept up to date incrementally). Returns the stop function.
   */
  follow(resource: GroupResource, listener: (event: CachedEvent) => void): () => void;
}
