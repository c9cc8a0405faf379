/**
 * The cluster in the workspace storage: one JSON file written atomically (a temporary file,
 * then a rename, so a reload in the middle of a write finds the old file or the new one, never
 * half of one), and an autosaver that coalesces the cluster's constant changes into at most one
 * write per interval. The session that started last owns the file: an older one still running
 * (code-server keeps a closed window's extension host alive for a while) stops writing.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseClusterSnapshot, snapshotJsonChunks, type ClusterSnapshot } from './snapshot';

export const SNAPSHOT_FILE = 'cluster.json';

/** Another session took over the saved cluster. */
export class SupersededError extends Error {
  constructor() {
    super('another KubeSim session saves this workspace\'s cluster now');
  }
}

export class SnapshotFile {
  private seq = 0;
  private readonly id = randomUUID();

  constructor(readonly file: string) {}

  private get ownerFile(): string {
    return `${this.file}.owner`;
  }

  /** From now on this session writes the file; one that claimed it before stops. */
  async claim(): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    await fs.writeFile(this.ownerFile, this.id, 'utf8');
  }

  /** The saved cluster; undefined when there is none. A damaged file throws, saying why. */
  async load(): Promise<ClusterSnapshot | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return parseClusterSnapshot(text);
  }

  async save(snapshot: ClusterSnapshot): Promise<void> {
    const owner = await fs.readFile(this.ownerFile, 'utf8').catch(() => undefined);
    if (owner !== this.id) throw new SupersededError();
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
    try {
      const out = await fs.open(tmp, 'w');
      try {
        for (const piece of snapshotJsonChunks(snapshot)) await out.write(piece);
      } finally {
        await out.close();
      }
      await fs.rename(tmp, this.file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async remove(): Promise<void> {
    await fs.rm(this.file, { force: true });
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
