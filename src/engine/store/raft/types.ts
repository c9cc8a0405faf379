/**
 * The Raft vocabulary of etcd-io/raft (raftpb): entries, messages, hard state and snapshots, with
 * upstream's names so that a reader of raft.go, the Raft paper or a RaftScope picture finds the
 * same words here. Node ids are small positive integers; 0 means "no node" (raft.None).
 */

export type NodeId = number;

/** No node: no leader known, no vote cast. */
export const NONE: NodeId = 0;

export type StateType = 'StateFollower' | 'StateCandidate' | 'StateLeader' | 'StatePreCandidate';

export type MessageType =
  | 'MsgHup'
  | 'MsgBeat'
  | 'MsgProp'
  | 'MsgApp'
  | 'MsgAppResp'
  | 'MsgVote'
  | 'MsgVoteResp'
  | 'MsgSnap'
  | 'MsgHeartbeat'
  | 'MsgHeartbeatResp'
  | 'MsgUnreachable'
  | 'MsgSnapStatus'
  | 'MsgCheckQuorum'
  | 'MsgTransferLeader'
  | 'MsgTimeoutNow'
  | 'MsgReadIndex'
  | 'MsgReadIndexResp'
  | 'MsgPreVote'
  | 'MsgPreVoteResp';

export type EntryType = 'EntryNormal' | 'EntryConfChange';

/**
 * One log entry. `data` is the application's command (an etcd request), opaque to Raft; an
 * entry without data is the empty entry a new leader appends. `bytes` is the command's size,
 * which bounds append messages (MaxSizePerMsg) and what one Ready hands out to apply.
 */
export interface Entry {
  readonly term: number;
  readonly index: number;
  readonly type: EntryType;
  readonly data?: unknown;
  readonly bytes: number;
}

export interface SnapshotMetadata {
  readonly index: number;
  readonly term: number;
  /** The voters at `index` (raftpb.ConfState.Voters). */
  readonly voters: readonly NodeId[];
}

/** A snapshot of the state machine at `metadata.index`; `data` is the application's. */
export interface Snapshot {
  readonly metadata: SnapshotMetadata;
  readonly data?: unknown;
}

export interface HardState {
  readonly term: number;
  readonly vote: NodeId;
  readonly commit: number;
}

export interface Message {
  readonly type: MessageType;
  readonly from: NodeId;
  readonly to: NodeId;
  readonly term: number;
  /** MsgApp: the term of the entry before `entries`; rejections: the follower's term at the hint. */
  readonly logTerm: number;
  /** MsgApp: the index before `entries`; MsgAppResp: the last index appended (or rejected). */
  readonly index: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
  readonly snapshot?: Snapshot;
  readonly reject: boolean;
  readonly rejectHint: number;
  /** Heartbeats: the ReadIndex round they confirm; votes: 'CampaignTransfer' for a leader transfer. */
  readonly context?: string;
}

/** A message with every field at its zero value unless given (protobuf's defaults). */
export function message(fields: Partial<Message> & Pick<Message, 'type'>): Message {
  // Field by field rather than a spread over defaults: every message then has one shape, which
  // keeps the hot paths that read them (transport, stepLeader, the trace) monomorphic.
  const m: { -readonly [K in keyof Message]: Message[K] } = {
    type: fields.type,
    from: fields.from ?? NONE,
    to: fields.to ?? NONE,
    term: fields.term ?? 0,
    logTerm: fields.logTerm ?? 0,
    index: fields.index ?? 0,
    entries: fields.entries ?? EMPTY,
    commit: fields.commit ?? 0,
    reject: fields.reject ?? false,
    rejectHint: fields.rejectHint ?? 0,
  };
  if (fields.snapshot !== undefined) m.snapshot = fields.snapshot;
  if (fields.context !== undefined) m.context = fields.context;
  return m;
}

const EMPTY: readonly Entry[] = Object.freeze([]);

/** A linearizable read that raft confirmed: safe to serve once the state machine applied `index`. */
export interface ReadState {
  readonly index: number;
  readonly requestCtx: string;
}

export const EMPTY_HARD_STATE: HardState = Object.freeze({ term: 0, vote: NONE, commit: 0 });

export function isEmptyHardState(hs: HardState): boolean {
  return hs.term === 0 && hs.vote === NONE && hs.commit === 0;
}

export function isEmptySnapshot(s: Snapshot | undefined): boolean {
  return !s || s.metadata.index === 0;
}

/** Messages a node steps into itself; they never cross the network. */
export function isLocalMessage(t: MessageType): boolean {
  return t === 'MsgHup' || t === 'MsgBeat' || t === 'MsgUnreachable' || t === 'MsgSnapStatus' || t === 'MsgCheckQuorum';
}

export function isResponseMessage(t: MessageType): boolean {
  return t === 'MsgAppResp' || t === 'MsgVoteResp' || t === 'MsgHeartbeatResp' || t === 'MsgUnreachable' || t === 'MsgPreVoteResp';
}

export function voteResponseType(t: MessageType): MessageType {
  if (t === 'MsgVote') return 'MsgVoteResp';
  if (t === 'MsgPreVote') return 'MsgPreVoteResp';
  throw new Error(`not a vote message: ${t}`);
}

/** The reason raft refuses a proposal (raft.ErrProposalDropped). */
export const PROPOSAL_DROPPED = 'raft proposal dropped';

export const CAMPAIGN_TRANSFER = 'CampaignTransfer';
