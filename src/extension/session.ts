/**
 * The cluster's lifetime in the editor. Nothing runs until first use; then an engine worker
 * starts (src/extension/engine: a worker_threads Worker with a heap of its own, the
 * kubesim.engine.maxHeapMB setting) and the cluster in it, from the workspace's saved one when
 * there is one (persistence), else fresh. The worker loads and saves the cluster itself
 * (engine-session.ts), so no snapshot crosses to the extension host's thread. Reset and Import
 * replace the worker; every replacement is announced (the tree, the status bar and the panel
 * re-read). A worker that dies (its heap exhausted) is reported in words a user can act on and
 * dropped: the next use starts a new one, from the last save. No vscode import: the extension's
 * tests drive it in plain node too.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { HostMessage } from '../protocol/panel';
import type { PanelConnection } from './panel/feed';
import type { MirrorSyncParams } from '../protocol/language-server';
import { CurrentCluster } from './current-cluster';
import { RemoteClusterHost } from './engine/remote-host';
import type { KubeSimSettings } from './settings';

export type { Disposable, Event } from './events';
export { Emitter } from './events';

import { TRACE_FILE } from './saved-files';

export interface SessionDeps {
  /** dist/engine-worker.mjs. */
  workerFile: string;
  settings(): KubeSimSettings;
  /** Where the cluster is saved (the workspace storage's cluster.json); undefined without workspace storage (no folder open). */
  file?: string;
  mirror(params: MirrorSyncParams): void;
  /** Something went wrong that the user should hear of. */
  report(message: string): void;
  /** Something the user should know, though work goes on (a damaged save moved aside). */
  warn(message: string): void;
  /** A line for the KubeSim output, no notification. */
  log?(line: string): void;
}

type From = { from: 'saved' | 'fresh' } | { from: 'snapshot'; restoreFile: string };

export class ClusterSession extends CurrentCluster<RemoteClusterHost> {
  constructor(private readonly deps: SessionDeps) {
    super();
  }

  protected startFirst(): Promise<RemoteClusterHost> {
    return this.start({ from: 'saved' });
  }

  /** A feed of the running cluster for the control-plane panel (PanelHost): it runs in the worker, beside the cluster. */
  async connect(post: (message: HostMessage) => void): Promise<PanelConnection> {
    return (await this.get()).connectPanel(post);
  }

  /** A saved cluster waits in the workspace storage (readable or not: the worker moves a damaged one aside, and the user is told, as soon as the session starts). */
  async hasSaved(): Promise<boolean> {
    if (!this.deps.file || !this.deps.settings().persistence) return false;
    return fs.stat(this.deps.file).then(
      () => true,
      () => false,
    );
  }

  /** Replaces the cluster with a new one from the current settings (the save is removed). */
  async reset(): Promise<RemoteClusterHost> {
    await this.stop(false);
    return this.start({ from: 'fresh' });
  }

  /**
   * Replaces the cluster with the one in an exported snapshot (read and checked in the worker).
   * The new cluster starts before the old one stops: a snapshot that cannot be restored leaves
   * the running cluster as it was, and the error says why.
   */
  async restore(snapshotFile: string): Promise<RemoteClusterHost> {
    if (this.starting) await this.starting.catch(() => undefined);
    const old = this.host;
    const host = await this.start({ from: 'snapshot', restoreFile: snapshotFile }, false);
    if (old) await old.dispose(false);
    this.changed.fire(host);
    return host;
  }

  /** Turns saving on (saves now) or off (forgets the saved cluster). */
  async setPersistence(on: boolean): Promise<void> {
    if (this.host) return this.host.setPersistence(on);
    if (!on && this.deps.file) {
      await fs.rm(this.deps.file, { force: true });
      await fs.rm(path.join(path.dirname(this.deps.file), TRACE_FILE), { force: true });
    }
  }

  /** Writes the cluster now (if it is saved at all). */
  async save(): Promise<void> {
    await this.host?.save();
  }

  /** Saves and stops the cluster (window reload, deactivation). */
  async dispose(): Promise<void> {
    await this.stop(true);
  }

  /** Starts a cluster and makes it the current one; `announce`: tells the listeners at once. */
  private async start(from: From, announce = true): Promise<RemoteClusterHost> {
    const settings = this.deps.settings();
    const file = settings.persistence ? this.deps.file : undefined;
    let started: RemoteClusterHost | undefined;
    const host = await RemoteClusterHost.start({
      workerFile: this.deps.workerFile,
      settings,
      maxHeapMB: settings.engine.maxHeapMB,
      ...from,
      ...(file ? { persistence: { file } } : {}),
      mirror: this.deps.mirror,
      onNotice: (severity, message) => {
        if (severity === 'error') this.deps.report(message);
        else if (severity === 'warning') this.deps.warn(message);
        else this.deps.log?.(message);
      },
      // A crash while starting fails the start itself (its error says why).
      onCrash: (message) => void (started && this.crashed(started, message)),
    });
    started = host;
    this.host = host;
    if (announce) this.changed.fire(host);
    return host;
  }

  /** The worker died: the user hears why, the cluster goes, and the next use starts a new worker (from the last save). */
  private async crashed(host: RemoteClusterHost, message: string): Promise<void> {
    this.deps.report(`KubeSim: ${message}`);
    if (this.host !== host) return;
    this.host = undefined;
    await host.dispose().catch(() => undefined);
    this.changed.fire(undefined);
  }

  private async stop(save: boolean): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const host = this.host;
    if (!host) return;
    this.host = undefined;
    await host.dispose(save);
    this.changed.fire(undefined);
  }
}
