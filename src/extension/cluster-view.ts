/**
 * The editor's informer caches, beside the cluster in the engine worker: one watch per resource
 * the Cluster tree and the status bar show, made through the editor's informer factory (an API
 * client like any other, so the watches show in the control plane's request log). Changes reach
 * listeners in batches, off the clock's turn (setImmediate), with the object before and after;
 * the worker streams them to the extension host's copy (engine/remote-view.ts).
 */
import type { KubeObject } from '../engine/api/types';
import type { Clock } from '../engine/clock';
import { deletedObject, metaNamespaceKey, NODE_NAME_INDEX, nodeNameIndexFunc, type SharedIndexInformer, type SharedInformerFactory } from '../engine/client/informer';
import { DEPLOYMENTS, ENDPOINTSLICES, EVENTS, HORIZONTALPODAUTOSCALERS, NAMESPACES, NODES, PODS, REPLICASETS, SERVICES } from '../engine/client/resources';
import type { GroupVersionResource } from '../engine/api/types';
import { printerFor } from '../engine/printers';
import type { Pod } from '../engine/scheduler/api';
import { computePodResources } from '../engine/scheduler/cache/resource';
import type { Cell } from '../engine/printers/table';
import { VIEW_KINDS, type ClusterView, type ViewChange, type ViewKind, type ViewObject } from './view-types';
import { setOwn } from '../engine/api/own';
import { byKey, newestEvents, requestedBy, sliceOfService, ViewListeners } from './view-queries';

const RESOURCES: Record<ViewKind, GroupVersionResource> = {
  nodes: NODES,
  namespaces: NAMESPACES,
  deployments: DEPLOYMENTS,
  replicasets: REPLICASETS,
  horizontalpodautoscalers: HORIZONTALPODAUTOSCALERS,
  pods: PODS,
  services: SERVICES,
  endpointslices: ENDPOINTSLICES,
  events: EVENTS,
};

export class InformerClusterView extends ViewListeners implements ClusterView {
  private readonly informers = new Map<ViewKind, SharedIndexInformer>();
  /** The pods' informer (one of `informers`), typed for the scheduler's accounting of requests. */
  private readonly pods: SharedIndexInformer<Pod>;
  private pending: ViewChange[] = [];
  private flushing = false;

  constructor(
    private readonly factory: SharedInformerFactory,
    private readonly clock: Clock,
  ) {
    super();
    for (const kind of VIEW_KINDS) {
      const informer = factory.informerFor(RESOURCES[kind], {}, kind === 'pods' ? { [NODE_NAME_INDEX]: nodeNameIndexFunc } : undefined);
      informer.addEventHandler({
        onAdd: (obj) => this.queue({ kind, type: 'ADDED', key: metaNamespaceKey(obj), object: obj }),
        onUpdate: (old, obj) => {
          if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.queue({ kind, type: 'MODIFIED', key: metaNamespaceKey(obj), object: obj, old });
        },
        onDelete: (obj) => {
          const o = deletedObject(obj);
          this.queue({ kind, type: 'DELETED', key: metaNamespaceKey(o), object: o });
        },
      });
      this.informers.set(kind, informer);
    }
    this.pods = factory.informerFor<Pod>(PODS);
  }

  get synced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  whenSynced(): Promise<void> {
    return this.factory.waitForCacheSync();
  }

  list(kind: ViewKind): ViewObject[] {
    return this.rows(kind, this.informer(kind).indexer.list());
  }

  objects(kind: ViewKind): readonly KubeObject[] {
    return this.informer(kind).indexer.list();
  }

  count(kind: ViewKind): number {
    return this.informer(kind).indexer.keys().length;
  }

  get(kind: ViewKind, key: string): ViewObject | undefined {
    const obj = this.informer(kind).indexer.get(key);
    return obj ? this.viewObject(kind, obj) : undefined;
  }

  podsOnNode(nodeName: string): ViewObject[] {
    return this.rows('pods', this.informer('pods').indexer.byIndex(NODE_NAME_INDEX, nodeName));
  }

  requested(nodeName: string): { milliCPU: number; memory: number; pods: number } {
    return requestedBy(this.pods.indexer.byIndex(NODE_NAME_INDEX, nodeName), (p) => p, (p) => computePodResources(p).requests);
  }

  slicesOfService(namespace: string, name: string): ViewObject[] {
    return this.rows('endpointslices', this.informer('endpointslices').indexer.listNamespace(namespace).filter((s) => sliceOfService(s, namespace, name)));
  }

  recentEvents(limit: number): ViewObject[] {
    return newestEvents(this.informer('events').indexer.list(), (e) => e, limit).map((e) => this.viewObject('events', e));
  }

  private informer(kind: ViewKind): SharedIndexInformer {
    return this.informers.get(kind)!;
  }

  private rows(kind: ViewKind, objects: readonly KubeObject[]): ViewObject[] {
    return objects.map((o) => this.viewObject(kind, o)).sort(byKey);
  }

  /** kubectl get's cells of the object at the current virtual time, by lower-case column name. */
  row(kind: ViewKind, object: KubeObject): Record<string, Cell> {
    return this.viewObject(kind, object).row as Record<string, Cell>;
  }

  /** The object with kubectl get's cells, printed at the current virtual time. */
  private viewObject(kind: ViewKind, object: KubeObject): ViewObject {
    const gvr = RESOURCES[kind];
    const printer = printerFor(gvr.group, gvr.resource);
    const cells = printer.cells(object, { now: this.clock.now() });
    const row: Record<string, Cell> = {};
    printer.columns.forEach((c, i) => setOwn(row, c.name.toLowerCase(), cells[i] ?? null));
    return { kind, key: metaNamespaceKey(object), object, row };
  }

  private queue(change: ViewChange): void {
    if (this.stopped) return;
    this.pending.push(change);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const batch = this.pending;
      this.pending = [];
      this.emit(batch);
    });
  }
}
