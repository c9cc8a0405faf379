/**
 * The Cluster tree's objects on the extension host's side of the engine worker: a cache of the
 * objects of the tree's kinds as summaries (what the tree reads of them, src/extension/view-summary.ts;
 * a whole object is read from the worker when shown) with the kubectl rows the worker printed, kept by the worker's
 * stream of view changes (src/protocol/engine.ts), answering the same ClusterView questions the
 * worker's informers answer (cluster-view.ts), with the same queries (view-queries.ts). Each change keeps the version it replaces, so a
 * MODIFIED carries `old` as an informer's update does. Rows are as printed when the change was
 * sent (ages move on with the next change of the object). Of the Events it holds the newest the
 * tree lists (RECENT_EVENTS), as the worker's EventWindow streams them (event-window.ts): its
 * count('events') is at most that many, and recentEvents answers as the informers would up to it.
 */
import type { KubeObject } from '../../engine/api/types';
import type { WireViewChange } from '../../protocol/engine';
import { VIEW_KINDS, type ClusterView, type ViewChange, type ViewKind, type ViewObject } from '../view-types';
import { byKey, newestEvents, requestedBy, sliceOfService, ViewListeners } from '../view-queries';

export class RemoteClusterView extends ViewListeners implements ClusterView {
  private readonly objectsByKind = new Map<ViewKind, Map<string, ViewObject>>();
  private readonly podsByNode = new Map<string, Map<string, ViewObject>>();
  /** Each pod's requests as the worker's scheduler accounting computed them. */
  private readonly podRequests = new Map<string, { readonly milliCPU: number; readonly memory: number }>();
  synced = false;

  constructor() {
    super();
    for (const kind of VIEW_KINDS) this.objectsByKind.set(kind, new Map());
  }

  /** A batch from the worker, applied and passed on to the listeners. */
  apply(changes: readonly WireViewChange[]): void {
    if (this.stopped) return;
    const out: ViewChange[] = [];
    for (const c of changes) {
      const map = this.objectsByKind.get(c.kind)!;
      const before = map.get(c.key);
      if (c.kind === 'pods' && before) this.unindexPod(before);
      if (c.type === 'DELETED') {
        map.delete(c.key);
        if (c.kind === 'pods') this.podRequests.delete(c.key);
        out.push({ kind: c.kind, type: 'DELETED', key: c.key, object: c.object });
        continue;
      }
      const v: ViewObject = { kind: c.kind, key: c.key, object: c.object, row: c.row };
      map.set(c.key, v);
      if (c.kind === 'pods') {
        this.indexPod(v);
        this.podRequests.set(c.key, c.requests ?? { milliCPU: 0, memory: 0 });
      }
      // A version the cache had not seen is an ADDED to its listeners, as an informer's first sight is.
      out.push(before ? { kind: c.kind, type: 'MODIFIED', key: c.key, object: c.object, old: before.object } : { kind: c.kind, type: 'ADDED', key: c.key, object: c.object });
    }
    this.emit(out);
  }

  list(kind: ViewKind): ViewObject[] {
    return [...this.objectsByKind.get(kind)!.values()].sort(byKey);
  }

  objects(kind: ViewKind): readonly KubeObject[] {
    return [...this.objectsByKind.get(kind)!.values()].map((v) => v.object);
  }

  count(kind: ViewKind): number {
    return this.objectsByKind.get(kind)!.size;
  }

  get(kind: ViewKind, key: string): ViewObject | undefined {
    return this.objectsByKind.get(kind)!.get(key);
  }

  podsOnNode(nodeName: string): ViewObject[] {
    return [...(this.podsByNode.get(nodeName)?.values() ?? [])].sort(byKey);
  }

  requested(nodeName: string): { milliCPU: number; memory: number; pods: number } {
    return requestedBy(this.podsByNode.get(nodeName)?.values() ?? [], (v) => v.object, (v) => this.podRequests.get(v.key) ?? { milliCPU: 0, memory: 0 });
  }

  slicesOfService(namespace: string, name: string): ViewObject[] {
    return this.list('endpointslices').filter((s) => sliceOfService(s.object, namespace, name));
  }

  recentEvents(limit: number): ViewObject[] {
    return newestEvents(this.objectsByKind.get('events')!.values(), (v) => v.object, limit);
  }

  private indexPod(v: ViewObject): void {
    const node = (v.object.spec as { nodeName?: unknown } | undefined)?.nodeName;
    if (typeof node !== 'string' || node === '') return;
    let pods = this.podsByNode.get(node);
    if (!pods) this.podsByNode.set(node, (pods = new Map()));
    pods.set(v.key, v);
  }

  private unindexPod(v: ViewObject): void {
    const node = (v.object.spec as { nodeName?: unknown } | undefined)?.nodeName;
    if (typeof node === 'string') this.podsByNode.get(node)?.delete(v.key);
  }
}
