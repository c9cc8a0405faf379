/**
 * What the panel's feed (feed.ts) needs of a running cluster: its trace buffer, a client to read
 * through the API server, the state log, the kubelets' logs and the simulated etcd; and what the
 * panel needs of its host: a feed, and word when the cluster is replaced (Reset Cluster, Import
 * Snapshot) so the panel re-syncs.
 */
import type * as vscode from 'vscode';
import type { Client } from '../../engine/client';
import type { TraceBuffer } from '../../engine/trace/buffer';
import type { KubeletLogSource } from '../../engine/kubelet/log-source';
import type { StateLog } from './state-log';
import type { FeedCluster } from './etcd-feed';
import type { HostMessage } from '../../protocol/panel';
import { PanelFeed, type PanelConnection } from './feed';

export interface PanelCluster {
  readonly trace: TraceBuffer;
  /** The identity time-travel reads are made as, with the panel's User-Agent: the Requests view labels them as the panel's. */
  readonly client: Client;
  /** The log of the store's revisions the map, the graph and replay are drawn from. */
  readonly state: StateLog;
  /** The kubelets, for a pod's logs in the details view. */
  readonly logs?: KubeletLogSource;
  /** The simulated etcd cluster, for the etcd view (absent with a real etcd). */
  readonly etcd?: FeedCluster;
  /** Virtual now (ms). */
  readonly now?: () => number;
}

export interface PanelHost {
  /**
   * A feed of the running cluster (started on first use) that posts to the webview: in the
   * engine worker with the cluster, or a PanelFeed in this thread (inThreadPanelHost).
   */
  connect(post: (message: HostMessage) => void): Promise<PanelConnection>;
  readonly onDidChangeCluster: vscode.Event<unknown>;
}

/** A panel host over a cluster in this thread (the panel's own tests). */
export function inThreadPanelHost(cluster: () => Promise<PanelCluster>, onDidChangeCluster: vscode.Event<unknown>): PanelHost {
  return { connect: async (post) => new PanelFeed(await cluster(), post), onDidChangeCluster };
}
