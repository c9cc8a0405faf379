/**
 * What request handlers use of a resource's storage: the resource's own (ResourceStorage), or a
 * view of another version's or another group's storage that converts objects on their way in
 * and out (ConvertedStorage: events.k8s.io Events kept as core Events, a custom resource's
 * versions kept in its storage version).
 */
import type { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { KeyValue, RangeResponse, Store } from '../../store/types';
import type { ResourceInfo } from '../resources';
import type { StoredObject, UpdateOutcome, WriteResult } from './resource-storage';
import type { CacheWatcher, CacheWatchOptions } from './watch-cache';

/** The watch cache's reads and watches. */
export interface CacheReader {
  readonly resourceVersion: number;
  get(key: string): KubeObject | undefined;
  list(keyPrefix?: string): readonly KubeObject[];
  watch(options: CacheWatchOptions): CacheWatcher | StatusError;
}

export interface ServedStorage {
  readonly type: ResourceInfo;
  readonly cache: CacheReader;
  readonly store: Store;
  readonly keyPrefix: string;
  readonly triggerField: string | undefined;
  key(namespace: string, name: string): string;
  prefix(namespace: string): string;
  decode(kv: KeyValue): KubeObject;
  get(key: string, revision?: number): Promise<StoredObject | undefined>;
  /** The watch cache's object for a key: where GuaranteedUpdate starts without reading etcd (it may be behind). */
  suggestion(key: string): StoredObject | undefined;
  create(key: string, obj: KubeObject, dryRun: boolean): Promise<WriteResult>;
  update(key: string, obj: KubeObject, expected: StoredObject, dryRun: boolean, expectedIsCurrent?: boolean): Promise<UpdateOutcome>;
  delete(key: string, expected: StoredObject, dryRun: boolean): Promise<WriteResult | undefined>;
  range(fromKey: string, rangeEnd: string, revision: number, limit: number): Promise<RangeResponse>;
  rangeEndOf(prefix: string): string;
}
