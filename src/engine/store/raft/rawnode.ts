/**
 * The application's handle on a Raft node (etcd-io/raft's RawNode, synchronous storage writes,
 * as etcd uses it): the application ticks it, steps messages into it, and takes a Ready: the
 * entries and hard state to persist, the messages to send, the committed entries to apply.
 * Once the Ready is durable the application calls advance(), which delivers the node's own
 * acknowledgements (its vote, its appended entries) back to itself.
 */
import { Raft, payloadsSize, type RaftConfig } from './raft';
import {
  NONE,
  isEmptySnapshot,
  isLocalMessage,
  isResponseMessage,
  message,
  type Entry,
  type HardState,
  type Message,
  type NodeId,
  type ReadState,
  type Snapshot,
  type StateType,
} from './types';

export interface SoftState {
  readonly lead: NodeId;
  readonly raftState: StateType;
}

export interface Ready {
  /** Set when the leader or the role changed. */
  readonly softState?: SoftState;
  /** Set when term, vote or commit changed: persist it with the entries. */
  readonly hardState?: HardState;
  readonly readStates: readonly ReadState[];
  /** To append to stable storage. */
  readonly entries: readonly Entry[];
  /** To save and apply (a follower that was sent a snapshot). */
  readonly snapshot?: Snapshot;
  /** Committed entries to apply to the state machine, in order. */
  readonly committedEntries: readonly Entry[];
  /** To send once the entries are durable (a leader may send its own before: thesis §10.2.1). */
  readonly messages: readonly Message[];
  /** Whether persisting this Ready needs an fsync: new entries, or a new term or vote. */
  readonly mustSync: boolean;
}

export interface Status {
  readonly id: NodeId;
  readonly term: number;
  readonly vote: NodeId;
  readonly commit: number;
  readonly lead: NodeId;
  readonly raftState: StateType;
  readonly applied: number;
  readonly leadTransferee: NodeId;
  /** The leader's view of each voter (leaders only). */
  readonly progress?: ReadonlyMap<NodeId, { match: number; next: number; state: string; recentActive: boolean }>;
}

export class RawNode {
  readonly raft: Raft;
  private prevSoftState: SoftState;
  private prevHardState: HardState;
  private stepsOnAdvance: Message[] = [];

  constructor(config: RaftConfig) {
    this.raft = new Raft(config);
    this.prevSoftState = this.raft.softState();
    this.prevHardState = this.raft.hardState();
  }

  /**
   * A new cluster's first state (RawNode.Bootstrap): a follower at term 1 whose log holds the
   * configuration entries (one per member), committed, to be persisted by the first Ready.
   */
  bootstrap(entries: readonly Entry[]): void {
    const r = this.raft;
    if (r.raftLog.lastIndex() !== 0) throw new Error('can only bootstrap an empty log');
    r.becomeFollower(1, NONE);
    r.raftLog.append(entries);
    r.raftLog.committed = entries.length;
  }

  tick(): void {
    this.raft.tick();
  }

  campaign(): void {
    this.raft.step(message({ type: 'MsgHup' }));
  }

  /** Proposes a command; returns raft's refusal ("raft proposal dropped") if there is one. */
  propose(data: unknown, bytes: number): string | undefined {
    return this.raft.step(message({ type: 'MsgProp', from: this.raft.id, entries: [{ term: 0, index: 0, type: 'EntryNormal', data, bytes }] }));
  }

  /** A message from the network. Local message types and answers from strangers are dropped. */
  step(m: Message): string | undefined {
    if (isLocalMessage(m.type)) return 'raft: cannot step raft local message';
    if (!this.raft.trk.progress.has(m.from) && isResponseMessage(m.type)) return 'raft: cannot step as peer not found';
    return this.raft.step(m);
  }

  /** Asks for a linearizable read point; the answer comes back as a ReadState carrying `ctx`. */
  readIndex(ctx: string): void {
    this.raft.step(message({ type: 'MsgReadIndex', entries: [{ term: 0, index: 0, type: 'EntryNormal', data: ctx, bytes: ctx.length }] }));
  }

  transferLeader(transferee: NodeId): void {
    this.raft.step(message({ type: 'MsgTransferLeader', from: transferee }));
  }

  reportUnreachable(id: NodeId): void {
    this.raft.step(message({ type: 'MsgUnreachable', from: id }));
  }

  reportSnapshot(id: NodeId, failed: boolean): void {
    this.raft.step(message({ type: 'MsgSnapStatus', from: id, reject: failed }));
  }

  hasReady(): boolean {
    const r = this.raft;
    if (r.lead !== this.prevSoftState.lead || r.state !== this.prevSoftState.raftState) return true;
    // The hard state compared field by field (hasReady runs after every step: no object for it).
    const prev = this.prevHardState;
    const commit = r.raftLog.committed;
    const empty = r.term === 0 && r.vote === NONE && commit === 0;
    if (!empty && !(r.term === prev.term && r.vote === prev.vote && commit === prev.commit)) return true;
    if (r.raftLog.nextUnstableSnapshot()) return true;
    if (r.msgs.length > 0 || r.msgsAfterAppend.length > 0) return true;
    if (r.raftLog.hasNextUnstableEnts() || r.raftLog.hasNextCommittedEnts(true)) return true;
    return r.readStates.length > 0;
  }

  /** Takes the Ready; call advance() once its entries and hard state are durable. */
  ready(): Ready {
    const r = this.raft;
    const prev = this.prevHardState;
    const messages = r.msgs;
    for (const m of r.msgsAfterAppend) if (m.to !== r.id) messages.push(m);
    const entries = r.raftLog.nextUnstableEnts();
    const sameHard = r.term === prev.term && r.vote === prev.vote && r.raftLog.committed === prev.commit;
    const rd: Ready = {
      softState: r.lead !== this.prevSoftState.lead || r.state !== this.prevSoftState.raftState ? r.softState() : undefined,
      hardState: sameHard ? undefined : r.hardState(),
      readStates: r.readStates,
      entries,
      snapshot: r.raftLog.nextUnstableSnapshot(),
      committedEntries: r.raftLog.nextCommittedEnts(true),
      messages,
      // mustSync(hardState, prev, entries) without building the hard state.
      mustSync: entries.length !== 0 || r.vote !== prev.vote || r.term !== prev.term,
    };
    this.accept(rd);
    return rd;
  }

  private accept(rd: Ready): void {
    const r = this.raft;
    if (rd.softState) this.prevSoftState = rd.softState;
    if (rd.hardState) this.prevHardState = rd.hardState;
    if (rd.readStates.length > 0) r.readStates = [];
    if (this.stepsOnAdvance.length > 0) throw new Error('two accepted Ready structs without call to Advance');
    for (const m of r.msgsAfterAppend) if (m.to === r.id) this.stepsOnAdvance.push(m);
    // The write of this Ready's entries (or snapshot) completing, told to the log on advance.
    if (r.raftLog.hasNextOrInProgressUnstableEnts() || !isEmptySnapshot(rd.snapshot)) {
      const index = r.raftLog.hasNextOrInProgressUnstableEnts() ? r.raftLog.lastIndex() : 0;
      const logTerm = index ? r.raftLog.lastTerm() : 0;
      this.stepsOnAdvance.push(message({ type: 'MsgAppResp', from: NONE, to: r.id, term: r.term, index, logTerm, snapshot: rd.snapshot, context: STORAGE_APPEND }));
    }
    if (rd.committedEntries.length > 0) {
      this.stepsOnAdvance.push(message({ type: 'MsgAppResp', from: NONE, to: r.id, entries: rd.committedEntries, context: STORAGE_APPLY }));
    }
    r.msgs = [];
    r.msgsAfterAppend = [];
    r.raftLog.acceptUnstable();
    if (rd.committedEntries.length > 0) {
      const ents = rd.committedEntries;
      r.raftLog.acceptApplying(ents[ents.length - 1]!.index, payloadsSize(ents), true);
    }
  }

  /** The Ready taken last is durable and its committed entries applied. */
  advance(): void {
    const steps = this.stepsOnAdvance;
    this.stepsOnAdvance = [];
    for (const m of steps) {
      if (m.context === STORAGE_APPEND) this.storageAppended(m);
      else if (m.context === STORAGE_APPLY) this.storageApplied(m.entries);
      else this.raft.step(m);
    }
  }

  private storageAppended(m: Message): void {
    const r = this.raft;
    // Entries written under an older term may have been replaced in the unstable log since.
    if (m.index !== 0 && m.term === r.term) r.raftLog.stableTo(m.index, m.logTerm);
    if (m.snapshot) r.appliedSnap(m.snapshot);
  }

  private storageApplied(ents: readonly Entry[]): void {
    if (ents.length === 0) return;
    this.raft.appliedTo(ents[ents.length - 1]!.index, payloadsSize(ents));
    this.raft.reduceUncommittedSize(payloadsSize(ents));
  }

  status(): Status {
    const r = this.raft;
    const base = {
      id: r.id,
      term: r.term,
      vote: r.vote,
      commit: r.raftLog.committed,
      lead: r.lead,
      raftState: r.state,
      applied: r.raftLog.applied,
      leadTransferee: r.leadTransferee,
    };
    if (r.state !== 'StateLeader') return base;
    const progress = new Map<NodeId, { match: number; next: number; state: string; recentActive: boolean }>();
    r.trk.visit((id, pr) => progress.set(id, { match: pr.match, next: pr.next, state: pr.state, recentActive: pr.recentActive }));
    return { ...base, progress };
  }
}

// Markers of the storage thread's local answers, which never cross the network.
const STORAGE_APPEND = 'storage-append';
const STORAGE_APPLY = 'storage-apply';

/** etcd fsyncs the WAL for new entries or a new term or vote; a commit index alone can wait. */
export function mustSync(st: HardState, prev: HardState, entries: number): boolean {
  return entries !== 0 || st.vote !== prev.vote || st.term !== prev.term;
}
