/**
 * The Raft state machine of one node, as etcd-io/raft implements it and etcd 3.4+ configures
 * it (pre-vote, check-quorum, ReadOnlySafe reads, leader transfer, snapshots for followers
 * behind the compacted log). It is a pure step function: messages and ticks go in, state
 * changes and outgoing messages come out (read by RawNode as a Ready); it never touches a
 * clock, a disk or a network. Membership is static: the voters come from the storage.
 */
import { ReadOnly } from './read-only';
import { RaftLog } from './log';
import { Progress } from './progress';
import type { MemoryStorage } from './storage';
import { ProgressTracker } from './tracker';
import {
  CAMPAIGN_TRANSFER,
  NONE,
  PROPOSAL_DROPPED,
  message,
  voteResponseType,
  type Entry,
  type HardState,
  type Message,
  type MessageType,
  type NodeId,
  type ReadState,
  type Snapshot,
  type StateType,
} from './types';

export interface RaftConfig {
  id: NodeId;
  /** Ticks a follower waits without hearing from a leader before it campaigns (etcd: 10 x 100 ms). */
  electionTick: number;
  /** Ticks between a leader's heartbeats (etcd: 1). */
  heartbeatTick: number;
  storage: MemoryStorage;
  /** The last applied index, when restarting. */
  applied?: number;
  /** Bytes of entries in one append message (etcd: 1 MiB); 0 for one entry per message. */
  maxSizePerMsg?: number;
  maxCommittedSizePerReady?: number;
  /** Bytes of uncommitted entries a leader accepts before dropping proposals; 0 for no limit. */
  maxUncommittedEntriesSize?: number;
  /** Append messages in flight to one follower (etcd: 512). */
  maxInflightMsgs?: number;
  maxInflightBytes?: number;
  checkQuorum?: boolean;
  preVote?: boolean;
  disableProposalForwarding?: boolean;
  /** A uniform integer in [0, n): the seeded source of randomized election timeouts. */
  randomInt: (n: number) => number;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

type CampaignType = 'CampaignPreElection' | 'CampaignElection' | typeof CAMPAIGN_TRANSFER;

export class Raft {
  readonly id: NodeId;
  term = 0;
  vote: NodeId = NONE;
  readStates: ReadState[] = [];
  raftLog: RaftLog;
  trk: ProgressTracker;
  state: StateType = 'StateFollower';
  /** Messages to send now. */
  msgs: Message[] = [];
  /** Messages to send once the unstable state is durable (votes and append acknowledgements). */
  msgsAfterAppend: Message[] = [];
  lead: NodeId = NONE;
  leadTransferee: NodeId = NONE;
  electionElapsed = 0;
  heartbeatElapsed = 0;
  readonly electionTimeout: number;
  readonly heartbeatTimeout: number;
  randomizedElectionTimeout = 0;
  checkQuorum: boolean;
  preVote: boolean;
  readOnly = new ReadOnly();
  private readonly maxMsgSize: number;
  private readonly maxUncommittedSize: number;
  private uncommittedSize = 0;
  readonly disableProposalForwarding: boolean;
  private readonly randomInt: (n: number) => number;
  private pendingReadIndexMessages: Message[] = [];
  private tickFn: () => void;
  /** Replaced by tests that check which messages reach the role-specific step. */
  stepFn: (r: Raft, m: Message) => string | undefined;

  constructor(c: RaftConfig) {
    if (c.id === NONE) throw new Error('cannot use none as id');
    if (c.heartbeatTick <= 0) throw new Error('heartbeat tick must be greater than 0');
    if (c.electionTick <= c.heartbeatTick) throw new Error('election tick must be greater than heartbeat tick');
    const maxSizePerMsg = c.maxSizePerMsg ?? 0;
    this.id = c.id;
    this.raftLog = new RaftLog(c.storage, c.maxCommittedSizePerReady || maxSizePerMsg || NO_LIMIT);
    this.maxMsgSize = maxSizePerMsg;
    this.maxUncommittedSize = c.maxUncommittedEntriesSize || NO_LIMIT;
    const maxInflight = c.maxInflightMsgs ?? 256;
    if (maxInflight <= 0) throw new Error('max inflight messages must be greater than 0');
    const { hardState, voters } = c.storage.initialState();
    this.trk = new ProgressTracker(voters, maxInflight, c.maxInflightBytes ?? 0);
    for (const id of this.trk.voters) this.trk.progress.set(id, new Progress(0, this.raftLog.lastIndex() + 1, maxInflight, c.maxInflightBytes ?? 0));
    this.electionTimeout = c.electionTick;
    this.heartbeatTimeout = c.heartbeatTick;
    this.checkQuorum = c.checkQuorum ?? false;
    this.preVote = c.preVote ?? false;
    this.disableProposalForwarding = c.disableProposalForwarding ?? false;
    this.randomInt = c.randomInt;
    this.tickFn = () => this.tickElection();
    this.stepFn = stepFollower;
    if (hardState.term !== 0 || hardState.vote !== NONE || hardState.commit !== 0) this.loadState(hardState);
    if (c.applied) this.raftLog.appliedTo(c.applied, 0);
    this.becomeFollower(this.term, NONE);
  }

  hasLeader(): boolean {
    return this.lead !== NONE;
  }

  softState(): { lead: NodeId; raftState: StateType } {
    return { lead: this.lead, raftState: this.state };
  }

  hardState(): HardState {
    return { term: this.term, vote: this.vote, commit: this.raftLog.committed };
  }

  tick(): void {
    this.tickFn();
  }

  /** Queues a message; the term is set here except on votes (which carry the campaign's term) and local requests. */
  send(fields: Partial<Message> & Pick<Message, 'type' | 'to'>): void {
    const t = fields.type;
    const m = message(fields) as { -readonly [K in keyof Message]: Message[K] };
    if (fields.from === undefined) m.from = this.id;
    if (t === 'MsgVote' || t === 'MsgVoteResp' || t === 'MsgPreVote' || t === 'MsgPreVoteResp') {
      if (m.term === 0) throw new Error(`term should be set when sending ${t}`);
    } else {
      if (m.term !== 0) throw new Error(`term should not be set when sending ${t} (was ${m.term})`);
      // Proposals and read requests forwarded to the leader are local requests: no term.
      if (t !== 'MsgProp' && t !== 'MsgReadIndex') m.term = this.term;
    }
    if (t === 'MsgAppResp' || t === 'MsgVoteResp' || t === 'MsgPreVoteResp') {
      // A vote or an append acknowledgement may only leave once what it vouches for is on disk.
      this.msgsAfterAppend.push(m);
    } else {
      if (m.to === this.id) throw new Error(`message should not be self-addressed when sending ${t}`);
      this.msgs.push(m);
    }
  }

  /** Sends a request on to the leader; it keeps its origin (ours if it had none). */
  private forward(m: Message, to: NodeId): void {
    this.msgs.push({ ...m, to, from: m.from === NONE ? this.id : m.from });
  }

  sendAppend(to: NodeId): void {
    this.maybeSendAppend(to, true);
  }

  /**
   * Sends an append with the entries `to` lacks (and the commit index), unless its progress is
   * paused or, with sendIfEmpty false, there is nothing new. Sends a snapshot instead when the
   * entries are compacted away. Returns whether a message was sent.
   */
  maybeSendAppend(to: NodeId, sendIfEmpty: boolean): boolean {
    const pr = this.trk.progress.get(to)!;
    if (pr.isPaused()) return false;
    const prevIndex = pr.next - 1;
    const prevTerm = this.raftLog.term(prevIndex);
    if (prevTerm === undefined) return this.maybeSendSnapshot(to, pr);
    let ents: Entry[] = [];
    if (pr.state !== 'StateReplicate' || !pr.inflights.full()) {
      const got = this.raftLog.entries(pr.next, this.maxMsgSize);
      if (got === 'compacted') return this.maybeSendSnapshot(to, pr);
      ents = got;
    }
    if (ents.length === 0 && !sendIfEmpty) return false;
    this.send({ to, type: 'MsgApp', index: prevIndex, logTerm: prevTerm, entries: ents, commit: this.raftLog.committed });
    pr.sentEntries(ents.length, payloadsSize(ents));
    pr.sentCommit = this.raftLog.committed;
    return true;
  }

  private maybeSendSnapshot(to: NodeId, pr: Progress): boolean {
    if (!pr.recentActive) return false;
    const snapshot = this.raftLog.snapshot();
    if (snapshot.metadata.index === 0) throw new Error('need non-empty snapshot');
    pr.becomeSnapshot(snapshot.metadata.index);
    this.send({ to, type: 'MsgSnap', snapshot });
    return true;
  }

  sendHeartbeat(to: NodeId, ctx: string | undefined): void {
    const pr = this.trk.progress.get(to)!;
    // Never tell a follower of a commit index beyond what it is known to hold.
    const commit = Math.min(pr.match, this.raftLog.committed);
    this.send(ctx === undefined ? { to, type: 'MsgHeartbeat', commit } : { to, type: 'MsgHeartbeat', commit, context: ctx });
    pr.sentCommit = commit;
  }

  bcastAppend(): void {
    this.trk.visit((id) => {
      if (id !== this.id) this.sendAppend(id);
    });
  }

  bcastHeartbeat(): void {
    this.bcastHeartbeatWithCtx(this.readOnly.heartbeatCtx());
  }

  private bcastHeartbeatWithCtx(ctx: string | undefined): void {
    this.trk.visit((id) => {
      if (id !== this.id) this.sendHeartbeat(id, ctx);
    });
  }

  appliedTo(index: number, size: number): void {
    this.raftLog.appliedTo(Math.max(index, this.raftLog.applied), size);
  }

  appliedSnap(snap: Snapshot): void {
    const index = snap.metadata.index;
    this.raftLog.stableSnapTo(index);
    this.appliedTo(index, 0);
  }

  /** Moves the commit index to what a quorum holds, counting only entries of this term (§5.4.2). */
  maybeCommit(): boolean {
    return this.raftLog.maybeCommit(this.trk.committed(), this.term);
  }

  reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = NONE;
    }
    this.lead = NONE;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.abortLeaderTransfer();
    this.trk.resetVotes();
    const last = this.raftLog.lastIndex();
    for (const id of this.trk.voters) {
      const pr = new Progress(0, last + 1, this.trk.maxInflight, this.trk.maxInflightBytes);
      if (id === this.id) pr.match = last;
      this.trk.progress.set(id, pr);
    }
    this.uncommittedSize = 0;
    this.readOnly = new ReadOnly();
  }

  /** Appends proposals at this term; false when they would exceed the uncommitted size limit. */
  appendEntry(es: readonly Omit<Entry, 'term' | 'index'>[]): boolean {
    const li = this.raftLog.lastIndex();
    const ents: Entry[] = es.map((e, i) => ({ ...e, term: this.term, index: li + 1 + i }));
    if (!this.increaseUncommittedSize(ents)) return false;
    const last = this.raftLog.append(ents);
    // The leader acknowledges its own entries once they are durable, like any follower.
    this.send({ to: this.id, type: 'MsgAppResp', index: last });
    return true;
  }

  tickElection(): void {
    this.electionElapsed++;
    if (this.promotable() && this.pastElectionTimeout()) {
      this.electionElapsed = 0;
      this.step(message({ from: this.id, type: 'MsgHup' }));
    }
  }

  tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.electionTimeout) {
      this.electionElapsed = 0;
      if (this.checkQuorum) this.step(message({ from: this.id, type: 'MsgCheckQuorum' }));
      // A transfer that did not finish within an election timeout is given up.
      if (this.state === 'StateLeader' && this.leadTransferee !== NONE) this.abortLeaderTransfer();
    }
    if (this.state !== 'StateLeader') return;
    if (this.heartbeatElapsed >= this.heartbeatTimeout) {
      this.heartbeatElapsed = 0;
      this.step(message({ from: this.id, type: 'MsgBeat' }));
    }
  }

  becomeFollower(term: number, lead: NodeId): void {
    this.stepFn = stepFollower;
    this.reset(term);
    this.tickFn = () => this.tickElection();
    this.lead = lead;
    this.state = 'StateFollower';
  }

  becomeCandidate(): void {
    if (this.state === 'StateLeader') throw new Error('invalid transition [leader -> candidate]');
    this.stepFn = stepCandidate;
    this.reset(this.term + 1);
    this.tickFn = () => this.tickElection();
    this.vote = this.id;
    this.state = 'StateCandidate';
  }

  becomePreCandidate(): void {
    if (this.state === 'StateLeader') throw new Error('invalid transition [leader -> pre-candidate]');
    // A pre-candidate keeps its term and vote: it only asks whether it could win.
    this.stepFn = stepCandidate;
    this.trk.resetVotes();
    this.tickFn = () => this.tickElection();
    this.lead = NONE;
    this.state = 'StatePreCandidate';
  }

  becomeLeader(): void {
    if (this.state === 'StateFollower') throw new Error('invalid transition [follower -> leader]');
    this.stepFn = stepLeader;
    this.reset(this.term);
    this.tickFn = () => this.tickHeartbeat();
    this.lead = this.id;
    this.state = 'StateLeader';
    const pr = this.trk.progress.get(this.id)!;
    pr.becomeReplicate();
    pr.recentActive = true;
    // An empty entry of the new term: committing it commits everything before it (§5.4.2).
    if (!this.appendEntry([{ type: 'EntryNormal', bytes: 0 }])) throw new Error('empty entry was dropped');
  }

  /** MsgTimeoutNow: the leader handed over; campaign at once. */
  hupTransfer(): void {
    this.hup(CAMPAIGN_TRANSFER);
  }

  private hup(t: CampaignType): void {
    if (this.state === 'StateLeader') return;
    if (!this.promotable()) return;
    if (this.hasUnappliedConfChanges()) return;
    this.campaign(t);
  }

  private hasUnappliedConfChanges(): boolean {
    if (this.raftLog.applied >= this.raftLog.committed) return false;
    const ents = this.raftLog.slice(this.raftLog.applied + 1, this.raftLog.committed + 1, NO_LIMIT);
    return ents !== 'compacted' && ents.some((e) => e.type === 'EntryConfChange');
  }

  campaign(t: CampaignType): void {
    let term: number;
    let voteMsg: MessageType;
    if (t === 'CampaignPreElection') {
      this.becomePreCandidate();
      voteMsg = 'MsgPreVote';
      // A pre-vote asks about the next term without moving to it.
      term = this.term + 1;
    } else {
      this.becomeCandidate();
      voteMsg = 'MsgVote';
      term = this.term;
    }
    for (const id of this.trk.voters) {
      if (id === this.id) {
        // The candidate's own vote counts once it is durable.
        this.send({ to: id, term, type: voteResponseType(voteMsg) });
        continue;
      }
      const request = { to: id, term, type: voteMsg, index: this.raftLog.lastIndex(), logTerm: this.raftLog.lastTerm() };
      this.send(t === CAMPAIGN_TRANSFER ? { ...request, context: CAMPAIGN_TRANSFER } : request);
    }
  }

  poll(id: NodeId, granted: boolean): ReturnType<ProgressTracker['tallyVotes']> {
    this.trk.recordVote(id, granted);
    return this.trk.tallyVotes();
  }

  /** Advances the state machine with a message; returns raft's error text for a refused proposal. */
  step(m: Message): string | undefined {
    if (m.term === 0) {
      // A local message.
    } else if (m.term > this.term) {
      if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
        const force = m.context === CAMPAIGN_TRANSFER;
        const inLease = this.checkQuorum && this.lead !== NONE && this.electionElapsed < this.electionTimeout;
        // Within the minimum election timeout of hearing from a leader, a vote request is ignored
        // (check-quorum's leader lease): a partitioned node rejoining cannot depose a healthy leader.
        if (!force && inLease) return undefined;
      }
      if (m.type === 'MsgPreVote') {
        // A pre-vote never changes our term.
      } else if (m.type === 'MsgPreVoteResp' && !m.reject) {
        // The pre-vote was granted for a future term: the term moves only on winning.
      } else if (m.type === 'MsgApp' || m.type === 'MsgHeartbeat' || m.type === 'MsgSnap') {
        this.becomeFollower(m.term, m.from);
      } else {
        this.becomeFollower(m.term, NONE);
      }
    } else if (m.term < this.term) {
      if ((this.checkQuorum || this.preVote) && (m.type === 'MsgHeartbeat' || m.type === 'MsgApp')) {
        // A deposed leader still sends: tell it about the newer term so it steps down.
        this.send({ to: m.from, type: 'MsgAppResp' });
      } else if (m.type === 'MsgPreVote') {
        this.send({ to: m.from, term: this.term, type: 'MsgPreVoteResp', reject: true });
      }
      // Anything else from an older term is ignored.
      return undefined;
    }

    switch (m.type) {
      case 'MsgHup':
        this.hup(this.preVote ? 'CampaignPreElection' : 'CampaignElection');
        return undefined;
      case 'MsgVote':
      case 'MsgPreVote': {
        const canVote =
          // A repeat of a vote already cast...
          this.vote === m.from ||
          // ...no vote yet and no leader known in this term...
          (this.vote === NONE && this.lead === NONE) ||
          // ...or a pre-vote for a future term...
          (m.type === 'MsgPreVote' && m.term > this.term);
        // ...and the candidate's log is at least as up to date as ours (§5.4.1).
        if (canVote && this.raftLog.isUpToDate(m.index, m.logTerm)) {
          // The answer carries the request's term: a pre-candidate asked about a future one.
          this.send({ to: m.from, term: m.term, type: voteResponseType(m.type) });
          if (m.type === 'MsgVote') {
            this.electionElapsed = 0;
            this.vote = m.from;
          }
        } else {
          this.send({ to: m.from, term: this.term, type: voteResponseType(m.type), reject: true });
        }
        return undefined;
      }
      default:
        return this.stepFn(this, m);
    }
  }

  handleAppendEntries(m: Message): void {
    if (m.index < this.raftLog.committed) {
      this.send({ to: m.from, type: 'MsgAppResp', index: this.raftLog.committed });
      return;
    }
    const last = this.raftLog.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
    if (last !== undefined) {
      this.send({ to: m.from, type: 'MsgAppResp', index: last });
      return;
    }
    // The logs differ at m.index: hint where they may agree, skipping our entries of newer terms.
    const hint = this.raftLog.findConflictByTerm(Math.min(m.index, this.raftLog.lastIndex()), m.logTerm);
    this.send({ to: m.from, type: 'MsgAppResp', index: m.index, reject: true, rejectHint: hint[0], logTerm: hint[1] });
  }

  handleHeartbeat(m: Message): void {
    this.raftLog.commitTo(m.commit);
    this.send(m.context === undefined ? { to: m.from, type: 'MsgHeartbeatResp' } : { to: m.from, type: 'MsgHeartbeatResp', context: m.context });
  }

  handleSnapshot(m: Message): void {
    const s = m.snapshot ?? { metadata: { index: 0, term: 0, voters: [] } };
    if (this.restore(s)) this.send({ to: m.from, type: 'MsgAppResp', index: this.raftLog.lastIndex() });
    else this.send({ to: m.from, type: 'MsgAppResp', index: this.raftLog.committed });
  }

  /** Restores the log from a snapshot; false if it is not newer than what is committed here. */
  restore(s: Snapshot): boolean {
    if (s.metadata.index <= this.raftLog.committed) return false;
    if (this.state !== 'StateFollower') {
      this.becomeFollower(this.term + 1, NONE);
      return false;
    }
    if (!s.metadata.voters.includes(this.id)) return false;
    if (this.raftLog.matchTerm(s.metadata.index, s.metadata.term)) {
      // We have the snapshot's last entry: only the commit index moves.
      this.raftLog.commitTo(s.metadata.index);
      return false;
    }
    this.raftLog.restore(s);
    this.trk = new ProgressTracker(s.metadata.voters, this.trk.maxInflight, this.trk.maxInflightBytes);
    const last = this.raftLog.lastIndex();
    for (const id of this.trk.voters) this.trk.progress.set(id, new Progress(id === this.id ? last : 0, last + 1, this.trk.maxInflight, this.trk.maxInflightBytes));
    return true;
  }

  promotable(): boolean {
    return this.trk.progress.has(this.id) && !this.raftLog.hasNextOrInProgressSnapshot();
  }

  loadState(hs: HardState): void {
    if (hs.commit < this.raftLog.committed || hs.commit > this.raftLog.lastIndex()) {
      throw new Error(`${this.id} state.commit ${hs.commit} is out of range [${this.raftLog.committed}, ${this.raftLog.lastIndex()}]`);
    }
    this.raftLog.committed = hs.commit;
    this.term = hs.term;
    this.vote = hs.vote;
  }

  pastElectionTimeout(): boolean {
    return this.electionElapsed >= this.randomizedElectionTimeout;
  }

  /** A timeout in [electionTimeout, 2 * electionTimeout): rarely do two nodes time out together. */
  resetRandomizedElectionTimeout(): void {
    this.randomizedElectionTimeout = this.electionTimeout + this.randomInt(this.electionTimeout);
  }

  sendTimeoutNow(to: NodeId): void {
    this.send({ to, type: 'MsgTimeoutNow' });
  }

  abortLeaderTransfer(): void {
    this.leadTransferee = NONE;
  }

  committedEntryInCurrentTerm(): boolean {
    return this.raftLog.zeroTermOnOutOfBounds(this.raftLog.committed) === this.term;
  }

  /** The answer to a read request: a ReadState for our own, a message for a follower's. */
  responseToReadIndexReq(req: Message, readIndex: number): Message | undefined {
    if (req.from === NONE || req.from === this.id) {
      this.readStates.push({ index: readIndex, requestCtx: String(req.entries[0]?.data ?? '') });
      return undefined;
    }
    return message({ type: 'MsgReadIndexResp', to: req.from, index: readIndex, entries: req.entries });
  }

  private increaseUncommittedSize(ents: readonly Entry[]): boolean {
    const s = payloadsSize(ents);
    if (this.uncommittedSize > 0 && s > 0 && this.uncommittedSize + s > this.maxUncommittedSize) return false;
    this.uncommittedSize += s;
    return true;
  }

  reduceUncommittedSize(s: number): void {
    this.uncommittedSize = s > this.uncommittedSize ? 0 : this.uncommittedSize - s;
  }

  releasePendingReadIndexMessages(): void {
    if (this.pendingReadIndexMessages.length === 0) return;
    if (!this.committedEntryInCurrentTerm()) return;
    const msgs = this.pendingReadIndexMessages;
    this.pendingReadIndexMessages = [];
    for (const m of msgs) this.sendReadIndexResponse(m);
  }

  sendReadIndexResponse(m: Message): void {
    // ReadOnlySafe: the read waits for a heartbeat round acknowledged by a majority.
    this.readOnly.addRequest(this.raftLog.committed, m);
    this.readOnly.recvAck(this.id, this.readOnly.heartbeatCtx());
    this.bcastHeartbeat();
  }

  queuePendingReadIndex(m: Message): void {
    this.pendingReadIndexMessages.push(m);
  }

  /** Sends a reply built by responseToReadIndexReq, stamping our term and id. */
  sendBuilt(m: Message): void {
    this.send({ ...m, from: this.id });
  }

  forwardTo(m: Message, to: NodeId): void {
    this.forward(m, to);
  }
}

export function payloadsSize(ents: readonly Entry[]): number {
  let s = 0;
  for (const e of ents) s += e.bytes;
  return s;
}

export function stepLeader(r: Raft, m: Message): string | undefined {
  switch (m.type) {
    case 'MsgBeat':
      r.bcastHeartbeat();
      return undefined;
    case 'MsgCheckQuorum':
      if (!r.trk.quorumActive()) r.becomeFollower(r.term, NONE);
      // Everyone but us must show signs of life again before the next check.
      r.trk.visit((id, pr) => {
        if (id !== r.id) pr.recentActive = false;
      });
      return undefined;
    case 'MsgProp':
      if (m.entries.length === 0) throw new Error(`${r.id} stepped empty MsgProp`);
      if (!r.trk.progress.has(r.id)) return PROPOSAL_DROPPED;
      // While leadership moves, proposals are refused: the new leader would not have them.
      if (r.leadTransferee !== NONE) return PROPOSAL_DROPPED;
      if (!r.appendEntry(m.entries)) return PROPOSAL_DROPPED;
      r.bcastAppend();
      return undefined;
    case 'MsgReadIndex':
      if (r.trk.isSingleton()) {
        const resp = r.responseToReadIndexReq(m, r.raftLog.committed);
        if (resp) r.sendBuilt(resp);
        return undefined;
      }
      // A new leader answers reads only once it committed an entry of its own term.
      if (!r.committedEntryInCurrentTerm()) {
        r.queuePendingReadIndex(m);
        return undefined;
      }
      r.sendReadIndexResponse(m);
      return undefined;
  }

  const pr = r.trk.progress.get(m.from);
  if (!pr) return undefined;
  switch (m.type) {
    case 'MsgAppResp':
      pr.recentActive = true;
      if (m.reject) {
        let nextProbeIdx = m.rejectHint;
        // Skip every index of ours whose term is above the follower's term at the hint.
        if (m.logTerm > 0) nextProbeIdx = r.raftLog.findConflictByTerm(m.rejectHint, m.logTerm)[0];
        if (pr.maybeDecrTo(m.index, nextProbeIdx)) {
          if (pr.state === 'StateReplicate') pr.becomeProbe();
          r.sendAppend(m.from);
        }
      } else if (pr.maybeUpdate(m.index) || (pr.match === m.index && pr.state === 'StateProbe')) {
        if (pr.state === 'StateProbe') pr.becomeReplicate();
        else if (pr.state === 'StateSnapshot' && pr.match + 1 >= r.raftLog.firstIndex()) {
          // The snapshot (or what came after it) caught the follower up: back to the log.
          pr.becomeProbe();
          pr.becomeReplicate();
        } else if (pr.state === 'StateReplicate') pr.inflights.freeLE(m.index);
        if (r.maybeCommit()) {
          r.releasePendingReadIndexMessages();
          r.bcastAppend();
        } else if (r.id !== m.from && pr.canBumpCommit(r.raftLog.committed)) {
          r.sendAppend(m.from);
        }
        if (r.id !== m.from) {
          while (r.maybeSendAppend(m.from, false)) {
            // Fill the window now that acknowledgements freed it.
          }
        }
        if (m.from === r.leadTransferee && pr.match === r.raftLog.lastIndex()) r.sendTimeoutNow(m.from);
      }
      return undefined;
    case 'MsgHeartbeatResp': {
      pr.recentActive = true;
      pr.msgAppFlowPaused = false;
      if (pr.match < r.raftLog.lastIndex() || pr.state === 'StateProbe') r.sendAppend(m.from);
      if (!m.context) return undefined;
      r.readOnly.recvAck(m.from, m.context);
      for (const rs of r.readOnly.maybeAdvance(r.trk)) {
        const resp = r.responseToReadIndexReq(rs.req, rs.index);
        if (resp) r.sendBuilt(resp);
      }
      return undefined;
    }
    case 'MsgSnapStatus':
      if (pr.state !== 'StateSnapshot') return undefined;
      if (m.reject) pr.pendingSnapshot = 0;
      pr.becomeProbe();
      // Wait for the follower's answer (or a heartbeat) before the next append.
      pr.msgAppFlowPaused = true;
      return undefined;
    case 'MsgUnreachable':
      // An append to an unreachable follower was probably lost: probe again.
      if (pr.state === 'StateReplicate') pr.becomeProbe();
      return undefined;
    case 'MsgTransferLeader': {
      const transferee = m.from;
      if (r.leadTransferee !== NONE) {
        if (r.leadTransferee === transferee) return undefined;
        r.abortLeaderTransfer();
      }
      if (transferee === r.id) return undefined;
      // The transfer must finish within an election timeout.
      r.electionElapsed = 0;
      r.leadTransferee = transferee;
      if (pr.match === r.raftLog.lastIndex()) r.sendTimeoutNow(transferee);
      else r.sendAppend(transferee);
      return undefined;
    }
  }
  return undefined;
}

/** Shared by candidates and pre-candidates; each counts only the answers to its own request. */
export function stepCandidate(r: Raft, m: Message): string | undefined {
  const myVoteResp: MessageType = r.state === 'StatePreCandidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
  switch (m.type) {
    case 'MsgProp':
      return PROPOSAL_DROPPED;
    case 'MsgApp':
      r.becomeFollower(m.term, m.from);
      r.handleAppendEntries(m);
      return undefined;
    case 'MsgHeartbeat':
      r.becomeFollower(m.term, m.from);
      r.handleHeartbeat(m);
      return undefined;
    case 'MsgSnap':
      r.becomeFollower(m.term, m.from);
      r.handleSnapshot(m);
      return undefined;
    case myVoteResp: {
      const { result } = r.poll(m.from, !m.reject);
      if (result === 'VoteWon') {
        if (r.state === 'StatePreCandidate') r.campaign('CampaignElection');
        else {
          r.becomeLeader();
          r.bcastAppend();
        }
      } else if (result === 'VoteLost') {
        r.becomeFollower(r.term, NONE);
      }
      return undefined;
    }
  }
  return undefined;
}

export function stepFollower(r: Raft, m: Message): string | undefined {
  switch (m.type) {
    case 'MsgProp':
      if (r.lead === NONE) return PROPOSAL_DROPPED;
      if (r.disableProposalForwarding) return PROPOSAL_DROPPED;
      r.forwardTo(m, r.lead);
      return undefined;
    case 'MsgApp':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleAppendEntries(m);
      return undefined;
    case 'MsgHeartbeat':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleHeartbeat(m);
      return undefined;
    case 'MsgSnap':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleSnapshot(m);
      return undefined;
    case 'MsgTransferLeader':
      if (r.lead !== NONE) r.forwardTo(m, r.lead);
      return undefined;
    case 'MsgTimeoutNow':
      // A leader transfer skips the pre-vote: the leader itself asked for this election.
      r.hupTransfer();
      return undefined;
    case 'MsgReadIndex':
      if (r.lead !== NONE) r.forwardTo(m, r.lead);
      return undefined;
    case 'MsgReadIndexResp':
      if (m.entries.length !== 1) return undefined;
      r.readStates.push({ index: m.index, requestCtx: String(m.entries[0]!.data ?? '') });
      return undefined;
  }
  return undefined;
}
