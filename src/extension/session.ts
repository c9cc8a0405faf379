/**
 * The cluster's lifetime in the editor: nothing runs until first use; then the engine bundle is
 * loaded and a cluster starts, from the workspace's saved one when there is one (persistence),
 * else fresh. Reset and Import replace it; every replacement is announced (the tree, the status
 * bar and the panel re-read). While persistence is on, changes are saved as they happen and once
 * more when the session ends. No vscode import: the extension's tests drive it in plain node too.
 */
import type { PanelCluster } from './panel/host';
import type * as HostModule from './cluster-host';
import type { ClusterHost } from './cluster-host';
import { AutoSaver, SupersededError, type SnapshotFile } from './persistence';
import type { KubeSimSettings } from './settings';
import type { ClusterSnapshot } from './snapshot';
import type { MirrorSyncParams } from '../protocol/language-server';

/** How often at most the running cluster is written to the workspace storage. */
export const SAVE_INTERVAL_MS = 1000;

export interface Disposable {
  dispose(): void;
}

/** vscode.Event's shape, without vscode. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => unknown>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    this.listeners.add(bound);
    const d = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
}

export interface SessionDeps {
  /** The engine bundle (dist/cluster-host.js), loaded on first use. */
  load(): typeof HostModule;
  settings(): KubeSimSettings;
  /** Where the cluster is saved; undefined without workspace storage (no folder open). */
  file?: SnapshotFile;
  mirror(params: MirrorSyncParams): void;
  /** Something went wrong that the user should hear of. */
  report(message: string): void;
}

export class ClusterSession {
  private host: ClusterHost | undefined;
  private starting: Promise<ClusterHost> | undefined;
  private saver: AutoSaver | undefined;
  private unsubscribe: (() => void)[] = [];
  private readonly changed = new Emitter<ClusterHost | undefined>();
  readonly onDidChangeCluster = this.changed.event;

  constructor(private readonly deps: SessionDeps) {}

  get current(): ClusterHost | undefined {
    return this.host;
  }

  /** The running cluster; the first call starts it (restoring the saved one if persistence is on). */
  get(): Promise<ClusterHost> {
    if (this.host) return Promise.resolve(this.host);
    this.starting ??= this.start(undefined).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** The panel's view of the cluster (src/extension/panel/host.ts). */
  async cluster(): Promise<PanelCluster> {
    const host = await this.get();
    return { trace: host.trace, client: host.adminClient };
  }

  /** A saved cluster waits in the workspace storage. */
  async hasSaved(): Promise<boolean> {
    if (!this.deps.file || !this.deps.settings().persistence) return false;
    try {
      return (await this.deps.file.load()) !== undefined;
    } catch {
      return false;
    }
  }

  /** Replaces the cluster with a new one from the current settings. */
  async reset(): Promise<ClusterHost> {
    await this.stop(false);
    await this.deps.file?.remove();
    return this.start('fresh');
  }

  /** Replaces the cluster with the one in a snapshot. */
  async restore(snapshot: ClusterSnapshot): Promise<ClusterHost> {
    await this.stop(false);
    return this.start(snapshot);
  }

  /** Turns saving on (saves now) or off (forgets the saved cluster). */
  async setPersistence(on: boolean): Promise<void> {
    if (on) {
      await this.deps.file?.claim();
      if (this.host) this.watchForSaves(this.host);
      this.saver?.changed();
      await this.saver?.flush();
    } else {
      await this.saver?.dispose();
      this.saver = undefined;
      await this.deps.file?.remove();
    }
  }

  /** Writes the cluster now (if it is saved at all). */
  async save(): Promise<void> {
    this.saver?.changed();
    await this.saver?.flush();
  }

  /** Saves and stops the cluster (window reload, deactivation). */
  async dispose(): Promise<void> {
    await this.stop(true);
  }

  /** `from`: a snapshot, 'fresh', or undefined for "the saved one if any". */
  private async start(from: ClusterSnapshot | 'fresh' | undefined): Promise<ClusterHost> {
    const settings = this.deps.settings();
    let restore = from === 'fresh' ? undefined : from;
    if (from === undefined && settings.persistence && this.deps.file) {
      try {
        restore = await this.deps.file.load();
      } catch (err) {
        this.deps.report(`KubeSim: the saved cluster could not be read, a new one starts: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const module = this.deps.load();
    let host: ClusterHost;
    try {
      host = await module.ClusterHost.start({ settings, restore, mirror: this.deps.mirror, onError: (err) => this.engineFailed(err) });
    } catch (err) {
      if (!restore || from !== undefined) throw err;
      this.deps.report(`KubeSim: the saved cluster could not be restored, a new one starts: ${err instanceof Error ? err.message : String(err)}`);
      host = await module.ClusterHost.start({ settings, mirror: this.deps.mirror, onError: (e) => this.engineFailed(e) });
    }
    this.host = host;
    if (settings.persistence && this.deps.file) {
      await this.deps.file.claim();
      this.watchForSaves(host);
      this.saver!.changed();
    }
    this.changed.fire(host);
    return host;
  }

  private watchForSaves(host: ClusterHost): void {
    const file = this.deps.file;
    if (!file || this.saver) return;
    this.saver = new AutoSaver(
      () => file.save(host.snapshot()),
      SAVE_INTERVAL_MS,
      (err) => {
        if (err instanceof SupersededError) void this.saver?.dispose();
        else this.deps.report(`KubeSim: the cluster could not be saved: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    const saver = this.saver;
    this.unsubscribe.push(
      host.view.onChange(() => saver.changed()),
      host.pacer.onChange(() => saver.changed()),
    );
  }

  private engineFailed(err: unknown): void {
    this.deps.report(`KubeSim: the simulation stopped (the clock is paused): ${err instanceof Error ? err.message : String(err)}`);
  }

  private async stop(save: boolean): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const host = this.host;
    if (!host) return;
    // Saved before the pause, so that a running clock is restored running.
    if (save) await this.save();
    host.pacer.pause();
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    await this.saver?.dispose();
    this.saver = undefined;
    this.host = undefined;
    await host.dispose();
    this.changed.fire(undefined);
  }
}
