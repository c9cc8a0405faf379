/**
 * One member's side of etcd's v3 API (etcdserver's KV, Watch, Lease, Cluster, Maintenance and
 * Auth servers, without the wire): what a client connected to this member gets. Unlike
 * EtcdClient, which is kube-apiserver's client and balances over every member, a MemberServer
 * is pinned to its member: a request reaches it half a network round trip after it was sent,
 * writes are this member's Raft proposals (a follower forwards them to the leader), linearizable
 * reads take this member's ReadIndex round, serializable ones read its own MVCC state, Status
 * reports its own Raft and bbolt figures, and a stopped member answers nothing. The gRPC facade
 * (src/etcd-grpc) serves one MemberServer per loopback listener.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock';
import { checkGrpcSize, checkRaftSize, deleteRangeSize, putSize, rangeSize, txnSize } from '../limits';
import { hashKV } from '../memory/hash';
import type { Mvcc } from '../memory/mvcc';
import { checkDeleteRange, checkPut, checkRange, checkTxn } from '../memory/validate';
import { isReadOnlyTxn } from '../requests';
import {
  MAX_TXN_OPS,
  StoreError,
  type CompactResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchRequest,
  type WatchResponse,
} from '../types';
import type { AlarmMember, ApplyResult, RaftRequest } from './apply';
import { ETCD_SERVER_VERSION, decimalId, memberAlarms, statusErrors, type EtcdCluster } from './cluster';
import { defragmentMember } from './maintenance';
import type { EtcdAlarmType, EtcdMember } from './member';
import { fail, ok, type Result } from '../../api/result';

export { ETCD_SERVER_VERSION, alarmText, decimalId } from './cluster';

/** etcd's ResponseHeader: IDs are uint64, as decimal strings. */
export interface MemberHeader {
  readonly clusterId: string;
  readonly memberId: string;
  readonly revision: number;
  readonly raftTerm: number;
}

/** etcd's StatusResponse, as this member answers it. */
export interface MemberServerStatus {
  readonly header: MemberHeader;
  readonly version: string;
  readonly dbSize: number;
  readonly dbSizeInUse: number;
  /** The leader this member knows of (decimal member ID), '0' for none. */
  readonly leader: string;
  readonly raftIndex: number;
  readonly raftTerm: number;
  readonly raftAppliedIndex: number;
  /** The active alarms, as etcd prints them (`memberID:<decimal> alarm:NOSPACE `). */
  readonly errors: readonly string[];
  readonly isLearner: boolean;
}

export interface MemberInfo {
  /** Decimal uint64. */
  readonly id: string;
  readonly name: string;
  readonly peerUrls: readonly string[];
  readonly clientUrls: readonly string[];
  readonly isLearner: boolean;
}

/** A member ID (16 hex digits) as the decimal uint64 etcd puts on the wire. */
/** A decimal uint64 member ID as kubesim's 16 hex digits, or undefined if it is not one. */
export function hexId(decimal: string): string | undefined {
  if (!/^[0-9]{1,20}$/.test(decimal)) return undefined;
  const n = BigInt(decimal);
  if (n >= 1n << 64n) return undefined;
  return n.toString(16).padStart(16, '0');
}

/** etcd's cluster ID (RaftCluster.genID): the first 8 bytes of the SHA-1 of the sorted member IDs, big-endian. */
export function clusterId(cluster: EtcdCluster): string {
  const ids = cluster.members.map((m) => BigInt(`0x${m.memberId}`)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const buf = Buffer.alloc(8 * ids.length);
  ids.forEach((id, i) => buf.writeBigUInt64BE(id, 8 * i));
  return createHash('sha1').update(buf).digest().readBigUInt64BE(0).toString(10);
}

export interface MemberServerOptions {
  /** The client URLs this member advertises (MemberList), by member name. */
  clientUrls?: (name: string) => readonly string[];
}

export class MemberServer {
  private readonly cid: string;

  constructor(
    readonly cluster: EtcdCluster,
    readonly member: EtcdMember,
    private readonly clock: Clock,
    private readonly options: MemberServerOptions = {},
  ) {
    this.cid = clusterId(cluster);
  }

  isRunning(): boolean {
    return this.member.isRunning();
  }

  /** Whether this member knows a leader now. */
  hasLeader(): boolean {
    return this.member.leader() !== 0;
  }

  /**
   * Calls `lost` when this member has had no leader for three election timeouts (etcd's
   * monitorLeader cancels the streams that require a leader then). Returns the unsubscribe.
   */
  onLeaderLost(lost: () => void): () => void {
    const listener = (why: 'stopped' | 'no-leader'): void => {
      if (why === 'no-leader') lost();
    };
    this.member.unavailable.add(listener);
    return () => this.member.unavailable.delete(listener);
  }

  header(revision = this.member.mvcc.revision): MemberHeader {
    return { clusterId: this.cid, memberId: decimalId(this.member.memberId), revision, raftTerm: this.member.raft?.raft.term ?? this.member.storage.hardState.term };
  }

  // --- KV ---------------------------------------------------------------------------------

  range(r: RangeRequest): Promise<RangeResponse> {
    checkGrpcSize(rangeSize, r);
    checkRange(r);
    return this.read((mvcc) => mvcc.range(r), r.serializable === true);
  }

  put(r: PutRequest): Promise<PutResponse> {
    checkGrpcSize(putSize, r);
    checkPut(r);
    checkRaftSize(putSize, r);
    return this.write<PutResponse>({ put: r });
  }

  deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    checkGrpcSize(deleteRangeSize, r);
    checkDeleteRange(r);
    checkRaftSize(deleteRangeSize, r);
    return this.write<DeleteRangeResponse>({ deleteRange: r });
  }

  txn(r: TxnRequest): Promise<TxnResponse> {
    checkGrpcSize(txnSize, r);
    checkTxn(r, MAX_TXN_OPS);
    if (isReadOnlyTxn(r)) {
      const serializable = [...r.success, ...r.failure].every((op) => 'range' in op && op.range.serializable === true);
      return this.read((mvcc) => mvcc.applyTxn(r), serializable);
    }
    checkRaftSize(txnSize, r);
    return this.write<TxnResponse>({ txn: r });
  }

  compact(revision: number): Promise<CompactResponse> {
    return this.write<CompactResponse>({ compaction: revision });
  }

  // --- Lease ------------------------------------------------------------------------------

  async leaseGrant(ttlSeconds: number, id = 0): Promise<{ id: number; ttl: number }> {
    const leaseId = id ? id : this.member.mvcc.lessor.unusedId();
    return this.write<{ id: number; ttl: number }>({ leaseGrant: { id: leaseId, ttl: ttlSeconds } });
  }

  async leaseRevoke(id: number): Promise<void> {
    await this.write<unknown>({ leaseRevoke: id });
  }

  /** A keep-alive: the leader's lessor renews it (a follower forwards it). TTL 0: no such lease. */
  leaseKeepAlive(id: number): Promise<{ revision: number; ttl: number }> {
    return this.atLeader((lead) => ({ revision: lead.mvcc.revision, ttl: lead.mvcc.lessor.renew(id) }));
  }

  leaseTimeToLive(id: number, keys: boolean): Promise<{ revision: number; ttl: number; grantedTtl: number; keys: string[] }> {
    return this.atLeader((lead) => {
      const lease = lead.mvcc.lessor.timeToLive(id);
      if (!lease) return { revision: lead.mvcc.revision, ttl: -1, grantedTtl: 0, keys: [] };
      return { revision: lead.mvcc.revision, ttl: lease.ttl, grantedTtl: lease.grantedTtl, keys: keys ? lease.keys : [] };
    });
  }

  /** Every lease this member's state holds (etcd's LeaseLeases answers from the local lessor). */
  leaseLeases(): Promise<number[]> {
    return this.local(() => this.member.mvcc.lessor.state().leases.map((l) => l.id).sort((a, b) => a - b));
  }

  // --- Watch ------------------------------------------------------------------------------

  /**
   * A watch on this member's MVCC state. It follows the member's database when a snapshot
   * replaces it, and ends with `onClosed` when the member stops (its connections close).
   * Responses reach the client half a round trip after the member sent them.
   */
  watch(request: WatchRequest, listener: (r: WatchResponse) => void, onClosed: () => void): MemberWatch {
    if (!this.member.isRunning()) throw new StoreError('unavailable');
    return new MemberWatch(this.member, this.clock, request, listener, onClosed, () => this.hop());
  }

  // --- Cluster and maintenance ------------------------------------------------------------

  memberList(): Promise<MemberInfo[]> {
    return this.local(() =>
      this.cluster.members.map((m) => ({
        id: decimalId(m.memberId),
        name: m.name,
        // The peer network is simulated: nothing listens at these names (.invalid, RFC 2606).
        peerUrls: [`http://${m.name}.invalid:2380`],
        clientUrls: this.options.clientUrls?.(m.name) ?? [],
        isLearner: false,
      })),
    );
  }

  status(): Promise<MemberServerStatus> {
    return this.local(() => {
      const m = this.member;
      const log = m.raft?.raft.raftLog;
      const lead = this.cluster.members.find((x) => x.raftId === m.leader());
      return {
        header: this.header(),
        version: ETCD_SERVER_VERSION,
        dbSize: m.mvcc.dbSizeBytes,
        dbSizeInUse: m.mvcc.dbSizeInUseBytes,
        leader: lead ? decimalId(lead.memberId) : '0',
        raftIndex: log ? log.committed : m.storage.hardState.commit,
        raftTerm: m.raft?.raft.term ?? m.storage.hardState.term,
        raftAppliedIndex: m.mvcc.consistentIndex,
        errors: statusErrors(m),
        isLearner: false,
      };
    });
  }

  /** Alarm GET: the alarms this member's alarm store holds. */
  alarmList(): Promise<AlarmMember[]> {
    return this.local(() => this.localAlarms());
  }

  /** Alarm ACTIVATE or DEACTIVATE, through Raft: the alarms it changed. */
  alarm(action: 'activate' | 'deactivate', memberId: string, alarm: EtcdAlarmType): Promise<AlarmMember[]> {
    return this.write<AlarmMember[]>({ alarm: { action, memberId, alarm } });
  }

  /** Defragment this member's bbolt file (the cluster's one defragmentation, as etcdctl defrag runs it). */
  defragment(): Promise<void> {
    return this.local(() => {
      defragmentMember(this.cluster, this.member.name, this.cluster.trace, this.clock);
    });
  }

  /**
   * HashKV: this member's hash of its key bucket up to `revision` (0: its current one), taken
   * from its own MVCC state as etcd's maintenance server does (no Raft round): members that
   * applied the same entries answer the same hash.
   */
  hashKV(revision: number): Promise<{ header: MemberHeader; hash: number; compactRevision: number }> {
    return this.local(() => {
      const r = hashKV(this.member.mvcc.kv, revision);
      return { header: this.header(r.currentRevision), hash: r.hash, compactRevision: r.compactRevision };
    });
  }

  /**
   * MoveLeader: only the leader takes it (etcd: "etcdserver: not leader"); it answers once the
   * transferee leads, checking every tick, or fails after the request timeout as etcd's
   * MoveLeader does.
   */
  async moveLeader(targetMemberId: string): Promise<void> {
    const to = await this.local(() => {
      if (!this.member.isLeader()) throw new StoreError('notLeader');
      const target = this.cluster.members.find((m) => m.memberId === targetMemberId);
      if (!target) throw new StoreError('badLeaderTransferee');
      this.cluster.transferLeadership(target.name);
      return target;
    });
    const deadline = this.clock.now() + this.member.requestTimeoutMs;
    const { tickMs } = this.cluster.timings;
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (to.isLeader()) resolve();
        else if (this.clock.now() >= deadline) reject(new StoreError('leaderTransferTimeout'));
        else this.clock.setTimer(tickMs, check, { label: `etcd move-leader to ${to.name}` });
      };
      check();
    });
  }

  /** Authenticate goes through Raft in etcd 3.4 (InternalAuthenticateRequest): it needs a quorum. Returns the raft index it was applied at. */
  async authenticate(user: string): Promise<number> {
    await this.write<unknown>({ authenticate: user });
    return this.member.mvcc.consistentIndex;
  }

  // --- how requests travel ----------------------------------------------------------------

  private localAlarms(): AlarmMember[] {
    return memberAlarms(this.member);
  }

  private hop(): number {
    return this.cluster.latency.rttMs / 2;
  }

  private after(ms: number, fn: () => void, label: string): void {
    if (ms === 0) fn();
    else this.clock.setTimer(ms, fn, { label });
  }

  /** Half a round trip there, `serve` on the member, half a round trip back. */
  private local<T>(serve: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.after(
        this.hop(),
        () => {
          let result: Result<T, unknown>;
          if (!this.member.isRunning()) result = fail(new StoreError('unavailable'));
          else {
            try {
              result = ok(serve());
            } catch (error) {
              result = fail(error);
            }
          }
          this.after(this.hop(), () => (result.ok ? resolve(result.value) : reject(result.error)), `etcd response from ${this.member.name}`);
        },
        `etcd request to ${this.member.name}`,
      );
    });
  }

  private write<T>(request: RaftRequest): Promise<T> {
    const member = this.member;
    return new Promise<T>((resolve, reject) => {
      this.after(
        this.hop(),
        () =>
          member.propose(request, (result: ApplyResult) =>
            this.after(this.hop(), () => (result.ok ? resolve(result.value as T) : reject(result.error)), `etcd response from ${member.name}`),
          ),
        `etcd request to ${member.name}`,
      );
    });
  }

  private read<T>(serve: (mvcc: Mvcc) => T, serializable: boolean): Promise<T> {
    const member = this.member;
    return new Promise<T>((resolve, reject) => {
      this.after(
        this.hop(),
        () => {
          const answer = (error: StoreError | undefined): void => {
            let result: Result<T, unknown>;
            if (error) result = fail(error);
            else {
              try {
                result = ok(serve(member.mvcc));
              } catch (err) {
                result = fail(err);
              }
            }
            this.after(this.hop(), () => (result.ok ? resolve(result.value) : reject(result.error)), `etcd response from ${member.name}`);
          };
          if (!member.isRunning()) answer(new StoreError('unavailable'));
          else if (serializable) answer(undefined);
          else member.linearizableRead(answer);
        },
        `etcd request to ${member.name}`,
      );
    });
  }

  /** Keep-alives and TTLs are answered by the leader's lessor: a follower forwards them (two more hops). */
  private atLeader<T>(serve: (lead: EtcdMember) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.after(
        this.hop(),
        () => {
          const member = this.member;
          const lead = this.cluster.members.find((m) => m.raftId === member.leader());
          const back = (result: Result<T, unknown>, extra: number): void =>
            this.after(extra + this.hop(), () => (result.ok ? resolve(result.value) : reject(result.error)), `etcd response from ${member.name}`);
          if (!member.isRunning()) return back(fail(new StoreError('unavailable')), 0);
          if (!lead?.isRunning()) return back(fail(new StoreError('noLeader')), 0);
          const forward = lead === member ? 0 : this.hop();
          this.after(
            forward,
            () => {
              try {
                back(ok(serve(lead)), forward);
              } catch (error) {
                back(fail(error), forward);
              }
            },
            `etcd lease request forwarded to ${lead.name}`,
          );
        },
        `etcd request to ${this.member.name}`,
      );
    });
  }
}

/** One watcher of a member's watch stream. */
export class MemberWatch {
  private inner: Watch | undefined;
  /** Where to resume when a snapshot replaces the member's database. */
  private nextRevision: number;
  private done = false;
  private readonly onReplaced = (mvcc: Mvcc): void => {
    void this.inner?.cancel();
    this.register(mvcc, this.nextRevision);
  };
  private readonly onUnavailable = (why: 'stopped' | 'no-leader'): void => {
    if (why !== 'stopped') return;
    this.cancel();
    this.onClosed();
  };

  constructor(
    private readonly member: EtcdMember,
    private readonly clock: Clock,
    private readonly request: WatchRequest,
    private readonly listener: (r: WatchResponse) => void,
    private readonly onClosed: () => void,
    private readonly oneWayMs: () => number,
  ) {
    this.nextRevision = request.startRevision ? request.startRevision : member.mvcc.revision + 1;
    member.mvccReplaced.add(this.onReplaced);
    member.unavailable.add(this.onUnavailable);
    this.register(member.mvcc, this.nextRevision);
  }

  requestProgress(): void {
    this.inner?.requestProgress();
  }

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.member.mvccReplaced.delete(this.onReplaced);
    this.member.unavailable.delete(this.onUnavailable);
    void this.inner?.cancel();
    this.inner = undefined;
  }

  private register(mvcc: Mvcc, from: number): void {
    this.inner = mvcc.watch({ ...this.request, startRevision: from }, (r) => this.onResponse(r));
  }

  private onResponse(r: WatchResponse): void {
    if (this.done) return;
    const last = r.events.length > 0 ? r.events[r.events.length - 1]!.kv.modRevision : 0;
    if (last + 1 > this.nextRevision) this.nextRevision = last + 1;
    if (r.canceled) this.cancel();
    const delay = this.oneWayMs();
    if (delay === 0) this.listener(r);
    else this.clock.setTimer(delay, () => this.listener(r), { label: 'etcd watch response' });
  }
}
