/**
 * What the editor's widgets read from the running cluster: the objects of a few resources as the
 * extension's informers cache them, each with its `kubectl get` row (the API server's printer
 * cells, by lower-case column name). Shared by the engine side (cluster-view.ts) and the vscode
 * side (tree, status bar), so it holds types only.
 */
import type { KubeObject } from '../engine/api/types';
import type { Cell } from '../engine/printers/table';

import { ENGINE_VIEW_KINDS, type EngineViewKind } from '../protocol/engine';

export const VIEW_KINDS = ENGINE_VIEW_KINDS;
export type ViewKind = EngineViewKind;

export interface ViewObject {
  readonly kind: ViewKind;
  /** "namespace/name", or "name" for cluster-scoped objects (client-go's MetaNamespaceKey). */
  readonly key: string;
  /** The object; on the extension host's side of the engine worker, its summary (view-summary.ts: what the tree reads). */
  readonly object: KubeObject;
  /** kubectl get's cells by lower-case column name: status, ready, restarts, node, ... */
  readonly row: Readonly<Record<string, Cell>>;
}

export interface ViewChange {
  readonly kind: ViewKind;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly key: string;
  readonly object: KubeObject;
  /** The version before a MODIFIED. */
  readonly old?: KubeObject;
}

export interface ClusterView {
  /** True once every informer listed its resource. */
  readonly synced: boolean;
  /** The objects with their rows, sorted by key. */
  list(kind: ViewKind): ViewObject[];
  /** The cached objects as they are (no rows, no order): cheap, for counting. */
  objects(kind: ViewKind): readonly KubeObject[];
  count(kind: ViewKind): number;
  get(kind: ViewKind, key: string): ViewObject | undefined;
  podsOnNode(nodeName: string): ViewObject[];
  /** What the node's pods request, as the scheduler counts them (pods not finished: cpu in millicores, memory in bytes). */
  requested(nodeName: string): { readonly milliCPU: number; readonly memory: number; readonly pods: number };
  /** The EndpointSlices labelled kubernetes.io/service-name=<name> in the namespace. */
  slicesOfService(namespace: string, name: string): ViewObject[];
  /** The newest events first. */
  recentEvents(limit: number): ViewObject[];
  /** Called with each batch of changes the informers delivered; returns the unsubscribe function. */
  onChange(listener: (changes: readonly ViewChange[]) => void): () => void;
}
