/**
 * The Cluster tree's questions over a set of cached objects, answered once for both caches that
 * implement ClusterView (view-types.ts): the informers' in the engine worker (cluster-view.ts)
 * and the extension host's copy of the worker's stream (engine/remote-view.ts).
 */
import type { KubeObject } from '../engine/api/types';
import type { ViewChange } from './view-types';


/** The label an EndpointSlice names its Service by. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** By key ("namespace/name"), as kubectl lists. */
export function byKey(a: { readonly key: string }, b: { readonly key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** When an Event last happened: lastTimestamp, else eventTime (events.k8s.io), else its creation. */
function eventTime(e: KubeObject): string {
  const t = (e as { lastTimestamp?: unknown; eventTime?: unknown }).lastTimestamp ?? (e as { eventTime?: unknown }).eventTime ?? e.metadata.creationTimestamp;
  return typeof t === 'string' ? t : '';
}

/** Events the Cluster tree lists at most: the newest ones. */
export const RECENT_EVENTS = 50;

/** Where an Event stands in the newest-first order: when it last happened, then its write. */
export interface EventAge {
  readonly t: string;
  readonly rv: number;
}

export function eventAge(e: KubeObject): EventAge {
  return { t: eventTime(e), rv: Number(e.metadata.resourceVersion ?? 0) };
}

/** Negative when a is newer than b (it comes first), positive when older. */
export function newerFirst(a: EventAge, b: EventAge): number {
  return a.t === b.t ? b.rv - a.rv : a.t < b.t ? 1 : -1;
}

/** The newest `limit` events first (ties: the later write first). */
export function newestEvents<T>(events: Iterable<T>, objectOf: (e: T) => KubeObject, limit: number): T[] {
  return [...events]
    .map((e) => ({ e, age: eventAge(objectOf(e)) }))
    .sort((a, b) => newerFirst(a.age, b.age))
    .slice(0, limit)
    .map((x) => x.e);
}

/** What a node's pods request, as the scheduler counts them: pods not finished, cpu in millicores, memory in bytes. */
export function requestedBy<T>(pods: Iterable<T>, objectOf: (p: T) => KubeObject, requestsOf: (p: T) => { readonly milliCPU: number; readonly memory: number }): { milliCPU: number; memory: number; pods: number } {
  let milliCPU = 0;
  let memory = 0;
  let count = 0;
  for (const p of pods) {
    const phase = (objectOf(p).status as { phase?: unknown } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const r = requestsOf(p);
    milliCPU += r.milliCPU;
    memory += r.memory;
    count++;
  }
  return { milliCPU, memory, pods: count };
}

/** Whether an EndpointSlice belongs to the Service. */
export function sliceOfService(slice: KubeObject, namespace: string, name: string): boolean {
  return slice.metadata.namespace === namespace && slice.metadata.labels?.[SERVICE_NAME_LABEL] === name;
}


/** The listeners of a ClusterView's changes, and its stop: the same for both caches. */
export abstract class ViewListeners {
  private readonly listeners = new Set<(changes: readonly ViewChange[]) => void>();
  protected stopped = false;

  /** Called with each batch of changes; returns the unsubscribe function. */
  onChange(listener: (changes: readonly ViewChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** No more changes go out (the cache's owner shuts its source down). */
  stop(): void {
    this.stopped = true;
    this.listeners.clear();
  }

  protected emit(changes: readonly ViewChange[]): void {
    if (this.stopped || changes.length === 0) return;
    for (const l of [...this.listeners]) l(changes);
  }
}
