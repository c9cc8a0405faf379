/**
 * The peer network between etcd members (etcd's rafthttp): each message takes half a round
 * trip, in order between two members. A stopped member neither sends nor receives; a
 * partitioned one is cut off from every other member (its clients can still reach it).
 * Messages that cannot be delivered are dropped, and the sender's Raft is told the peer is
 * unreachable, as rafthttp does. With a zero round trip, messages are delivered at once, in
 * the order they were sent, before the call that sent them returns.
 *
 * Every message is recorded (sent, then delivered or dropped) in the cluster's message stream.
 */
import type { Clock, TimerOptions } from '../../clock';
import type { TraceBuffer } from '../../trace/buffer';
import type { EtcdMessageRecord } from '../../trace/etcd';
import type { TraceDraft } from '../../trace/types';
import type { Message, NodeId, Snapshot } from '../raft/types';

export interface Peer {
  readonly name: string;
  readonly raftId: NodeId;
  isRunning(): boolean;
  receive(m: Message): void;
  /** rafthttp's ReportUnreachable and ReportSnapshot, back to the sending member's Raft. */
  reportUnreachable(to: NodeId): void;
  reportSnapshot(to: NodeId, failed: boolean): void;
  /** The snapshot to send instead of the log's (etcd merges the current database into it). */
  outgoingSnapshot(): Snapshot;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Heartbeats are the cluster's pulse: they never keep virtual time from settling. */
function isPulse(m: Message): boolean {
  return m.type === 'MsgHeartbeat' || m.type === 'MsgHeartbeatResp';
}

/**
 * Messages from one member to another: the names their records carry and the options of their
 * delivery timers ("etcd MsgApp etcd-0 -> etcd-1"), one per message type, built on first use.
 */
class Link {
  private readonly options = new Map<Message['type'], TimerOptions>();

  constructor(
    readonly from: string,
    readonly to: string,
  ) {}

  timerOptions(type: Message['type'], daemon: boolean): TimerOptions {
    let o = this.options.get(type);
    if (!o) this.options.set(type, (o = Object.freeze({ daemon, label: `etcd ${type} ${this.from} -> ${this.to}` })));
    return o;
  }
}

export class PeerNetwork {
  private readonly peers = new Map<NodeId, Peer>();
  private readonly cut = new Set<NodeId>();
  /** When each member's links last came up (it started or was healed). */
  private readonly upSince = new Map<NodeId, number>();
  private readonly queue: Array<() => void> = [];
  /** Per sender and receiver: the names and delivery timer options of messages between them. */
  private readonly links = new Map<Peer, Map<NodeId, Link>>();
  private draining = false;

  constructor(
    private readonly clock: Clock,
    private readonly messages: TraceBuffer,
    private readonly oneWayMs: () => number,
  ) {}

  add(peer: Peer): void {
    this.peers.set(peer.raftId, peer);
  }

  /** The member came up (start) or was reconnected (heal): its links are active from now. */
  linkUp(id: NodeId): void {
    this.upSince.set(id, this.clock.now());
  }

  linkDown(id: NodeId): void {
    this.upSince.delete(id);
  }

  partition(id: NodeId): void {
    this.cut.add(id);
    this.linkDown(id);
  }

  heal(id: NodeId): void {
    if (!this.cut.delete(id)) return;
    if (this.peers.get(id)?.isRunning()) this.linkUp(id);
  }

  isPartitioned(id: NodeId): boolean {
    return this.cut.has(id);
  }

  /** Why a message from `from` cannot reach `to` now, if it cannot. */
  blocked(from: NodeId, to: NodeId): 'stopped' | 'partitioned' | undefined {
    const a = this.peers.get(from);
    const b = this.peers.get(to);
    if (!a?.isRunning() || !b?.isRunning()) return 'stopped';
    if (this.cut.has(from) || this.cut.has(to)) return 'partitioned';
    return undefined;
  }

  /** Since when the link between two members has been up (etcd's peer "active since"); undefined if down. */
  activeSince(a: NodeId, b: NodeId): number | undefined {
    if (this.blocked(a, b)) return undefined;
    const x = this.upSince.get(a);
    const y = this.upSince.get(b);
    return x === undefined || y === undefined ? undefined : Math.max(x, y);
  }

  send(from: Peer, msgs: readonly Message[]): void {
    for (const raw of msgs) {
      const m = raw.type === 'MsgSnap' ? { ...raw, snapshot: from.outgoingSnapshot() } : raw;
      const link = this.link(from, m.to);
      const deliver = this.prepare(from, m, link);
      if (!deliver) continue;
      const delay = this.oneWayMs();
      if (delay === 0) this.queue.push(deliver);
      else this.clock.setTimer(delay, deliver, link.timerOptions(m.type, isPulse(m)));
    }
    this.drain();
  }

  /** The link from a member to a peer (its name and timer labels are built once, not per message). */
  private link(from: Peer, to: NodeId): Link {
    let byTo = this.links.get(from);
    if (!byTo) this.links.set(from, (byTo = new Map()));
    let link = byTo.get(to);
    if (!link) {
      const peer = this.peers.get(to);
      link = new Link(from.name, peer?.name ?? String(to));
      // A message to an unknown member is not cached: the member may join later under its name.
      if (peer) byTo.set(to, link);
    }
    return link;
  }

  /** Records the message as sent; returns its delivery, or undefined when it is dropped at once. */
  private prepare(from: Peer, m: Message, link: Link): (() => void) | undefined {
    const sent = this.record('sent', link, m);
    const reason = this.blocked(m.from, m.to);
    if (reason) {
      this.drop(from, m, link, sent, reason);
      return undefined;
    }
    return (): void => {
      const why = this.blocked(m.from, m.to);
      if (why) {
        this.drop(from, m, link, sent, why);
        return;
      }
      this.record('delivered', link, m, sent);
      this.peers.get(m.to)!.receive(m);
      if (m.type === 'MsgSnap') from.reportSnapshot(m.to, false);
    };
  }

  private drop(from: Peer, m: Message, link: Link, sent: number, reason: 'stopped' | 'partitioned'): void {
    this.record('dropped', link, m, sent, reason);
    if (!from.isRunning()) return;
    from.reportUnreachable(m.to);
    if (m.type === 'MsgSnap') from.reportSnapshot(m.to, true);
  }

  /** Delivers queued instant messages in order; messages they cause join the end of the queue. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let i = 0; i < this.queue.length; i++) this.queue[i]!();
    } finally {
      this.queue.length = 0;
      this.draining = false;
    }
  }

  private record(event: EtcdMessageRecord['event'], link: Link, m: Message, cause?: number, reason?: 'stopped' | 'partitioned'): number {
    // Built once, in the record's own key order, and handed to the buffer to stamp in place.
    const draft: Mutable<TraceDraft<EtcdMessageRecord>> = {
      type: 'etcd.message',
      component: 'etcd',
      event,
      msgType: m.type,
      from: link.from,
      to: link.to,
      term: m.term,
      index: m.index,
      logTerm: m.logTerm,
      commit: m.commit,
      entries: m.entries.length,
      reject: m.reject,
    };
    if (cause !== undefined) draft.cause = cause;
    if (reason) draft.reason = reason;
    return this.messages.emitOwned<EtcdMessageRecord>(draft).id;
  }
}
