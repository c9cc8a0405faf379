/**
 * The leader's view of the group (etcd-io/raft's tracker and quorum packages, for one majority
 * configuration): each voter's Progress, the votes of an election, and the majority rules that
 * decide the commit index, an election and whether the quorum is still active.
 */
import { Progress } from './progress';
import type { NodeId } from './types';

export type VoteResult = 'VotePending' | 'VoteLost' | 'VoteWon';

export class ProgressTracker {
  readonly voters: readonly NodeId[];
  readonly progress = new Map<NodeId, Progress>();
  readonly votes = new Map<NodeId, boolean>();
  /** The voters' values while a majority index is found (reused: it runs on every append response). */
  private readonly scratch: number[] = [];

  constructor(
    voters: readonly NodeId[],
    readonly maxInflight: number,
    readonly maxInflightBytes: number,
  ) {
    this.voters = [...voters].sort((a, b) => a - b);
  }

  /** Voters needed for a majority. */
  quorum(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }

  isSingleton(): boolean {
    return this.voters.length === 1;
  }

  /** In id order, so that every node sends its messages in the same order. */
  visit(fn: (id: NodeId, pr: Progress) => void): void {
    for (const id of this.voters) {
      const pr = this.progress.get(id);
      if (pr) fn(id, pr);
    }
  }

  /** The largest index that a majority of voters have (the quorum's commit index). */
  committed(): number {
    const n = this.voters.length;
    if (n === 0) return Number.MAX_SAFE_INTEGER;
    const values = this.scratch;
    for (let i = 0; i < n; i++) insertDescending(values, i, this.progress.get(this.voters[i]!)?.match ?? 0);
    return values[this.quorum() - 1]!;
  }

  /** The largest value at least a majority of voters have reached; unknown ones count as 0. */
  majorityIndex(valueOf: (id: NodeId) => number | undefined): number {
    const n = this.voters.length;
    if (n === 0) return Number.MAX_SAFE_INTEGER;
    const values = this.scratch;
    for (let i = 0; i < n; i++) insertDescending(values, i, valueOf(this.voters[i]!) ?? 0);
    return values[this.quorum() - 1]!;
  }

  /** Whether a majority of voters were heard from recently (the leader counts itself). */
  quorumActive(): boolean {
    let active = 0;
    for (const id of this.voters) if (this.progress.get(id)?.recentActive) active++;
    return active >= this.quorum();
  }

  resetVotes(): void {
    this.votes.clear();
  }

  recordVote(id: NodeId, granted: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, granted);
  }

  tallyVotes(): { granted: number; rejected: number; result: VoteResult } {
    let granted = 0;
    let rejected = 0;
    for (const id of this.voters) {
      const v = this.votes.get(id);
      if (v === true) granted++;
      else if (v === false) rejected++;
    }
    const q = this.quorum();
    const missing = this.voters.length - granted - rejected;
    const result: VoteResult = granted >= q ? 'VoteWon' : granted + missing >= q ? 'VotePending' : 'VoteLost';
    return { granted, rejected, result };
  }
}

/** Inserts v into values[0..count), kept largest first (an insertion sort: a group has 1 to 7 voters). */
function insertDescending(values: number[], count: number, v: number): void {
  let j = count;
  while (j > 0 && values[j - 1]! < v) {
    values[j] = values[j - 1]!;
    j--;
  }
  values[j] = v;
}
