/**
 * The simulated etcd cluster: 1, 3 (default) or 5 members named etcd-0, etcd-1, ... on one
 * peer network, under one latency model, with the faults a learner can cause (stop and start a
 * member, partition it, slow its disk, move leadership) and a status snapshot of every member
 * for the panel, the sidebar and `--output json`.
 *
 * The cluster is bootstrapped before virtual time starts, as etcd starts before kube-apiserver:
 * its members elect a first leader (the one whose randomized election timeout runs out first,
 * drawn from the seed), every member publishes itself and the leader sets the cluster version,
 * as a fresh etcd 3.4 cluster does (raft term 2, raft index 8 for three members). Only then
 * do the members start ticking on the virtual clock.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import { TraceBuffer } from '../../trace/buffer';
import type { StoreSnapshot } from '../snapshot';
import { NONE, type Entry, type NodeId } from '../raft/types';
import { DEFAULT_TIMINGS, EtcdMember, type MemberContext, type RaftTimings } from './member';
import type { MemberStatus } from './member-status';
import { resolveQuota } from './quota';
import type { AlarmMember } from './apply';
import { SLOW_DISK_FSYNC_MS, type EtcdLatency } from './latency';
import { PeerNetwork } from './transport';

export interface EtcdClusterOptions {
  clock: Clock;
  /** The cluster's own stream (election timeouts, member IDs). */
  random: Random;
  members: number;
  latency: EtcdLatency;
  /** Where member events (elections, faults) go: the control plane's trace. */
  trace?: TraceBuffer;
  /** Every member starts from this database (etcdctl snapshot restore). */
  restore?: StoreSnapshot;
  timings?: Partial<RaftTimings>;
  /** Raft messages kept in the cluster's message stream. Default 10,000. */
  messageCapacity?: number;
  /** --quota-backend-bytes: 0 or absent for etcd's 2 GiB, negative to disable. */
  quotaBackendBytes?: number;
}

export type { MemberStatus } from './member-status';

export const MAX_MEMBERS = 7;
/** Members of a cluster's etcd unless told otherwise (createCluster, the CLI, the extension's setting). */
export const DEFAULT_MEMBERS = 3;
/** etcd's version, as a fresh cluster sets it. */
export const ETCD_CLUSTER_VERSION = '3.4.0';
/**
 * The server version each member reports (`etcdctl endpoint status`'s VERSION): the etcd release
 * the simulation follows and its bbolt model is calibrated against.
 */
export const ETCD_SERVER_VERSION = '3.4.23';

const LOG_TAIL = 64;

export class EtcdCluster {
  readonly members: EtcdMember[] = [];
  readonly network: PeerNetwork;
  /** Every Raft message sent, delivered or dropped (a bounded stream of its own). */
  readonly messages: TraceBuffer;
  private latencyModel: EtcdLatency;
  readonly timings: RaftTimings;
  /** --quota-backend-bytes in force. */
  readonly quotaBackendBytes: number;
  private closed = false;

  constructor(private readonly options: EtcdClusterOptions) {
    const n = options.members;
    if (!Number.isInteger(n) || n < 1 || n > MAX_MEMBERS) throw new RangeError(`etcd members must be an integer from 1 to ${MAX_MEMBERS}, got ${String(n)}`);
    this.latencyModel = options.latency;
    this.quotaBackendBytes = resolveQuota(options.quotaBackendBytes);
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.messages = new TraceBuffer({ clock: options.clock, capacity: options.messageCapacity ?? 10_000 });
    this.network = new PeerNetwork(options.clock, this.messages, () => this.latencyModel.rttMs / 2);
    const voters = Array.from({ length: n }, (_, i) => i + 1);
    const ids = options.random.fork('member-ids');
    // The bootstrap happens before the cluster's story begins: its elections are not recorded.
    const ctx: { -readonly [K in keyof MemberContext]: MemberContext[K] } = {
      clock: options.clock,
      network: this.network,
      trace: undefined,
      timings: this.timings,
      latency: () => this.latencyModel,
      voters,
      quota: this.quotaBackendBytes,
      nameOf: (id: NodeId) => this.members[id - 1]?.name ?? String(id),
      nameOfMember: (memberId: string) => this.members.find((m) => m.memberId === memberId)?.name ?? memberId,
    };
    for (const id of voters) {
      const memberId = ids.nextUint32().toString(16).padStart(8, '0') + ids.nextUint32().toString(16).padStart(8, '0');
      const m = new EtcdMember(`etcd-${id - 1}`, id, memberId, ctx, options.random.fork(`etcd-${id - 1}`), options.restore);
      this.members.push(m);
      this.network.add(m);
    }
    this.bootstrap();
    ctx.trace = options.trace;
  }

  /** Where member events and maintenance steps are recorded. */
  get trace(): TraceBuffer | undefined {
    return this.options.trace;
  }

  get clock(): Clock {
    return this.options.clock;
  }

  get latency(): EtcdLatency {
    return this.latencyModel;
  }

  /** Changes the latency model from now on (messages and writes already in flight keep theirs). */
  setLatency(latency: EtcdLatency): void {
    this.latencyModel = latency;
  }

  leader(): EtcdMember | undefined {
    return this.members.find((m) => m.isLeader());
  }

  member(name: string): EtcdMember {
    const m = this.members.find((x) => x.name === name);
    if (!m) throw new Error(`etcd member "${name}" not found (members: ${this.members.map((x) => x.name).join(', ')})`);
    return m;
  }

  /** A member by name, or `leader` for the current leader. */
  resolve(target: string): EtcdMember {
    if (target !== 'leader') return this.member(target);
    const lead = this.leader();
    if (!lead) throw new Error('etcd has no leader now');
    return lead;
  }

  /** Kills a member's process. */
  stop(target: string): EtcdMember {
    const m = this.resolve(target);
    if (!m.isRunning()) return m;
    m.record('stopped', `${m.name} stopped`);
    m.stop();
    return m;
  }

  /** Starts a stopped member from its WAL and database; it catches up from the leader's log or a snapshot. */
  start(target: string): EtcdMember {
    const m = this.resolve(target);
    if (m.isRunning()) return m;
    m.start();
    m.record('started', `${m.name} started from its WAL at index ${m.storage.lastIndex()} (term ${m.storage.hardState.term})`);
    m.startTicking(0);
    if (this.network.isPartitioned(m.raftId)) this.network.linkDown(m.raftId);
    return m;
  }

  /** Cuts a member off from the other members (its clients still reach it). */
  partition(target: string): EtcdMember {
    const m = this.resolve(target);
    if (this.network.isPartitioned(m.raftId)) return m;
    this.network.partition(m.raftId);
    m.record('partitioned', `${m.name} was cut off from the other members`);
    return m;
  }

  /** Reconnects a partitioned member, or every one when no target is given; also restores slow disks. */
  heal(target?: string): EtcdMember[] {
    const which = target === undefined ? this.members : [this.resolve(target)];
    for (const m of which) {
      if (this.network.isPartitioned(m.raftId)) {
        this.network.heal(m.raftId);
        m.record('healed', `${m.name} can reach the other members again`);
      }
      if (m.slowFsyncMs !== undefined) {
        m.slowFsyncMs = undefined;
        m.record('disk-normal', `${m.name}'s disk is fast again`);
      }
    }
    return which;
  }

  /** Makes a member's WAL fsync take `fsyncMs` (default 1 s). */
  slowDisk(target: string, fsyncMs = SLOW_DISK_FSYNC_MS): EtcdMember {
    const m = this.resolve(target);
    m.slowFsyncMs = fsyncMs;
    m.record('disk-slow', `${m.name}'s disk became slow: each WAL fsync takes ${fsyncMs} ms`);
    return m;
  }

  /** Asks the leader to hand leadership to `target` (etcdctl move-leader): MsgTimeoutNow once it is caught up. */
  transferLeadership(target: string): EtcdMember {
    const to = this.resolve(target);
    const lead = this.leader();
    if (!lead) throw new Error('etcd has no leader now');
    if (lead === to) return to;
    lead.record('transfer', `${lead.name} hands leadership to ${to.name}`);
    lead.transferLeadership(to.raftId);
    return to;
  }

  /** Every alarm a running member knows of (etcd's alarm store is replicated through Raft). */
  alarms(): AlarmMember[] {
    const from = this.leader() ?? this.members.find((m) => m.isRunning());
    if (!from) return [];
    const out: AlarmMember[] = [];
    for (const [memberId, set] of from.alarms) for (const alarm of [...set].sort()) out.push({ memberId, alarm });
    return out.sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  }

  status(): MemberStatus[] {
    const now = this.options.clock.now();
    return this.members.map((m) => memberStatus(m, this.network.isPartitioned(m.raftId), (id) => this.members[id - 1]?.name, this.quotaBackendBytes, now));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const m of this.members) {
      m.stop();
      m.mvcc.close();
    }
  }

  /**
   * A fresh cluster before the clock starts: one configuration entry per member at term 1,
   * then ticks (etcd first advances a new member's ticks to just before its election timeout)
   * until a leader is elected, the members have published themselves and the leader set the
   * cluster version.
   */
  private bootstrap(): void {
    const saved = this.latencyModel;
    // The bootstrap takes no virtual time.
    this.latencyModel = { apiserverMs: 0, rttMs: 0, walFsyncMs: 0 };
    try {
      const confChanges: Entry[] = this.members.map((m, i) => ({ term: 1, index: i + 1, type: 'EntryConfChange', data: m.name, bytes: 32 }));
      for (const m of this.members) m.start(confChanges);
      const advance = this.members.length === 1 ? this.timings.electionTicks - 1 : this.timings.electionTicks - 2;
      for (const m of this.members) m.advanceTicks(advance);
      let published = false;
      for (let ticks = 0; ticks < 100 * this.timings.electionTicks; ticks++) {
        const lead = this.leader();
        if (lead && !published) {
          published = true;
          for (const m of this.members) m.propose({ publish: m.name }, () => undefined);
          lead.propose({ clusterVersion: ETCD_CLUSTER_VERSION }, () => undefined);
        }
        if (published && this.settled()) break;
        for (const m of this.members) m.tickOnce();
      }
      if (!this.leader()) throw new Error('etcd: the bootstrap elected no leader');
    } finally {
      this.latencyModel = saved;
    }
    // Each member's ticker starts at its own instant within the first tick.
    const phases = this.options.random.fork('tick-phases');
    for (const m of this.members) m.startTicking(1 + phases.int(this.timings.tickMs));
  }

  /** Every member has applied everything the leader committed. */
  private settled(): boolean {
    const lead = this.leader();
    if (!lead?.raft) return false;
    const committed = lead.raft.raft.raftLog.committed;
    return this.members.every((m) => m.raft && m.raft.raft.raftLog.applied >= committed && m.raft.raft.raftLog.committed >= committed);
  }
}

function memberStatus(m: EtcdMember, partitioned: boolean, nameOf: (id: NodeId) => string | undefined, quota: number, now: number): MemberStatus {
  const node = m.raft;
  const hs = m.storage.hardState;
  const log = node?.raft.raftLog;
  const last = log ? log.lastIndex() : m.storage.lastIndex();
  const first = log ? log.firstIndex() : m.storage.firstIndex();
  const tail: { index: number; term: number; kind: string }[] = [];
  const from = Math.max(first, last - LOG_TAIL + 1);
  const ents = log ? log.slice(from, last + 1, Number.MAX_SAFE_INTEGER) : m.storage.entries(from, last + 1, Number.MAX_SAFE_INTEGER);
  if (ents !== 'compacted') for (const e of ents) tail.push({ index: e.index, term: e.term, kind: entryKind(e) });
  const status = m.mvcc.status();
  const bolt = m.mvcc.boltStats();
  const vote = node ? node.raft.vote : hs.vote;
  const lead = m.leader();
  return {
    name: m.name,
    id: m.memberId,
    role: m.isRunning() ? m.state().role : 'follower',
    state: m.isRunning() ? 'running' : 'stopped',
    partitioned,
    ...(m.slowFsyncMs !== undefined ? { slowFsyncMs: m.slowFsyncMs } : {}),
    term: node ? node.raft.term : hs.term,
    ...(vote !== NONE ? { vote: nameOf(vote) } : {}),
    ...(lead !== NONE ? { lead: nameOf(lead) } : {}),
    commitIndex: log ? log.committed : hs.commit,
    appliedIndex: m.mvcc.consistentIndex,
    firstIndex: first,
    lastIndex: last,
    revision: status.revision,
    compactRevision: status.compactRevision,
    dbSizeBytes: bolt.sizeBytes,
    dbSizeInUseBytes: bolt.sizeInUseBytes,
    quotaBackendBytes: quota,
    alarms: m.raisedAlarms(),
    watchers: m.mvcc.watchers,
    revisionsPerSecond: m.metrics.revisionsPerSecond(now),
    commitLatencyMs: m.metrics.commitLatencyMs(now),
    version: ETCD_SERVER_VERSION,
    errors: statusErrors(m),
    log: tail,
  };
}

/** An etcd member ID (16 hex digits) as etcd prints uint64 IDs: in decimal. */
export function decimalId(hex: string): string {
  return BigInt(`0x${hex}`).toString(10);
}

/** An alarm as etcd's AlarmMember String() prints it (etcdctl alarm list, endpoint status's ERRORS). */
export function alarmText(a: AlarmMember): string {
  return `memberID:${decimalId(a.memberId)} alarm:${a.alarm} `;
}

/** The alarms this member's alarm store holds. */
export function memberAlarms(m: EtcdMember): AlarmMember[] {
  const out: AlarmMember[] = [];
  for (const memberId of [...m.alarms.keys()].sort()) for (const alarm of [...m.alarms.get(memberId)!].sort()) out.push({ memberId, alarm });
  return out;
}

/** Maintenance.Status's errors: "etcdserver: no leader" while the member knows none, then each alarm. */
export function statusErrors(m: EtcdMember): string[] {
  if (!m.isRunning()) return [];
  return [...(m.leader() === NONE ? ['etcdserver: no leader'] : []), ...memberAlarms(m).map(alarmText)];
}

function entryKind(e: Entry): string {
  if (e.type === 'EntryConfChange') return 'conf-change';
  if (e.data === undefined) return 'empty';
  const req = (e.data as { request?: object }).request;
  return req ? Object.keys(req)[0] ?? 'normal' : 'normal';
}
