/**
 * The Cluster tree: reads the extension's informer caches and refreshes only the elements a
 * batch of watch events made stale, at most every 100 ms. An empty cluster (or one not started)
 * shows no elements, so the view's welcome content with its Apply button shows instead.
 */
import * as vscode from 'vscode';
import type { ClusterSession } from '../session';
import type { ClusterView, ViewChange, ViewKind, ViewObject } from '../view-types';
import { affectedIds, groupId, isClusterEmpty, objectId, RECENT_EVENTS, ROOT_GROUPS, type TreeElement } from './elements';
import { groupItem, objectItem, type ItemSpec } from './items';

const REFRESH_MS = 100;
/** Beyond this many stale elements one full refresh is cheaper. */
const MAX_TARGETED = 200;

const STATES = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

function finished(pod: ViewObject): boolean {
  const phase = (pod.object.status as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export class ClusterTreeProvider implements vscode.TreeDataProvider<TreeElement>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeElement | TreeElement[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** One element object per id: VS Code identifies elements by object. */
  private readonly elements = new Map<string, TreeElement>();
  private readonly stale = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wasEmpty = true;
  private unsubscribe: (() => void) | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly session: ClusterSession) {
    this.subscription = session.onDidChangeCluster((host) => {
      this.unsubscribe?.();
      this.unsubscribe = host?.view.onChange((changes) => this.changed(changes));
      this.elements.clear();
      this.refreshAll();
    });
  }

  private get view(): ClusterView | undefined {
    return this.session.current?.view;
  }

  getChildren(element?: TreeElement): TreeElement[] {
    const view = this.view;
    if (!view) return [];
    if (!element) {
      this.wasEmpty = isClusterEmpty(view);
      return this.wasEmpty ? [] : ROOT_GROUPS.map((kind) => this.element({ type: 'group', id: groupId(kind), kind }));
    }
    if (element.type === 'group') return this.objects(element.kind, element.kind === 'events' ? view.recentEvents(RECENT_EVENTS) : view.list(element.kind));
    if (element.kind === 'nodes') return this.objects('pods', view.podsOnNode(element.key), element.id);
    if (element.kind === 'services') {
      const [ns, name] = element.key.split('/') as [string, string];
      return this.objects('endpointslices', view.slicesOfService(ns, name), element.id);
    }
    return [];
  }

  getTreeItem(element: TreeElement): vscode.TreeItem {
    const spec = this.itemSpec(element);
    const item = new vscode.TreeItem(spec.label, STATES[spec.collapsible]);
    item.id = element.id;
    item.description = spec.description;
    item.tooltip = spec.tooltip;
    item.contextValue = spec.contextValue;
    item.iconPath = new vscode.ThemeIcon(spec.icon.id, spec.icon.color ? new vscode.ThemeColor(spec.icon.color) : undefined);
    // A click opens the object's details in the control plane (an Event: the object it is about).
    if (element.type === 'object' && spec.contextValue !== 'gone') item.command = { command: 'kubesim.showObjectDetails', title: 'Show Details', arguments: [element] };
    return item;
  }

  /** The item as plain data (for tests and for commands invoked on an element). */
  itemSpec(element: TreeElement): ItemSpec {
    const view = this.view;
    if (element.type === 'group') return groupItem(element.kind, view ? (element.kind === 'events' ? Math.min(RECENT_EVENTS, view.count('events')) : view.count(element.kind)) : 0);
    const v = view?.get(element.kind, element.key);
    if (!v) return { label: element.key, icon: { id: 'circle-slash' }, contextValue: 'gone', collapsible: 'none' };
    if (element.kind === 'nodes') {
      const pods = view!.podsOnNode(element.key);
      const host = this.session.current;
      return objectItem(v, { podCount: pods.filter((p) => !finished(p)).length, requested: view!.requested(element.key), stopped: host ? !host.isNodeRunning(element.key) : false, hasChildren: pods.length > 0 });
    }
    if (element.kind === 'services') {
      const [ns, name] = element.key.split('/') as [string, string];
      return objectItem(v, { hasChildren: view!.slicesOfService(ns, name).length > 0 });
    }
    // A pod under its node does not repeat the node's name.
    return objectItem(v, { underNode: element.kind === 'pods' && element.parent?.startsWith('nodes:') === true });
  }

  /** Redraws everything (a node stopped or started: its kubelet's state is not an API event). */
  refreshAll(): void {
    this.stale.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.emitter.fire(undefined);
  }

  dispose(): void {
    this.unsubscribe?.();
    this.subscription.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.emitter.dispose();
  }

  private element(e: TreeElement): TreeElement {
    const known = this.elements.get(e.id);
    if (known) return known;
    this.elements.set(e.id, e);
    return e;
  }

  private objects(kind: ViewKind, objects: readonly ViewObject[], parent?: string): TreeElement[] {
    return objects.map((o) => this.element({ type: 'object', id: objectId(kind, o.key, parent), kind, key: o.key, parent }));
  }

  private changed(changes: readonly ViewChange[]): void {
    for (const c of changes) {
      for (const id of affectedIds(c)) this.stale.add(id);
      if (c.type === 'DELETED') this.forget(c);
    }
    this.timer ??= setTimeout(() => this.flush(), REFRESH_MS);
  }

  /** Drops the element objects of a deleted object (after its parent's refresh lists it no more). */
  private forget(c: ViewChange): void {
    const suffix = `${c.kind}:${c.key}`;
    for (const id of [...this.elements.keys()]) if (id === suffix || id.endsWith(`>${suffix}`)) this.elements.delete(id);
    if (c.kind === 'nodes') for (const id of [...this.elements.keys()]) if (id.startsWith(`${objectId('nodes', c.key)}>`)) this.elements.delete(id);
  }

  private flush(): void {
    this.timer = undefined;
    const empty = isClusterEmpty(this.view);
    if (empty !== this.wasEmpty || this.stale.size > MAX_TARGETED) {
      this.stale.clear();
      this.emitter.fire(undefined);
      return;
    }
    const targets = [...this.stale].map((id) => this.elements.get(id)).filter((e): e is TreeElement => e !== undefined);
    this.stale.clear();
    if (targets.length > 0) this.emitter.fire(targets);
  }
}
