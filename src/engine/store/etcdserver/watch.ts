/**
 * One client watch (a clientv3 watcher): registered on the member the client talks to, its
 * responses reach the client half a round trip later, in order. When that member stops, is
 * replaced by a snapshot, or has had no leader for three election timeouts (etcd then cancels
 * watches that require a leader, as kube-apiserver's do), the watch moves to another member
 * from the revision after the last one it delivered, as clientv3 resumes a broken stream.
 */
import type { Clock } from '../../clock';
import type { Mvcc } from '../memory/mvcc';
import type { Watch, WatchListener, WatchRequest, WatchResponse } from '../types';
import type { EtcdMember } from './member';

export class ClientWatch implements Watch {
  readonly ready: Promise<void> = Promise.resolve();
  member: EtcdMember | undefined;
  private inner: Watch | undefined;
  /** The revision to resume from: one after the last this watch delivered (or was told of). */
  private nextRevision = 0;
  private done = false;
  private retryTimer: ReturnType<Clock['setTimer']> | undefined;
  private readonly onReplaced = (mvcc: Mvcc): void => this.reattach(mvcc);
  private readonly onUnavailable = (): void => this.move();

  constructor(
    private readonly clock: Clock,
    private readonly request: WatchRequest,
    private readonly listener: WatchListener,
    private readonly oneWayMs: () => number,
    private readonly pickAnother: () => EtcdMember | undefined,
    private readonly forget: () => void,
  ) {}

  attach(member: EtcdMember): void {
    this.detach();
    this.member = member;
    member.mvccReplaced.add(this.onReplaced);
    member.unavailable.add(this.onUnavailable);
    this.register(member.mvcc);
  }

  requestProgress(): void {
    this.inner?.requestProgress();
  }

  async cancel(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.clock.clearTimer(this.retryTimer);
    this.detach();
    this.forget();
  }

  private register(mvcc: Mvcc): void {
    const first = this.nextRevision === 0;
    const start = first ? this.request.startRevision : this.nextRevision;
    if (first) this.nextRevision = start ? start : mvcc.revision + 1;
    this.inner = mvcc.watch({ ...this.request, startRevision: start }, (r) => this.onResponse(r));
  }

  private onResponse(r: WatchResponse): void {
    if (this.done) return;
    const last = r.events.length > 0 ? r.events[r.events.length - 1]!.kv.modRevision : r.header.revision;
    if (!r.canceled && last + 1 > this.nextRevision) this.nextRevision = last + 1;
    // A cancellation ends the watch here; its response still reaches the client.
    if (r.canceled) void this.cancel();
    const delay = this.oneWayMs();
    if (delay === 0) this.listener(r);
    else
      this.clock.setTimer(
        delay,
        () => {
          if (!this.done || r.canceled) this.listener(r);
        },
        { label: 'etcd watch response' },
      );
  }

  /** The member's database was replaced by a snapshot: watch the new one from where this watch was. */
  private reattach(mvcc: Mvcc): void {
    this.inner?.cancel();
    this.register(mvcc);
  }

  /** The member stopped or lost its leader: continue on another member, or try again in a second. */
  private move(): void {
    if (this.done) return;
    const next = this.pickAnother();
    if (next) {
      this.attach(next);
      return;
    }
    this.detach();
    this.retryTimer = this.clock.setTimer(1000, () => this.move(), { daemon: true, label: 'etcd watch reconnect' });
  }

  private detach(): void {
    if (this.member) {
      this.member.mvccReplaced.delete(this.onReplaced);
      this.member.unavailable.delete(this.onUnavailable);
    }
    void this.inner?.cancel();
    this.inner = undefined;
    this.member = undefined;
  }
}
