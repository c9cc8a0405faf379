/**
 * A member's linearizable reads (etcdserver's linearizableReadLoop): reads that arrive while a
 * ReadIndex round is out wait for the next one; a round asks Raft for the read point, resends
 * every 500 ms and when the leader commits the first entry of its term, fails with "leader
 * changed" when a new leader appears and with "request timed out" after the request timeout,
 * and completes once the member has applied up to the read point.
 */
import type { Clock, Timer } from '../../clock';
import type { ReadState } from '../raft/types';
import { StoreError } from '../types';

/** etcdserver's readIndexRetryTime. */
export const READ_INDEX_RETRY_MS = 500;

export type ReadDone = (error: StoreError | undefined) => void;

export interface ReadIndexHost {
  readonly name: string;
  /** Asks Raft for a read point carrying ctx (RawNode.ReadIndex). */
  sendReadIndex(ctx: string): void;
  appliedIndex(): number;
  requestTimeoutMs: number;
}

interface Round {
  readonly ctx: string;
  readonly reads: ReadDone[];
  /** The read point Raft confirmed, once it did. */
  index: number | undefined;
  retry: Timer | undefined;
  timeout: Timer | undefined;
}

export class ReadIndexLoop {
  private pending: ReadDone[] = [];
  private round: Round | undefined;
  private seq = 0;

  constructor(
    private readonly host: ReadIndexHost,
    private readonly clock: Clock,
  ) {}

  request(done: ReadDone): void {
    this.pending.push(done);
    if (!this.round) this.startRound();
  }

  onReadStates(states: readonly ReadState[]): void {
    const round = this.round;
    if (!round || round.index !== undefined) return;
    // A late answer to an earlier, failed round is ignored.
    const mine = states.find((s) => s.requestCtx === round.ctx);
    if (!mine) return;
    round.index = mine.index;
    this.clearTimers(round);
    this.onApplied(this.host.appliedIndex());
  }

  onApplied(applied: number): void {
    const round = this.round;
    if (!round || round.index === undefined || applied < round.index) return;
    this.finish(undefined);
  }

  /** The leader committed the first entry of its term: a pending request may now be answered. */
  onFirstCommitInTerm(): void {
    const round = this.round;
    if (round && round.index === undefined) this.host.sendReadIndex(round.ctx);
  }

  /** A new leader: the round in flight fails with a retryable error. */
  onLeaderChanged(): void {
    if (this.round && this.round.index === undefined) this.finish(new StoreError('leaderChanged'));
  }

  /** The member stopped: every read fails. */
  abort(error: StoreError): void {
    const reads = [...(this.round?.reads ?? []), ...this.pending];
    if (this.round) this.clearTimers(this.round);
    this.round = undefined;
    this.pending = [];
    for (const done of reads) done(error);
  }

  private startRound(): void {
    const round: Round = { ctx: `${this.host.name}/read/${++this.seq}`, reads: this.pending, index: undefined, retry: undefined, timeout: undefined };
    this.pending = [];
    this.round = round;
    this.host.sendReadIndex(round.ctx);
    // Answered at once (a single member, or instant delivery): no timers needed.
    if (this.round !== round || round.index !== undefined) return;
    round.timeout = this.clock.setTimer(
      this.host.requestTimeoutMs,
      () => {
        if (this.round === round) this.finish(new StoreError('requestTimedOut'));
      },
      { label: `${this.host.name} ReadIndex timeout` },
    );
    this.scheduleRetry(round);
  }

  private scheduleRetry(round: Round): void {
    round.retry = this.clock.setTimer(
      READ_INDEX_RETRY_MS,
      () => {
        if (this.round !== round || round.index !== undefined) return;
        this.host.sendReadIndex(round.ctx);
        if (this.round === round && round.index === undefined) this.scheduleRetry(round);
      },
      { daemon: true, label: `${this.host.name} ReadIndex retry` },
    );
  }

  private finish(error: StoreError | undefined): void {
    const round = this.round!;
    this.clearTimers(round);
    this.round = undefined;
    for (const done of round.reads) done(error);
    if (this.pending.length > 0) this.startRound();
  }

  private clearTimers(round: Round): void {
    this.clock.clearTimer(round.retry);
    this.clock.clearTimer(round.timeout);
    round.retry = undefined;
    round.timeout = undefined;
  }
}
