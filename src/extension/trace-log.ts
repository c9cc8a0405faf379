/**
 * The trace saved with the cluster, so that a reload (or a crash) keeps the story the panel tells:
 * one JSON record per line in a file beside cluster.json. Each save appends what the buffer got
 * since the last one (a few records, not the whole buffer), fsynced before the cluster file that
 * names the trace's next id is written; when the file holds half a buffer more than the buffer
 * does, it is written anew with the buffer's records. Reading keeps the records older than the
 * cluster file's next id (an append whose cluster file never came is not part of that cluster's
 * story) and the newest `capacity` of them; a last line cut short by a crash is dropped.
 */
import { promises as fs } from 'node:fs';
import type { SavedTrace, TraceBuffer } from '../engine/trace/buffer';
import type { TraceRecord } from '../engine/trace/types';
import { appendDurably, moveAside, writeFileDurably } from './durable-file';

/** What a save needs of the running trace, taken in the same synchronous step as the snapshot. */
export interface TracePiece {
  next: number;
  /** The oldest id the buffer still holds. */
  oldest: number;
  /** Records not in the file yet (ids in any order). */
  records: TraceRecord[];
  /** All the buffer holds, when the file is to be written anew. */
  all?: TraceRecord[];
}

export class TraceFileDamaged extends Error {
  constructor(
    readonly reason: string,
    readonly movedTo: string,
  ) {
    super(`the saved trace could not be read (${reason}); it was moved to ${movedTo}`);
  }
}

export interface ReadTrace {
  trace: SavedTrace;
  /** Set when the file could not be read and was moved aside: the trace starts empty. */
  damaged?: TraceFileDamaged;
}

/** Lines parsed between yields to the event loop. */
const LINES_PER_SLICE = 5000;

function parseLine(line: string): TraceRecord | undefined {
  const value: unknown = JSON.parse(line);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as { id?: unknown; time?: unknown; type?: unknown };
  if (!Number.isInteger(r.id) || (r.id as number) < 1 || typeof r.time !== 'number' || typeof r.type !== 'string') return undefined;
  return value as TraceRecord;
}

export class TraceLog {
  /** Whether the file is this session's: until then, the first write writes it anew. */
  private ready = false;
  /** Records in the file (lines), for deciding when to write it anew. */
  private lines = 0;
  /** Every id below this is in the file or gone from the buffer; ids at and above it may be pending. */
  private from = 1;
  /** Ids at or above `from` already in the file. */
  private readonly written = new Set<number>();

  constructor(readonly file: string) {}

  /**
   * The saved trace of a cluster whose file names `next` as the trace's next id: its newest
   * `capacity` records. A file a crash left with a cut line, or with records of a save whose
   * cluster file never came, is written anew with the records kept, so appends go on from there.
   */
  async read(next: number, capacity: number): Promise<ReadTrace> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      text = '';
    }
    const byId = new Map<number, TraceRecord>();
    const lines = text.split('\n');
    // The empty string after the last line break; or a last line an interrupted append cut short.
    const cut = lines.pop() !== '';
    let damaged: string | undefined;
    let later = false;
    for (let i = 0; i < lines.length && !damaged; i++) {
      // A full buffer is a hundred thousand lines: the extension host gets its turns meanwhile.
      if (i > 0 && i % LINES_PER_SLICE === 0) await new Promise((r) => setImmediate(r));
      try {
        const r = parseLine(lines[i]!);
        if (!r) damaged = `line ${i + 1} is not a trace record`;
        else if (r.id >= next || byId.has(r.id)) later = true;
        else byId.set(r.id, r);
      } catch (err) {
        damaged = `line ${i + 1}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    if (damaged) {
      const movedTo = await moveAside(this.file);
      this.reset(next);
      this.ready = true;
      return { trace: { next, records: [] }, damaged: new TraceFileDamaged(damaged, movedTo) };
    }
    const oldest = Math.max(1, next - capacity);
    const records = [...byId.values()].filter((r) => r.id >= oldest).sort((a, b) => a.id - b.id);
    if (cut || later) await this.rewrite(records, { next, oldest });
    else this.track(lines.length, records, { next, oldest });
    this.ready = true;
    return { trace: { next, records } };
  }

  /** What the next save writes: the records since the last one, or all of them when the file is due to be written anew. */
  take(trace: TraceBuffer): TracePiece {
    const next = trace.next;
    const oldest = Math.max(1, next - trace.capacity);
    const records: TraceRecord[] = [];
    for (let id = Math.max(this.from, oldest); id < next; id++) {
      if (this.written.has(id)) continue;
      const r = trace.get(id);
      if (r) records.push(r);
    }
    const due = !this.ready || this.lines + records.length > trace.capacity * 1.5;
    return due ? { next, oldest, records, all: trace.records() } : { next, oldest, records };
  }

  /** Writes a piece taken by `take`: appended, or the file written anew. */
  async write(piece: TracePiece): Promise<void> {
    if (piece.all) {
      await this.rewrite(piece.all, piece);
      this.ready = true;
      return;
    }
    if (piece.records.length > 0) {
      await appendDurably(this.file, piece.records.map((r) => JSON.stringify(r) + '\n').join(''));
      this.lines += piece.records.length;
      for (const r of piece.records) this.written.add(r.id);
    }
    this.advance(piece);
  }

  /** A new cluster's trace begins (fresh, or an imported snapshot): the next write writes the file anew. */
  restart(): void {
    this.reset(1);
    this.ready = false;
  }

  /** Forgets the saved trace (the cluster is reset or no longer saved). */
  async remove(): Promise<void> {
    await fs.rm(this.file, { force: true });
    this.reset(1);
    this.ready = false;
  }

  private async rewrite(records: readonly TraceRecord[], at: { next: number; oldest: number }): Promise<void> {
    const pieces = function* (): Generator<string> {
      for (let i = 0; i < records.length; i += 1000) {
        yield records
          .slice(i, i + 1000)
          .map((r) => JSON.stringify(r) + '\n')
          .join('');
      }
    };
    await writeFileDurably(this.file, pieces());
    this.track(records.length, records, at);
  }

  private track(lines: number, records: readonly TraceRecord[], at: { next: number; oldest: number }): void {
    this.reset(at.oldest);
    this.lines = lines;
    for (const r of records) this.written.add(r.id);
    this.advance(at);
  }

  private reset(from: number): void {
    this.lines = 0;
    this.from = from;
    this.written.clear();
  }

  /**
   * Moves `from` past the ids written; an id reserved and not emitted yet (a request in flight)
   * holds it until the record comes or falls out of the buffer.
   */
  private advance(at: { next: number; oldest: number }): void {
    if (this.from < at.oldest) {
      for (const id of this.written) if (id < at.oldest) this.written.delete(id);
      this.from = at.oldest;
    }
    while (this.from < at.next && this.written.has(this.from)) this.written.delete(this.from++);
  }
}
