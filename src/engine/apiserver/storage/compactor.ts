/**
 * kube-apiserver's etcd compactor: every interval (5 minutes) it records the current revision
 * in the key compact_rev_key and compacts to the revision it recorded the time before, so at
 * least one interval of history is always kept. The txn on compact_rev_key's version makes
 * several API servers agree on one compaction; it also means each round writes a revision.
 */
import type { Clock, Timer } from '../../clock';
import { StoreError, type Store } from '../../store/types';

export const COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
const COMPACT_REV_KEY = 'compact_rev_key';

export class Compactor {
  private expectVersion = 0;
  private lastRevision = 0;
  private timer: Timer | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly onCompacted: (revision: number) => void,
    private readonly intervalMs = COMPACTION_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.timer = this.clock.setTimer(this.intervalMs, () => this.tick(), { daemon: true, label: 'apiserver: etcd compaction' });
  }

  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** One round; exposed so hosts and tests can compact without waiting for the timer. */
  async compactOnce(): Promise<number | undefined> {
    const res = await this.store.txn({
      compare: [{ key: COMPACT_REV_KEY, target: 'version', result: '=', value: this.expectVersion }],
      success: [{ put: { key: COMPACT_REV_KEY, value: String(this.lastRevision) } }],
      failure: [{ range: { key: COMPACT_REV_KEY } }],
    });
    const current = res.header.revision;
    if (!res.succeeded) {
      // Another compactor moved first: adopt its bookkeeping and try again next round.
      const first = res.responses[0];
      const kv = first && 'range' in first ? first.range.kvs[0] : undefined;
      this.expectVersion = kv?.version ?? 0;
      this.lastRevision = current;
      return undefined;
    }
    this.expectVersion++;
    const target = this.lastRevision;
    this.lastRevision = current;
    if (target === 0) return undefined;
    await this.store.compact(target);
    this.onCompacted(target);
    return target;
  }

  private async tick(): Promise<void> {
    try {
      await this.compactOnce();
    } catch (err) {
      // Upstream logs "etcd: endpoint (...) compact failed" and tries again next interval (etcd
      // out of quorum: the txn times out); a txn that failed leaves the bookkeeping as it was.
      if (!(err instanceof StoreError)) throw err;
    }
    if (this.timer) this.timer = this.clock.setTimer(this.intervalMs, () => this.tick(), { daemon: true, label: 'apiserver: etcd compaction' });
  }
}
