/**
 * One etcd member (etcdserver with its raftNode): a Raft node ticking every 100 ms, its WAL on a
 * disk that takes time to fsync, and its MVCC state machine. Each Ready is handled as etcd 3.4
 * does: committed entries are applied at once; a leader sends its messages before its WAL write
 * (Raft thesis §10.2.1), a follower after it, so its acknowledgements only leave once the
 * entries are durable; while the WAL write is in progress the member takes no further Ready and
 * its ticker keeps at most one tick (a slow disk costs heartbeats, as in etcd). Proposals wait
 * in a registry until this member applies them or the request timeout passes; linearizable
 * reads go through the ReadIndex loop. Every 10,000 applied entries (kubeadm's
 * --snapshot-count) the member snapshots and compacts its log, keeping 5,000 entries for slow
 * followers; one further behind is sent a snapshot of the database.
 */
import type { Clock, Timer, TimerOptions } from '../../clock';
import type { Random } from '../../random';
import type { TraceBuffer } from '../../trace/buffer';
import type { EtcdMemberEvent, EtcdMemberRecord } from '../../trace/etcd';
import { Mvcc } from '../memory/mvcc';
import type { StoreSnapshot } from '../snapshot';
import { RawNode, type Ready, type SoftState } from '../raft/rawnode';
import { MemoryStorage } from '../raft/storage';
import { NONE, type Entry, type Message, type NodeId, type Snapshot, type StateType } from '../raft/types';
import { StoreError } from '../types';
import { alarmActive, applyRequest, requestBytes, type AlarmMember, type AlarmRequest, type ApplyResult, type InternalRaftRequest, type RaftRequest } from './apply';
import { quotaAvailable, requestCost } from './quota';
import type { EtcdLatency } from './latency';
import { MemberMetrics } from './metrics';
import { ReadIndexLoop, type ReadDone } from './read-index';
import type { Peer, PeerNetwork } from './transport';
import { fail } from '../../api/result';
import type { EtcdAlarmType, MemberRole } from './member-status';

export interface RaftTimings {
  /** --heartbeat-interval: the tick (etcd: 100 ms); a leader heartbeats every tick. */
  readonly tickMs: number;
  /** --election-timeout in ticks (etcd: 1000 ms = 10 ticks). */
  readonly electionTicks: number;
  /** --snapshot-count: applied entries between snapshots (kubeadm: 10,000). */
  readonly snapshotCount: number;
  /** Entries kept after a snapshot for slow followers (etcd: 5,000). */
  readonly catchUpEntries: number;
  /** --pre-vote (etcd 3.5+: on). */
  readonly preVote: boolean;
}

export const DEFAULT_TIMINGS: RaftTimings = Object.freeze({ tickMs: 100, electionTicks: 10, snapshotCount: 10_000, catchUpEntries: 5_000, preVote: true });

/** etcd's maxSizePerMsg and maxInflightMsgs (etcdserver/raft.go). */
const MAX_SIZE_PER_MSG = 1024 * 1024;
const MAX_INFLIGHT_MSGS = 4096 / 8;
/** Proposals are refused while applying lags committing by more than this (maxGapBetweenApplyAndCommitIndex). */
const MAX_APPLY_GAP = 5000;
/** A watch on a member that has had no leader for this many election timeouts is moved (etcd's maxNoLeaderCnt). */
export const NO_LEADER_INTERVALS = 3;

export interface MemberContext {
  readonly clock: Clock;
  readonly network: PeerNetwork;
  readonly trace: TraceBuffer | undefined;
  readonly timings: RaftTimings;
  /** The cluster's latency model now (it can change at run time). */
  latency(): EtcdLatency;
  /** The member that leads, as the cluster knows it (for forwarded lease requests). */
  voters: readonly NodeId[];
  /** --quota-backend-bytes in force (negative: none). */
  readonly quota: number;
  nameOf(id: NodeId): string;
  /** A member's name by its etcd member ID (16 hex digits). */
  nameOfMember(memberId: string): string;
}

export type ProposalDone = (result: ApplyResult) => void;

export interface MemberTimers {
  readonly tick: TimerOptions;
  readonly requestTimeout: TimerOptions;
  readonly walFsync: TimerOptions;
  /** A client's request on its way to the member, and the answer on its way back. */
  readonly request: TimerOptions;
  readonly response: TimerOptions;
}

export type { EtcdAlarmType } from './member-status';

export interface MemberState {
  readonly role: MemberRole;
  readonly raftState: StateType;
}

const ROLE: Record<StateType, MemberState['role']> = {
  StateLeader: 'leader',
  StateFollower: 'follower',
  StateCandidate: 'candidate',
  StatePreCandidate: 'pre-candidate',
};

export class EtcdMember implements Peer {
  readonly storage: MemoryStorage;
  mvcc: Mvcc;
  private node: RawNode | undefined;
  private running = false;
  private writing = false;
  private writeTimer: Timer | undefined;
  private processing = false;
  private tickPending = false;
  private tickTimer: Timer | undefined;
  private monitorTimer: Timer | undefined;
  private noLeaderIntervals = 0;
  /** A slow disk's fsync, overriding the model's. */
  slowFsyncMs: number | undefined;
  private readonly waiters = new Map<number, ProposalDone>();
  /** Proposals made while no leader was known: they wait for one (etcd 3.4's blocked propc). */
  private blocked = new Set<() => void>();
  private readonly reads: ReadIndexLoop;
  private nextRequest = 0;
  private lead: NodeId = NONE;
  private raftState: StateType = 'StateFollower';
  private term = 0;
  /** When this member last became leader (etcd's leadElectedTime). */
  private leadElectedTime = Number.NEGATIVE_INFINITY;
  /** Told when the state machine a client reads and watches is replaced (a snapshot was applied). */
  readonly mvccReplaced = new Set<(mvcc: Mvcc) => void>();
  /** Told when this member stops, or has had no leader for NO_LEADER_INTERVALS election timeouts. */
  readonly unavailable = new Set<(why: 'stopped' | 'no-leader') => void>();
  /** Revisions per second and commit latency over virtual time. */
  readonly metrics = new MemberMetrics();
  /**
   * The cluster's alarms as this member applied them (etcd's alarm store, kept in the backend's
   * alarm bucket): the member ID that raised each and its type.
   */
  readonly alarms = new Map<string, Set<EtcdAlarmType>>();
  /**
   * The options of this member's timers, built once (a proposal's timeout, a WAL write and a
   * client's hops to and from the member are set for every request).
   */
  readonly timers: MemberTimers;

  constructor(
    readonly name: string,
    readonly raftId: NodeId,
    /** etcd's member ID, 16 hex digits. */
    readonly memberId: string,
    private readonly ctx: MemberContext,
    private readonly random: Random,
    restore: StoreSnapshot | undefined,
  ) {
    this.timers = Object.freeze({
      tick: Object.freeze({ daemon: true, label: `${name} raft tick` }),
      requestTimeout: Object.freeze({ label: `${name} request timeout` }),
      walFsync: Object.freeze({ label: `${name} WAL fsync` }),
      request: Object.freeze({ label: `etcd request to ${name}` }),
      response: Object.freeze({ label: `etcd response from ${name}` }),
    });
    this.storage = new MemoryStorage(ctx.voters);
    this.mvcc = this.newMvcc(restore);
    this.reads = new ReadIndexLoop(
      {
        name,
        sendReadIndex: (c) => {
          this.node?.readIndex(c);
          this.process();
        },
        appliedIndex: () => this.mvcc.consistentIndex,
        requestTimeoutMs: this.requestTimeoutMs,
      },
      ctx.clock,
    );
  }

  /** etcd's ReqTimeout: 5 s for queueing and disk, plus two election timeouts for an election. */
  get requestTimeoutMs(): number {
    return 5000 + 2 * this.electionTimeoutMs;
  }

  get electionTimeoutMs(): number {
    return this.ctx.timings.electionTicks * this.ctx.timings.tickMs;
  }

  isRunning(): boolean {
    return this.running;
  }

  isLeader(): boolean {
    return this.running && this.raftState === 'StateLeader';
  }

  leader(): NodeId {
    return this.running ? this.lead : NONE;
  }

  state(): MemberState {
    return { role: ROLE[this.raftState], raftState: this.raftState };
  }

  get raft(): RawNode | undefined {
    return this.node;
  }

  /** Starts (or restarts) the member from what its WAL and database hold. */
  start(bootstrap?: readonly Entry[]): void {
    if (this.running) return;
    const { timings } = this.ctx;
    const hs = this.storage.hardState;
    const first = this.storage.firstIndex() - 1;
    const applied = Math.max(first, Math.min(this.mvcc.consistentIndex, hs.commit));
    this.node = new RawNode({
      id: this.raftId,
      electionTick: timings.electionTicks,
      heartbeatTick: 1,
      storage: this.storage,
      applied: applied > first ? applied : undefined,
      maxSizePerMsg: MAX_SIZE_PER_MSG,
      maxInflightMsgs: MAX_INFLIGHT_MSGS,
      checkQuorum: true,
      preVote: timings.preVote,
      randomInt: (n) => this.random.int(n),
    });
    if (bootstrap) this.node.bootstrap(bootstrap);
    // bbolt opened again: NoFreelistSync rebuilds the free list from the unused pages.
    else this.mvcc.bolt.reopen();
    this.running = true;
    this.raftState = 'StateFollower';
    this.lead = NONE;
    this.term = this.node.raft.term;
    this.ctx.network.linkUp(this.raftId);
  }

  /** Begins ticking on the clock (after the cluster's bootstrap, or on a restart), `phaseMs` into a tick. */
  startTicking(phaseMs: number): void {
    const { tickMs } = this.ctx.timings;
    const tick = (): void => {
      this.tickTimer = this.ctx.clock.setTimer(tickMs, tick, this.timers.tick);
      this.tick();
    };
    this.tickTimer = this.ctx.clock.setTimer(phaseMs, tick, this.timers.tick);
    this.scheduleMonitor(phaseMs);
  }

  /** Kills the process: unstable entries, messages in flight and waiting requests are lost. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.node = undefined;
    this.writing = false;
    this.tickPending = false;
    this.ctx.clock.clearTimer(this.writeTimer);
    this.ctx.clock.clearTimer(this.tickTimer);
    this.ctx.clock.clearTimer(this.monitorTimer);
    this.ctx.network.linkDown(this.raftId);
    this.lead = NONE;
    this.raftState = 'StateFollower';
    this.mvcc.lessor.demote();
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    this.blocked.clear();
    this.reads.abort(new StoreError('unavailable'));
    for (const done of waiters) done(fail(new StoreError('unavailable')));
    for (const l of [...this.unavailable]) l('stopped');
  }

  /** Advances the Raft clock by the ticks etcd skips at start so that the first election comes soon. */
  advanceTicks(n: number): void {
    for (let i = 0; i < n; i++) this.node?.tick();
    this.process();
  }

  /** One tick now (the bootstrap drives the election without the clock). */
  tickOnce(): void {
    this.tick();
  }

  private tick(): void {
    if (!this.node) return;
    // A WAL write in progress blocks etcd's raft loop: its ticker keeps one tick, the rest are lost.
    if (this.writing) {
      this.tickPending = true;
      return;
    }
    this.node.tick();
    this.process();
  }

  receive(m: Message): void {
    if (!this.node) return;
    this.node.step(m);
    this.process();
  }

  /** Starts a leader transfer to `to` (RawNode.TransferLeader). */
  transferLeadership(to: NodeId): void {
    this.node?.transferLeader(to);
    this.process();
  }

  reportUnreachable(to: NodeId): void {
    this.node?.reportUnreachable(to);
    this.process();
  }

  reportSnapshot(to: NodeId, failed: boolean): void {
    this.node?.reportSnapshot(to, failed);
    this.process();
  }

  /** etcd merges the current database into the snapshot it sends (createMergedSnapshotMessage). */
  outgoingSnapshot(): Snapshot {
    const index = this.mvcc.consistentIndex;
    const term = this.node?.raft.raftLog.term(index) ?? 0;
    this.record('snapshot-sent', `${this.name} sent a snapshot of its database at index ${index}`);
    return { metadata: { index, term, voters: this.ctx.voters }, data: this.mvcc.snapshot(this.ctx.clock.now()) };
  }

  /**
   * Proposes a request; `done` gets the apply result, or the error etcd would return: the
   * proposal waits for a leader if there is none, and fails after the request timeout.
   */
  propose(request: RaftRequest, done: ProposalDone): void {
    const node = this.node;
    if (!node) {
      done(fail(new StoreError('unavailable')));
      return;
    }
    // etcd's quotaKVServer and quotaLeaseServer, before the request reaches Raft: over the quota,
    // raise the NOSPACE alarm and refuse it.
    if ('put' in request || 'txn' in request || 'leaseGrant' in request) {
      const cost = requestCost(request);
      if (!quotaAvailable(this.ctx.quota, this.mvcc.dbSizeBytes, cost)) {
        this.raiseNoSpace(() => done(fail(new StoreError('noSpace'))));
        return;
      }
    }
    if (node.raft.raftLog.committed > this.mvcc.consistentIndex + MAX_APPLY_GAP) {
      done(fail(new StoreError('tooManyRequests')));
      return;
    }
    const id = this.raftId * 2 ** 40 + ++this.nextRequest;
    const data: InternalRaftRequest = { id, request };
    const start = this.ctx.clock.now();
    let finished = false;
    let timeout: Timer | undefined;
    const finish = (result: ApplyResult): void => {
      if (finished) return;
      finished = true;
      this.waiters.delete(id);
      this.ctx.clock.clearTimer(timeout);
      if (result.ok) this.metrics.committed(this.ctx.clock.now(), this.ctx.clock.now() - start);
      done(result);
    };
    this.waiters.set(id, finish);
    const submit = (): void => {
      if (finished || !this.node) return;
      const refused = this.node.propose(data, requestBytes(request));
      if (refused) finish(fail(new StoreError('proposalDropped')));
      else this.process();
    };
    const waitForLeader = (): void => {
      this.blocked.delete(waitForLeader);
      submit();
    };
    if (this.lead === NONE) this.blocked.add(waitForLeader);
    else submit();
    if (finished) return;
    timeout = this.ctx.clock.setTimer(
      this.requestTimeoutMs,
      () => {
        // Still waiting for a leader, etcd 3.4.23 returns the context's own error.
        if (this.blocked.delete(waitForLeader)) finish(fail(new StoreError('proposalDeadline')));
        else finish(fail(this.proposeTimeoutError(start)));
      },
      this.timers.requestTimeout,
    );
  }

  /** A linearizable read point: `done` once this member has applied everything committed before the read. */
  linearizableRead(done: ReadDone): void {
    if (!this.node) {
      done(new StoreError('unavailable'));
      return;
    }
    this.reads.request(done);
  }

  /** etcd's parseProposeCtxErr: which "request timed out" a timed-out proposal gets. */
  private proposeTimeoutError(start: number): StoreError {
    const prevLeadLost = this.leadElectedTime - 2 * this.electionTimeoutMs;
    if (start > prevLeadLost && start < this.leadElectedTime) return new StoreError('timeoutDueToLeaderFail');
    const net = this.ctx.network;
    if (this.lead === this.raftId) {
      // Connected to a quorum since the request started?
      let connected = 1;
      for (const id of this.ctx.voters) {
        if (id === this.raftId) continue;
        const since = net.activeSince(this.raftId, id);
        if (since !== undefined && since <= start) connected++;
      }
      if (connected < Math.floor(this.ctx.voters.length / 2) + 1) return new StoreError('timeoutDueToConnectionLost');
    } else if (this.lead !== NONE) {
      const since = net.activeSince(this.raftId, this.lead);
      if (since === undefined || since > start) return new StoreError('timeoutDueToConnectionLost');
    }
    return new StoreError('requestTimedOut');
  }

  private fsyncMs(): number {
    return this.slowFsyncMs ?? this.ctx.latency().walFsyncMs;
  }

  /** Takes every Ready there is, unless a WAL write is in progress. */
  private process(): void {
    const node = this.node;
    if (!node || this.writing || this.processing) return;
    this.processing = true;
    try {
      while (this.node === node && !this.writing && node.hasReady()) this.handleReady(node, node.ready());
    } finally {
      this.processing = false;
    }
  }

  private handleReady(node: RawNode, rd: Ready): void {
    if (rd.softState) this.onSoftState(rd.softState, node);
    if (rd.hardState && rd.hardState.term !== this.term) this.term = rd.hardState.term;
    if (rd.readStates.length > 0) this.reads.onReadStates(rd.readStates);
    for (const e of rd.committedEntries) this.apply(e);
    const leader = this.raftState === 'StateLeader';
    if (leader) this.ctx.network.send(this, rd.messages);
    const persist = (): void => {
      if (rd.snapshot) this.applySnapshot(rd.snapshot);
      this.storage.append(rd.entries);
      if (rd.hardState) this.storage.setHardState(rd.hardState);
      if (!leader) this.ctx.network.send(this, rd.messages);
      node.advance();
      if (rd.committedEntries.length > 0) this.maybeSnapshot(node);
    };
    const ms = rd.mustSync || rd.snapshot ? this.fsyncMs() : 0;
    if (ms === 0) {
      persist();
      return;
    }
    this.writing = true;
    this.writeTimer = this.ctx.clock.setTimer(
      ms,
      () => {
        this.writeTimer = undefined;
        if (this.node !== node) return;
        // Still writing while the Ready is persisted and advanced: a message dropped on the way
        // (its peer stopped or cut off) reports the peer unreachable at once, and the Ready that
        // report makes must wait until this one is advanced.
        persist();
        this.writing = false;
        if (this.tickPending) {
          this.tickPending = false;
          node.tick();
        }
        this.process();
      },
      this.timers.walFsync,
    );
  }

  private onSoftState(soft: SoftState, node: RawNode): void {
    const prevLead = this.lead;
    const prevState = this.raftState;
    this.lead = soft.lead;
    this.raftState = soft.raftState;
    const term = node.raft.term;
    this.term = term;
    const newLeader = soft.lead !== NONE && soft.lead !== prevLead;
    if (soft.raftState !== prevState) {
      if (soft.raftState === 'StateLeader') this.record('leader', `${this.name} became leader at term ${term}`);
      else if (soft.raftState === 'StateCandidate') this.record('campaign', `${this.name} started an election at term ${term}`);
      else if (soft.raftState === 'StatePreCandidate') this.record('pre-vote', `${this.name} asked for pre-votes for term ${term + 1}`);
      else if (prevState === 'StateLeader') this.record('follower', `${this.name} stepped down at term ${term}${soft.lead === NONE ? ': it lost the quorum' : ''}`);
    }
    if (soft.raftState !== 'StateLeader') {
      if (newLeader && soft.raftState === 'StateFollower') this.record('follower', `${this.name} follows leader ${this.ctx.nameOf(soft.lead)} at term ${term}`);
      else if (soft.lead === NONE && prevLead !== NONE && soft.raftState === 'StateFollower') this.record('leader-lost', `${this.name} lost leader ${this.ctx.nameOf(prevLead)} at term ${term}`);
      this.mvcc.lessor.demote();
    } else if (newLeader) {
      this.leadElectedTime = this.ctx.clock.now();
    }
    if (newLeader) {
      this.noLeaderIntervals = 0;
      this.reads.onLeaderChanged();
      for (const submit of [...this.blocked]) submit();
    }
  }

  private apply(e: Entry): void {
    const mvcc = this.mvcc;
    // Entries a restored snapshot already holds are not applied again (etcd's consistent index).
    if (e.index <= mvcc.consistentIndex) return;
    mvcc.consistentIndex = e.index;
    if (e.type === 'EntryNormal' && e.data === undefined) {
      // A leader's first entry of its term: reads may be answered, and its lessor takes over.
      this.reads.onFirstCommitInTerm();
      if (this.raftState === 'StateLeader') mvcc.lessor.promote(this.electionTimeoutMs);
    } else if (e.type === 'EntryNormal') {
      const req = e.data as InternalRaftRequest;
      const before = mvcc.revision;
      // etcd proposes NOSPACE again with every refused request: only a change is a record.
      const wasActive = 'alarm' in req.request && (this.alarms.get(req.request.alarm.memberId)?.has(req.request.alarm.alarm) ?? false);
      const result = applyRequest(mvcc, req.request, { alarms: this.alarms, quota: this.ctx.quota });
      this.metrics.revision(this.ctx.clock.now(), mvcc.revision - before);
      if ('alarm' in req.request && wasActive !== (req.request.alarm.action === 'activate')) this.recordAlarm(req.request.alarm, result);
      const waiter = this.waiters.get(req.id);
      if (!result.ok && result.error.code === 'noSpace' && !alarmActive(this.alarms, 'NOSPACE')) {
        // Over the quota at apply: raise the alarm through Raft, then answer (etcd's applyEntryNormal).
        this.raiseNoSpace(() => waiter?.(result));
      } else {
        waiter?.(result);
      }
    }
    this.reads.onApplied(e.index);
  }

  private applySnapshot(s: Snapshot): void {
    this.storage.applySnapshot(s);
    const old = this.mvcc;
    this.mvcc = this.newMvcc(s.data as StoreSnapshot);
    this.mvcc.consistentIndex = s.metadata.index;
    old.close();
    this.record('snapshot-applied', `${this.name} replaced its database with a snapshot at index ${s.metadata.index}`);
    for (const l of [...this.mvccReplaced]) l(this.mvcc);
    this.reads.onApplied(s.metadata.index);
  }

  /** etcd's triggerSnapshot: every snapshotCount applied entries, snapshot and compact the log. */
  private maybeSnapshot(node: RawNode): void {
    const { snapshotCount, catchUpEntries } = this.ctx.timings;
    const applied = Math.min(node.raft.raftLog.applied, this.storage.lastIndex());
    const snapIndex = this.storage.snapshot().metadata.index;
    if (applied - snapIndex <= snapshotCount) return;
    this.storage.createSnapshot(applied, this.ctx.voters);
    const compactTo = applied > catchUpEntries ? applied - catchUpEntries : 1;
    if (compactTo > this.storage.firstIndex()) {
      this.storage.compact(compactTo);
      this.record('log-compacted', `${this.name} took a snapshot at index ${applied} and compacted its log up to ${compactTo}`);
    }
  }

  /** A leader that has not been heard of for three election timeouts makes etcd cancel watches that require one. */
  private scheduleMonitor(phaseMs = 0): void {
    this.monitorTimer = this.ctx.clock.setTimer(
      phaseMs + this.electionTimeoutMs,
      () => {
        this.scheduleMonitor();
        if (this.lead !== NONE) {
          this.noLeaderIntervals = 0;
          return;
        }
        if (++this.noLeaderIntervals >= NO_LEADER_INTERVALS) for (const l of [...this.unavailable]) l('no-leader');
      },
      { daemon: true, label: `${this.name} leader monitor` },
    );
  }

  private newMvcc(restore: StoreSnapshot | undefined): Mvcc {
    return new Mvcc({
      clock: this.ctx.clock,
      primaryLessor: false,
      restore,
      onLeaseExpired: (id) => this.revokeExpired(id),
    });
  }

  /** The leader's lessor found a lease expired: revoke it through Raft (etcd's revokeExpiredLeases). */
  private revokeExpired(id: number): void {
    this.propose({ leaseRevoke: id }, (r) => {
      if (!r.ok && r.error.code !== 'leaseNotFound') this.mvcc.lessor.retryExpiry(id);
    });
  }

  /** Proposes the NOSPACE alarm for this member; `then` runs once it is applied or failed. */
  private raiseNoSpace(then: () => void): void {
    this.propose({ alarm: { action: 'activate', memberId: this.memberId, alarm: 'NOSPACE' } }, () => then());
  }

  /** The member an alarm is for records it once it applied it (every member applies it). */
  private recordAlarm(a: AlarmRequest, result: ApplyResult): void {
    if (a.memberId !== this.memberId || !result.ok || (result.value as AlarmMember[]).length === 0) return;
    if (a.action === 'deactivate') this.record('alarm-disarmed', `alarm ${a.alarm} of ${this.name} disarmed: writes are accepted again`);
    else if (a.alarm === 'NOSPACE') this.record('alarm-raised', `${this.name} raised alarm NOSPACE: its database (${this.mvcc.dbSizeBytes} bytes) reached the quota of ${this.ctx.quota} bytes; the cluster now takes only reads, deletes and compactions`);
    else this.record('alarm-raised', `${this.name} raised alarm ${a.alarm}`);
  }

  /** The alarms this member raised, as `etcdctl alarm list` shows them per member. */
  raisedAlarms(): EtcdAlarmType[] {
    return [...(this.alarms.get(this.memberId) ?? [])].sort();
  }

  record(event: EtcdMemberEvent, detail: string): void {
    this.ctx.trace?.emit<EtcdMemberRecord>({
      type: 'etcd.member',
      component: 'etcd',
      member: this.name,
      event,
      term: this.term,
      ...(this.lead !== NONE ? { lead: this.ctx.nameOf(this.lead) } : {}),
      detail,
    });
  }
}
