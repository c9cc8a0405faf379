/**
 * The cluster's lifetime in the engine worker (src/extension/engine/worker.ts), beside the
 * cluster: it starts from the workspace's saved cluster when there is one (persistence), else
 * fresh; Reset and Import replace it; while persistence is on, changes are saved as they happen
 * (durably: persistence.ts) and once more when the session ends. A save that cannot be read is
 * moved aside and the user told. Saving here, in the worker, keeps a big cluster's snapshot
 * (hundreds of MB of JSON at 30,000 pods) off the extension host's thread. No vscode import;
 * the tests drive it in plain node with the cluster in their own thread.
 */
import type * as HostModule from '../cluster-host';
import type { ClusterHost } from '../cluster-host';
import { AutoSaver, DamagedSnapshotError, SupersededError, type SnapshotFile } from '../persistence';
import type { SavedTrace } from '../../engine/trace/buffer';
import type { KubeSimSettings } from '../settings';
import type { ClusterSnapshot } from '../snapshot';
import type { MirrorSyncParams } from '../../protocol/language-server';
import { CurrentCluster } from '../current-cluster';

/** How often at most the running cluster is written to the workspace storage. */
export const SAVE_INTERVAL_MS = 1000;

export interface EngineSessionDeps {
  /** The cluster host's module (the worker imports it; the tests too). */
  load(): typeof HostModule;
  settings(): KubeSimSettings;
  /** Where the cluster is saved; undefined without workspace storage (no folder open). */
  file?: SnapshotFile;
  mirror(params: MirrorSyncParams): void;
  /** Something went wrong that the user should hear of. */
  report(message: string): void;
  /** Something the user should know, though work goes on (a damaged save moved aside). */
  warn(message: string): void;
  /** A line for the KubeSim output, no notification. */
  log?(line: string): void;
}

export class EngineSession extends CurrentCluster<ClusterHost> {
  private saver: AutoSaver | undefined;
  private unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: EngineSessionDeps) {
    super();
  }

  protected startFirst(): Promise<ClusterHost> {
    return this.start(undefined);
  }

  /**
   * A saved cluster waits in the workspace storage (readable or not: a damaged one is moved
   * aside, and the user told, as soon as the session starts).
   */
  async hasSaved(): Promise<boolean> {
    if (!this.deps.file || !this.deps.settings().persistence) return false;
    return this.deps.file.exists();
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

  /** Stops the cluster without saving it (it is about to be replaced, or it is gone with its save). */
  async close(): Promise<void> {
    await this.stop(false);
  }

  /** `from`: a snapshot, 'fresh', or undefined for "the saved one if any". */
  private async start(from: ClusterSnapshot | 'fresh' | undefined): Promise<ClusterHost> {
    const settings = this.deps.settings();
    let file = settings.persistence ? this.deps.file : undefined;
    let restore = from === 'fresh' ? undefined : from;
    let trace: SavedTrace | undefined;
    if (file) await this.removeInterruptedWrites(file);
    if (from === undefined && file) {
      try {
        const saved = await file.load(settings.traceBufferSize);
        restore = saved?.snapshot;
        trace = saved?.trace;
        if (saved?.traceDamaged) this.deps.warn(`KubeSim: ${saved.traceDamaged.message}; the cluster comes back without its trace.`);
      } catch (err) {
        if (err instanceof DamagedSnapshotError) this.deps.warn(`KubeSim: ${err.message}. A new cluster starts.`);
        else {
          // It could not even be moved aside: this session leaves it as it is and saves nothing.
          this.deps.report(`KubeSim: the saved cluster could not be read or moved aside (${err instanceof Error ? err.message : String(err)}); a new cluster starts and is not saved, ${file.file} is left as it is.`);
          file = undefined;
        }
      }
    }
    const module = this.deps.load();
    let host: ClusterHost;
    let withTrace = trace !== undefined && restore !== undefined;
    try {
      host = await module.ClusterHost.start({ settings, restore, trace, mirror: this.deps.mirror, onError: (err) => this.engineFailed(err) });
    } catch (err) {
      withTrace = false;
      if (!restore || from !== undefined) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      const damaged = file ? await file.damaged(reason).catch(() => undefined) : undefined;
      if (damaged) this.deps.warn(`KubeSim: the saved cluster could not be restored (${reason}); it was moved to ${damaged.movedTo}. A new cluster starts.`);
      else this.deps.report(`KubeSim: the saved cluster could not be restored, a new one starts: ${reason}`);
      host = await module.ClusterHost.start({ settings, mirror: this.deps.mirror, onError: (e) => this.engineFailed(e) });
    }
    this.host = host;
    if (file) {
      // A cluster that did not come with the saved trace starts a trace of its own.
      if (!withTrace) file.traceLog.restart();
      await file.claim();
      this.watchForSaves(host);
      this.saver!.changed();
    }
    this.changed.fire(host);
    return host;
  }

  /** The temporary files of a save a crash interrupted go, at the next start. */
  private async removeInterruptedWrites(file: SnapshotFile): Promise<void> {
    try {
      const removed = await file.removeInterruptedWrites();
      if (removed.length === 0) return;
      const mb = removed.reduce((n, r) => n + r.bytes, 0) / (1024 * 1024);
      const s = removed.length === 1 ? '' : 's';
      this.deps.log?.(`# removed ${removed.length} temporary file${s} of an interrupted save (${mb.toFixed(1)} MB): ${removed.map((r) => r.file).join(', ')}`);
    } catch (err) {
      this.deps.report(`KubeSim: the temporary files of an interrupted save could not be removed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private watchForSaves(host: ClusterHost): void {
    const file = this.deps.file;
    if (!file || this.saver) return;
    this.saver = new AutoSaver(
      () => file.save(host.snapshot(), host.trace),
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
      host.trace.subscribe(() => saver.changed()),
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
