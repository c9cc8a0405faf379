/**
 * The cluster in the workspace storage: cluster.json (the snapshot) and cluster.trace.jsonl (the
 * trace, trace-log.ts), each written durably (durable-file.ts: a temporary file fsynced, renamed
 * over the old one, the folder fsynced), so a reload or a crash in the middle of a save finds the
 * old cluster or the new one, never half of one. A saved cluster that cannot be read is moved
 * aside under a timestamped name, never overwritten, and the caller says where. The temporary
 * files of an interrupted save are removed at the next start. An autosaver coalesces the
 * cluster's constant changes into at most one save per interval. The session that started last
 * owns the files: an older one still running (code-server keeps a closed window's extension host
 * alive for a while) stops writing.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SavedTrace, TraceBuffer } from '../engine/trace/buffer';
import { moveAside, removeInterruptedWrites, writeFileDurably, type RemovedTemp } from './durable-file';
import { parseClusterSnapshot, snapshotJsonChunks, type ClusterSnapshot } from './snapshot';
import { TraceLog, type TraceFileDamaged } from './trace-log';
import { TRACE_FILE } from './saved-files';

export { SNAPSHOT_FILE, TRACE_FILE } from './saved-files';

/** Another session took over the saved cluster. */
export class SupersededError extends Error {
  constructor() {
    super('another KubeSim session saves this workspace\'s cluster now');
  }
}

/** The saved cluster could not be read: it was moved aside, to `movedTo`. */
export class DamagedSnapshotError extends Error {
  constructor(
    readonly reason: string,
    readonly movedTo: string,
  ) {
    super(`the saved cluster could not be read (${reason}); it was moved to ${movedTo}`);
  }
}

export interface SavedCluster {
  snapshot: ClusterSnapshot;
  /** The trace as it was (empty when the snapshot names no trace position). */
  trace: SavedTrace;
  /** The trace file could not be read and was moved aside: the cluster comes back without its history. */
  traceDamaged?: TraceFileDamaged;
}

export class SnapshotFile {
  private readonly id = randomUUID();
  readonly traceLog: TraceLog;

  constructor(
    readonly file: string,
    traceFile = path.join(path.dirname(file), TRACE_FILE),
  ) {
    this.traceLog = new TraceLog(traceFile);
  }

  private get ownerFile(): string {
    return `${this.file}.owner`;
  }

  /** From now on this session writes the files; one that claimed them before stops. */
  async claim(): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    await fs.writeFile(this.ownerFile, this.id, 'utf8');
  }

  /** Whether there is a saved cluster (readable or not). */
  async exists(): Promise<boolean> {
    return fs.stat(this.file).then(
      () => true,
      () => false,
    );
  }

  /** Removes what interrupted saves left behind (their writers are gone). */
  removeInterruptedWrites(): Promise<RemovedTemp[]> {
    return removeInterruptedWrites([this.file, this.traceLog.file]);
  }

  /**
   * The saved cluster, its trace holding at most `traceCapacity` records; undefined when there is
   * none. One that cannot be read is moved aside (with its trace) and DamagedSnapshotError says where.
   */
  async load(traceCapacity: number): Promise<SavedCluster | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      // Unreadable (a folder in its place, no permission): out of the way too, if it can be moved.
      throw await this.damaged(err instanceof Error ? err.message : String(err));
    }
    let snapshot: ClusterSnapshot;
    try {
      snapshot = parseClusterSnapshot(text);
    } catch (err) {
      // JSON.parse quotes the bytes it stopped at: binary garbage stays on one readable line.
      throw await this.damaged((err instanceof Error ? err.message : String(err)).replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?'));
    }
    if (!snapshot.trace) {
      await this.traceLog.remove();
      return { snapshot, trace: { next: 1, records: [] } };
    }
    const read = await this.traceLog.read(snapshot.trace.next, traceCapacity);
    return { snapshot, trace: read.trace, traceDamaged: read.damaged };
  }

  /**
   * Moves the saved cluster (and its trace) aside because it cannot be used; the error to report.
   * Also for a snapshot that reads but cannot be restored.
   */
  async damaged(reason: string): Promise<DamagedSnapshotError> {
    const when = new Date();
    const movedTo = await moveAside(this.file, when);
    if (await fs.stat(this.traceLog.file).then(() => true, () => false)) await moveAside(this.traceLog.file, when);
    await this.traceLog.remove();
    return new DamagedSnapshotError(reason, movedTo);
  }

  /**
   * Saves the snapshot with the trace, both as they are now: the trace's new records are taken
   * before anything is awaited (the snapshot was taken in the same step), written and fsynced
   * first, then the snapshot that names how far the trace goes.
   */
  async save(snapshot: ClusterSnapshot, trace?: TraceBuffer): Promise<void> {
    const piece = trace && this.traceLog.take(trace);
    const owner = await fs.readFile(this.ownerFile, 'utf8').catch(() => undefined);
    if (owner !== this.id) throw new SupersededError();
    if (piece) await this.traceLog.write(piece);
    await writeFileDurably(this.file, snapshotJsonChunks(piece ? { ...snapshot, trace: { next: piece.next } } : snapshot));
  }

  async remove(): Promise<void> {
    await fs.rm(this.file, { force: true });
    await this.traceLog.remove();
  }
}

/**
 * Runs `save` at most once per `intervalMs` while changes keep coming: the first change after a
 * write schedules the next one; changes meanwhile ride along.
 */
export class AutoSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();
  private dirty = false;
  private disposed = false;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  changed(): void {
    if (this.disposed) return;
    this.dirty = true;
    this.timer ??= setTimeout(() => void this.run(), this.intervalMs);
  }

  /** Writes now if anything changed since the last write; resolves when the file is written. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.run();
  }

  /** Stops saving; resolves once a write already under way has finished. */
  dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.running;
  }

  private run(): Promise<void> {
    this.timer = undefined;
    this.running = this.running.then(async () => {
      if (!this.dirty || this.disposed) return;
      this.dirty = false;
      try {
        await this.save();
      } catch (err) {
        this.onError(err);
      }
    });
    return this.running;
  }
}
