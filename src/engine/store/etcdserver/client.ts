/**
 * The API server's etcd client (clientv3 as kube-apiserver uses it) over the simulated cluster:
 * the Store interface. Requests go round-robin to the members that are up (gRPC's round_robin
 * balancer over --etcd-servers), each way taking half a network round trip. Writes are Raft
 * proposals and answer once the member they were sent to applied them; reads are linearizable
 * (a ReadIndex round) unless they ask to be serializable. As clientv3 does, reads that fail
 * with a retryable (Unavailable) error are retried every 25 ms, on the next member, until the
 * caller's deadline (kube-apiserver's 60 s request timeout); writes are not retried. Watches
 * move to another member, from the next revision, when theirs stops or loses its leader.
 *
 * With the instant latency model and a leader, every request completes before the call
 * returns, as the store did before it had Raft.
 */
import type { Clock, TimerOptions } from '../../clock';
import type { TraceBuffer } from '../../trace/buffer';
import type { EtcdRequestRecord } from '../../trace/etcd';
import { checkGrpcSize, checkRaftSize, deleteRangeSize, putSize, rangeSize, txnSize } from '../limits';
import type { StoreSnapshot } from '../snapshot';
import { checkDeleteRange, checkPut, checkRange, checkTxn } from '../memory/validate';
import { isReadOnlyTxn } from '../requests';
import {
  MAX_TXN_OPS,
  StoreError,
  type CompactResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  type LeaseGrantResponse,
  type LeaseKeepAliveResponse,
  type LeaseTimeToLiveResponse,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type ResponseHeader,
  type Store,
  type StoreErrorCode,
  type StoreStatus,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchListener,
  type WatchRequest,
} from '../types';
import type { AlarmMember, ApplyResult, RaftRequest } from './apply';
import type { EtcdAlarmType } from './member';
import type { EtcdCluster } from './cluster';
import type { EtcdMember } from './member';
import { defragmentMember, type MaintenanceResult } from './maintenance';
import { ClientWatch } from './watch';
import { fail, ok, type Result } from '../../api/result';

/** clientv3's wait between retries of a read (defaultBackoffWaitBetween). */
const RETRY_BACKOFF_MS = 25;
/** kube-apiserver's request timeout (--request-timeout): a read retried for longer gives up. */
export const CLIENT_DEADLINE_MS = 60_000;

/** The errors gRPC reports as code Unavailable: clientv3 retries reads on them. */
const RETRYABLE = new Set<StoreErrorCode>([
  'requestTimedOut',
  'timeoutDueToLeaderFail',
  'timeoutDueToConnectionLost',
  'leaderChanged',
  'noLeader',
  'stopped',
  'unavailable',
]);

type Outcome<T> = T | Promise<T>;

function isPromise<T>(v: Outcome<T>): v is Promise<T> {
  return v instanceof Promise;
}

/** Resolves with the value a callback delivers: synchronously (no promise) if it is delivered before `run` returns. */
function settleWith<T>(run: (deliver: (value: T | StoreError) => void) => void): Outcome<T> {
  let result: { value: T | StoreError } | undefined;
  let resolve: ((v: T) => void) | undefined;
  let reject: ((e: StoreError) => void) | undefined;
  run((value) => {
    if (resolve) {
      if (value instanceof StoreError) reject!(value);
      else resolve(value);
    } else if (!result) {
      result = { value };
    }
  });
  if (result) {
    if (result.value instanceof StoreError) throw result.value;
    return result.value;
  }
  return new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
}

export class EtcdClient implements Store {
  readonly backend = 'memory' as const;
  private next = 0;
  private readonly watches = new Set<ClientWatch>();
  private closed = false;

  constructor(
    readonly cluster: EtcdCluster,
    private readonly clock: Clock,
    private readonly trace: TraceBuffer | undefined,
  ) {}

  async range(r: RangeRequest): Promise<RangeResponse> {
    this.assertOpen();
    checkGrpcSize(rangeSize, r);
    checkRange(r);
    const out = this.read((m) => m.mvcc.range(r), r.serializable === true, 'range', r.key);
    return isPromise(out) ? await out : out;
  }

  async put(r: PutRequest): Promise<PutResponse> {
    this.assertOpen();
    checkGrpcSize(putSize, r);
    checkPut(r);
    checkRaftSize(putSize, r);
    const out = this.write<PutResponse>({ put: r }, 'put', r.key);
    return isPromise(out) ? await out : out;
  }

  async deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    this.assertOpen();
    checkGrpcSize(deleteRangeSize, r);
    checkDeleteRange(r);
    checkRaftSize(deleteRangeSize, r);
    const out = this.write<DeleteRangeResponse>({ deleteRange: r }, 'delete', r.key);
    return isPromise(out) ? await out : out;
  }

  async txn(r: TxnRequest): Promise<TxnResponse> {
    this.assertOpen();
    checkGrpcSize(txnSize, r);
    checkTxn(r, MAX_TXN_OPS);
    const key = firstKey(r);
    if (isReadOnlyTxn(r)) {
      // Read-only txns are served without raft; serializable if every range asks to be.
      const serializable = [...r.success, ...r.failure].every((op) => 'range' in op && op.range.serializable === true);
      const out = this.read((m) => m.mvcc.applyTxn(r), serializable, 'txn', key);
      return isPromise(out) ? await out : out;
    }
    checkRaftSize(txnSize, r);
    const out = this.write<TxnResponse>({ txn: r }, 'txn', key);
    return isPromise(out) ? await out : out;
  }

  async compact(revision: number): Promise<CompactResponse> {
    this.assertOpen();
    const out = this.write<CompactResponse>({ compaction: revision }, 'compact', String(revision));
    return isPromise(out) ? await out : out;
  }

  watch(request: WatchRequest, listener: WatchListener): Watch {
    this.assertOpen();
    const member = this.pick();
    if (!member) throw new StoreError('unavailable');
    const w: ClientWatch = new ClientWatch(this.clock, request, listener, () => this.cluster.latency.rttMs / 2, () => this.pickFor(w), () => this.watches.delete(w));
    this.watches.add(w);
    w.attach(member);
    return w;
  }

  async leaseGrant(ttlSeconds: number, id?: number): Promise<LeaseGrantResponse> {
    this.assertOpen();
    const member = this.pick();
    const leaseId = id ? id : (member ?? this.cluster.members[0]!).mvcc.lessor.unusedId();
    const out = this.write<{ id: number; ttl: number }>({ leaseGrant: { id: leaseId, ttl: ttlSeconds } }, 'lease grant', String(leaseId), member);
    const granted = isPromise(out) ? await out : out;
    return { header: this.headerOf(member), ...granted };
  }

  async leaseRevoke(id: number): Promise<ResponseHeader> {
    this.assertOpen();
    const member = this.pick();
    const out = this.write<unknown>({ leaseRevoke: id }, 'lease revoke', String(id), member);
    if (isPromise(out)) await out;
    return this.headerOf(member);
  }

  async leaseKeepAlive(id: number): Promise<LeaseKeepAliveResponse> {
    this.assertOpen();
    const out = this.atLeader((lead) => ({ header: { revision: lead.mvcc.revision }, id, ttl: lead.mvcc.lessor.renew(id) }));
    return isPromise(out) ? await out : out;
  }

  async leaseTimeToLive(id: number, keys = false): Promise<LeaseTimeToLiveResponse> {
    this.assertOpen();
    const out = this.atLeader((lead): LeaseTimeToLiveResponse => {
      const header = { revision: lead.mvcc.revision };
      const lease = lead.mvcc.lessor.timeToLive(id);
      if (!lease) return { header, id, ttl: -1, grantedTtl: 0, keys: [] };
      return { header, id, ttl: lease.ttl, grantedTtl: lease.grantedTtl, keys: keys ? lease.keys : [] };
    });
    return isPromise(out) ? await out : out;
  }

  /** The revision now, read linearizably (as kube-apiserver asks for the current resource version). */
  async status(): Promise<StoreStatus> {
    this.assertOpen();
    const out = this.read((m) => m.mvcc.status(), false, 'status', '');
    return isPromise(out) ? await out : out;
  }

  /** The alarms of the cluster (`etcdctl alarm list`). */
  alarmList(): AlarmMember[] {
    this.assertOpen();
    return this.cluster.alarms();
  }

  /**
   * Raises or disarms an alarm through Raft (etcd's Alarm ACTIVATE or DEACTIVATE). Disarming
   * NOSPACE while the database is still over the quota lets the next write raise it again.
   */
  async alarm(action: 'activate' | 'deactivate', memberId: string, alarm: EtcdAlarmType): Promise<AlarmMember[]> {
    this.assertOpen();
    const out = this.write<AlarmMember[]>({ alarm: { action, memberId, alarm } }, `alarm ${action}`, alarm);
    return isPromise(out) ? await out : out;
  }

  /** `etcdctl alarm disarm`: every alarm there is, disarmed. */
  async alarmDisarmAll(): Promise<AlarmMember[]> {
    const out: AlarmMember[] = [];
    for (const a of this.alarmList()) out.push(...(await this.alarm('deactivate', a.memberId, a.alarm)));
    return out;
  }

  /** `etcdctl defrag` on one member (by name, or `leader`). */
  defragment(member: string): MaintenanceResult {
    this.assertOpen();
    return defragmentMember(this.cluster, member, this.trace, this.clock);
  }

  /** The database of the leader (or of the member that applied most), for saving the cluster. */
  snapshot(): StoreSnapshot {
    this.assertOpen();
    const from = this.cluster.leader() ?? [...this.cluster.members].sort((a, b) => b.mvcc.consistentIndex - a.mvcc.consistentIndex)[0]!;
    return from.mvcc.snapshot(this.clock.now());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) await w.cancel();
    this.cluster.close();
  }

  /** The next member that is up, round robin (gRPC's round_robin skips connections that are down). */
  private pick(): EtcdMember | undefined {
    const ms = this.cluster.members;
    for (let i = 0; i < ms.length; i++) {
      const m = ms[(this.next + i) % ms.length]!;
      if (m.isRunning()) {
        this.next = (this.next + i + 1) % ms.length;
        return m;
      }
    }
    return undefined;
  }

  /** A member for a watch to move to: one that is up and knows a leader, if there is one. */
  private pickFor(w: ClientWatch): EtcdMember | undefined {
    const ms = this.cluster.members.filter((m) => m.isRunning() && m !== w.member);
    return ms.find((m) => m.leader() !== 0) ?? ms[0];
  }

  private headerOf(member: EtcdMember | undefined): ResponseHeader {
    return { revision: (member ?? this.cluster.members[0]!).mvcc.revision };
  }

  private hop(): number {
    return this.cluster.latency.rttMs / 2;
  }

  /** Runs `fn` after `ms` of virtual time (work in flight: it keeps the clock from settling), or now. */
  private after(ms: number, fn: () => void, timer: TimerOptions): void {
    if (ms === 0) fn();
    else this.clock.setTimer(ms, fn, timer);
  }

  private write<T>(request: RaftRequest, op: string, key: string, chosen?: EtcdMember): Outcome<T> {
    const started = this.clock.now();
    const member = chosen ?? this.pick();
    if (!member) return this.fail(new StoreError('unavailable'), undefined, op, key, started);
    const hop = this.hop();
    const out = settleWith<ApplyResult>((deliver) => {
      this.after(
        hop,
        () => member.propose(request, (result) => this.after(hop, () => deliver(result), member.timers.response)),
        member.timers.request,
      );
    });
    const finish = (r: ApplyResult): T => {
      if (r.ok) return r.value as T;
      this.recordFailure(member, op, key, r.error, started);
      throw r.error;
    };
    return isPromise(out) ? out.then(finish) : finish(out);
  }

  private read<T>(serve: (m: EtcdMember) => T, serializable: boolean, op: string, key: string): Outcome<T> {
    const started = this.clock.now();
    const attempt = (): Outcome<T> => {
      const member = this.pick();
      if (!member) return this.retry(new StoreError('unavailable'), undefined, attempt, op, key, started);
      const hop = this.hop();
      const out = settleWith<Result<T, StoreError>>((deliver) => {
        this.after(
          hop,
          () => {
            const answer = (error: StoreError | undefined): void => {
              let result: Result<T, StoreError>;
              if (error) result = fail(error);
              else {
                try {
                  result = ok(serve(member));
                } catch (err) {
                  if (!(err instanceof StoreError)) throw err;
                  result = fail(err);
                }
              }
              this.after(hop, () => deliver(result), member.timers.response);
            };
            if (!member.isRunning()) answer(new StoreError('unavailable'));
            else if (serializable) answer(undefined);
            else member.linearizableRead(answer);
          },
          member.timers.request,
        );
      });
      // The failure is delivered boxed: settleWith would throw a bare StoreError past the retry.
      const finish = (r: Result<T, StoreError>): Outcome<T> => (r.ok ? r.value : this.retry(r.error, member, attempt, op, key, started));
      return isPromise(out) ? out.then(finish) : finish(out);
    };
    return attempt();
  }

  /** A read failed: retry it if gRPC calls the error Unavailable and the deadline allows, else fail. */
  private retry<T>(error: StoreError, member: EtcdMember | undefined, attempt: () => Outcome<T>, op: string, key: string, started: number): Outcome<T> {
    if (!RETRYABLE.has(error.code)) throw error;
    if (this.clock.now() + RETRY_BACKOFF_MS - started > CLIENT_DEADLINE_MS) return this.fail(new StoreError('deadlineExceeded'), member, op, key, started);
    return new Promise<T>((resolve, reject) => {
      this.clock.setTimer(
        RETRY_BACKOFF_MS,
        () => {
          try {
            const out = attempt();
            if (isPromise(out)) out.then(resolve, reject);
            else resolve(out);
          } catch (err) {
            reject(err);
          }
        },
        { label: `etcd client retry ${op}` },
      );
    });
  }

  private fail(error: StoreError, member: EtcdMember | undefined, op: string, key: string, started: number): never {
    this.recordFailure(member, op, key, error, started);
    throw error;
  }

  /** Lease keep-alives and TTLs are the leader's business: a follower forwards them. */
  private atLeader<T>(serve: (lead: EtcdMember) => T): Outcome<T> {
    const member = this.pick();
    if (!member) throw new StoreError('unavailable');
    const lead = this.cluster.members.find((m) => m.raftId === member.leader());
    if (!lead?.isRunning()) throw new StoreError('noLeader');
    const hops = member === lead ? 2 : 4;
    const ms = hops * this.hop();
    if (ms === 0) return serve(lead);
    return new Promise<T>((resolve, reject) => {
      this.clock.setTimer(
        ms,
        () => {
          try {
            resolve(serve(lead));
          } catch (err) {
            reject(err);
          }
        },
        { label: 'etcd lease request' },
      );
    });
  }

  private recordFailure(member: EtcdMember | undefined, op: string, key: string, error: StoreError, started: number): void {
    this.trace?.emit<EtcdRequestRecord>({
      type: 'etcd.request',
      component: 'kube-apiserver',
      member: member?.name ?? '',
      op,
      key,
      error: error.message,
      durationMs: this.clock.now() - started,
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('kubesim: the store is closed');
  }
}

function firstKey(r: TxnRequest): string {
  for (const op of [...r.success, ...r.failure]) {
    if ('put' in op) return op.put.key;
    if ('deleteRange' in op) return op.deleteRange.key;
    if ('range' in op) return op.range.key;
  }
  return r.compare[0]?.key ?? '';
}
