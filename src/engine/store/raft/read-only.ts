/**
 * Linearizable reads without a log entry (ReadIndex, Raft thesis §6.4, etcd-io/raft's readOnly
 * with ReadOnlySafe): the leader notes its commit index for each read request, then sends a
 * heartbeat round that carries the request's position; once a majority has acknowledged a
 * round, every request up to it is confirmed, because no other leader can have committed
 * anything newer.
 */
import type { Message, NodeId } from './types';
import type { ProgressTracker } from './tracker';

export interface ReadIndexRequest {
  readonly req: Message;
  readonly index: number;
}

export class ReadOnly {
  /** The highest round each voter acknowledged. */
  private readonly acks = new Map<NodeId, number>();
  private unconfirmed: ReadIndexRequest[] = [];
  private confirmed = 0;

  addRequest(commitIndex: number, req: Message): void {
    this.unconfirmed.push({ req, index: commitIndex });
  }

  recvAck(from: NodeId, ctx: string | undefined): void {
    if (!ctx) return;
    const round = Number(ctx);
    this.acks.set(from, Math.max(this.acks.get(from) ?? 0, round));
  }

  /** The requests a majority has now confirmed, oldest first. */
  maybeAdvance(tracker: ProgressTracker): ReadIndexRequest[] {
    const confirmed = tracker.majorityIndex((id) => this.acks.get(id));
    if (confirmed <= this.confirmed) return [];
    const done = this.unconfirmed.slice(0, confirmed - this.confirmed);
    this.unconfirmed = this.unconfirmed.slice(confirmed - this.confirmed);
    this.confirmed = confirmed;
    return done;
  }

  /** The round a heartbeat should carry: the position of the newest pending request. */
  heartbeatCtx(): string | undefined {
    if (this.unconfirmed.length === 0) return undefined;
    return String(this.confirmed + this.unconfirmed.length);
  }
}
