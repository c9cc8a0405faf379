/**
 * The engine worker's stream to the extension host: the Cluster tree's changes and the language
 * server's mirror events, coalesced by object (the latest version of each wins while it waits)
 * and sent in bounded messages, one in flight at a time: the next goes when the extension acks
 * the last. However fast the cluster changes, the extension host deserializes at most
 * MAX_CHANGES objects per turn of its event loop, and the worker's queue holds at most one
 * entry per object.
 *
 * Nothing starves: an object that changes again while it waits keeps its place in the queue
 * (its latest version goes out when its turn comes), so each object's latest version is sent
 * within one pass of the queue however often it changes; and while both the tree's changes and
 * the mirror's wait, messages alternate between them.
 */
import type { MirrorEvent, MirrorSyncParams } from '../../protocol/language-server';
import type { FromEngine, WireViewChange } from '../../protocol/engine';

/** Objects per message at most. */
export const MAX_CHANGES = 250;
/** Wall ms from the first change to the first message of a burst (the tree refreshes at most every 100 ms). */
export const COALESCE_MS = 50;

export interface OutboxTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: OutboxTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

function mirrorKey(e: MirrorEvent): string {
  const m = (e.object.metadata ?? {}) as { namespace?: unknown; name?: unknown };
  return `${String(e.object.apiVersion)}/${String(e.object.kind)}/${String(m.namespace ?? '')}/${String(m.name ?? '')}`;
}

export class Outbox {
  private view = new Map<string, WireViewChange>();
  private mirror = new Map<string, MirrorEvent>();
  /** A full listing waiting to go (it replaces the mirror events queued before it). */
  private replace: MirrorSyncParams | undefined;
  private inFlight = false;
  private timer: unknown;
  private closed = false;
  /** Callbacks waiting until the view changes queued before them are sent: [the last such change's number, callback]. */
  private marks: [number, () => void][] = [];
  /** Numbers the view changes in the order they were queued (a re-queued change gets a new one). */
  private queued = 0;
  private readonly viewSeq = new Map<string, number>();
  private lastSent: 'view' | 'mirror' | undefined;

  constructor(
    private readonly post: (m: FromEngine) => void,
    private readonly now: () => number,
    private readonly timers: OutboxTimers = realTimers,
  ) {}

  /** Objects waiting (for tests and the bench). */
  get pending(): number {
    return this.view.size + this.mirror.size + (this.replace ? this.replace.events.length : 0);
  }

  viewChanges(changes: readonly WireViewChange[]): void {
    for (const c of changes) {
      const key = `${c.kind}/${c.key}`;
      // A waiting object keeps its place with its latest version. (Moved to the end instead, an
      // object changing more often than the queue drains would never be sent: under a 30,000-pod
      // apply a Deployment's status would stay as the tree first saw it until the cluster settled.)
      if (!this.view.has(key)) this.viewSeq.set(key, ++this.queued);
      this.view.set(key, c);
    }
    this.schedule();
  }

  /**
   * Calls `done` once every view change queued so far has been sent (or replaced by a later
   * version of its object, sent or waiting): the worker's 'started' follows its first listing so.
   */
  afterViewChanges(done: () => void): void {
    this.marks.push([this.queued, done]);
    this.settleMarks();
  }

  private settleMarks(): void {
    if (this.marks.length === 0) return;
    // The oldest change waiting: the map keeps the order they were queued in.
    let oldest = Infinity;
    for (const key of this.view.keys()) {
      oldest = this.viewSeq.get(key) ?? Infinity;
      break;
    }
    while (this.marks.length > 0 && this.marks[0]![0] < oldest) this.marks.shift()![1]();
  }

  mirrorSync(params: MirrorSyncParams): void {
    if (params.replace) {
      this.mirror.clear();
      this.replace = params;
    } else {
      for (const e of params.events) this.mirror.set(mirrorKey(e), e);
    }
    this.schedule();
  }

  /** The extension handled the message in flight. */
  ack(): void {
    this.inFlight = false;
    this.send();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.inFlight || this.timer !== undefined || this.closed) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, COALESCE_MS);
  }

  private send(): void {
    if (this.inFlight || this.closed) return;
    if (this.replace) {
      // A listing goes whole: the language server's Replace needs all of it at once.
      const params = this.replace;
      this.replace = undefined;
      return this.emit({ type: 'mirror', params });
    }
    // The tree first, but the mirror's turn comes every other message while both wait (the tree
    // alone would keep the language server's mirror waiting for as long as the cluster changes).
    const mirrorTurn = this.mirror.size > 0 && (this.view.size === 0 || this.lastSent === 'view');
    if (mirrorTurn) {
      this.lastSent = 'mirror';
      return this.emit({ type: 'mirror', params: { events: take(this.mirror) } });
    }
    if (this.view.size > 0) {
      this.lastSent = 'view';
      const changes = take(this.view, this.viewSeq);
      this.emit({ type: 'view', changes, time: this.now() });
      return this.settleMarks();
    }
  }

  private emit(m: FromEngine): void {
    this.inFlight = true;
    this.post(m);
  }
}

/** The oldest MAX_CHANGES entries, removed from the map (and from `also`). */
function take<T>(map: Map<string, T>, also?: Map<string, unknown>): T[] {
  const out: T[] = [];
  for (const [key, value] of map) {
    if (out.length >= MAX_CHANGES) break;
    out.push(value);
    map.delete(key);
    also?.delete(key);
  }
  return out;
}
