/**
 * Writing the workspace's saved cluster so that a crash, a kill -9 or a power cut leaves either
 * the old file or the new one, whole: the new content goes to a temporary file beside it, which
 * is fsynced, renamed over the old one, and the folder fsynced so the rename itself is on disk.
 * A write that was interrupted leaves its temporary file behind; the next start removes it
 * (removeInterruptedWrites). A file that cannot be read is moved aside under a timestamped name,
 * never overwritten (moveAside).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** How a temporary file is named: `<file>.<pid>.<n>.tmp`, pid the writing process. */
const TEMP = /^(.*)\.(\d+)\.(\d+)\.tmp$/;
/** A temporary file untouched this long belongs to no write in progress, whoever wrote it. */
const STALE_MS = 10 * 60 * 1000;

let sequence = 0;

/** fsync of a folder, so that a rename or a new entry in it survives a power cut. */
export async function syncFolder(folder: string): Promise<void> {
  let dir: fs.FileHandle | undefined;
  try {
    dir = await fs.open(folder, 'r');
    await dir.sync();
  } catch (err) {
    // Windows cannot open or sync a folder; its renames are durable once they return.
    if (process.platform !== 'win32') throw err;
  } finally {
    await dir?.close();
  }
}

/** Replaces `file` with the pieces' text: temporary file, fsync, rename, fsync of the folder. */
export async function writeFileDurably(file: string, pieces: Iterable<string>): Promise<void> {
  const folder = path.dirname(file);
  await fs.mkdir(folder, { recursive: true });
  const tmp = `${file}.${process.pid}.${++sequence}.tmp`;
  try {
    const out = await fs.open(tmp, 'w', 0o600);
    try {
      for (const piece of pieces) await out.write(piece);
      await out.sync();
    } finally {
      await out.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await syncFolder(folder);
}

/** Appends text to `file` (created if need be) and fsyncs it before returning. */
export async function appendDurably(file: string, text: string): Promise<void> {
  const existed = await fs.stat(file).then(
    () => true,
    () => false,
  );
  const out = await fs.open(file, 'a', 0o600);
  try {
    await out.write(text);
    await out.sync();
  } finally {
    await out.close();
  }
  if (!existed) await syncFolder(path.dirname(file));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RemovedTemp {
  file: string;
  bytes: number;
}

/**
 * Removes the temporary files of interrupted writes of these files: those whose writer is no
 * longer running, and any untouched for ten minutes. A write still under way (another window's
 * extension host) keeps its file.
 */
export async function removeInterruptedWrites(files: readonly string[]): Promise<RemovedTemp[]> {
  const removed: RemovedTemp[] = [];
  const byFolder = new Map<string, Set<string>>();
  for (const f of files) {
    const names = byFolder.get(path.dirname(f)) ?? new Set<string>();
    names.add(path.basename(f));
    byFolder.set(path.dirname(f), names);
  }
  for (const [folder, bases] of byFolder) {
    const entries = await fs.readdir(folder).catch(() => [] as string[]);
    for (const name of entries) {
      const m = TEMP.exec(name);
      if (!m || !bases.has(m[1]!)) continue;
      const file = path.join(folder, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat) continue;
      const pid = Number(m[2]);
      const inProgress = pid !== process.pid && alive(pid) && Date.now() - stat.mtimeMs < STALE_MS;
      if (inProgress || (pid === process.pid && Date.now() - stat.mtimeMs < STALE_MS)) continue;
      await fs.rm(file, { force: true });
      removed.push({ file, bytes: stat.size });
    }
  }
  return removed;
}

/** `<file>.damaged-2026-12-01T10-15-00-123Z`: where a file that could not be read is kept. */
export function asideName(file: string, when: Date): string {
  return `${file}.damaged-${when.toISOString().replace(/[:.]/g, '-')}`;
}

/** Moves a file that cannot be read out of the way, under a timestamped name; returns that name. */
export async function moveAside(file: string, when = new Date()): Promise<string> {
  let target = asideName(file, when);
  for (let n = 2; await fs.stat(target).then(() => true, () => false); n++) target = `${asideName(file, when)}-${n}`;
  await fs.rename(file, target);
  await syncFolder(path.dirname(file));
  return target;
}
