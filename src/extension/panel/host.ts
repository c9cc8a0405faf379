/**
 * What the panel needs from the extension's cluster host (src/extension/cluster-host.ts): the
 * running cluster's trace buffer, a client to read through the API server, and word when the
 * cluster is replaced (Reset Cluster, Import Snapshot) so the panel re-syncs.
 */
import type * as vscode from 'vscode';
import type { Client } from '../../engine/client';
import type { TraceBuffer } from '../../engine/trace/buffer';

export interface PanelCluster {
  readonly trace: TraceBuffer;
  /** The identity time-travel reads are made as; they show in the Requests view like any request. */
  readonly client: Client;
}

export interface PanelHost {
  /** The running cluster; starts it on first use. */
  cluster(): Promise<PanelCluster>;
  readonly onDidChangeCluster: vscode.Event<unknown>;
}
