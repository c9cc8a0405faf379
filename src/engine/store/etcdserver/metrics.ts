/**
 * A member's rates over virtual time, as etcd's Prometheus metrics let one chart them: revisions
 * applied per second (the rate of etcd_mvcc_put_total + etcd_mvcc_delete_total) and the commit
 * latency of its own proposals (etcd_server_proposals_committed_total with the time from
 * proposal to apply, what a client's write waits on the member). Each is kept in 100 ms slots
 * over a trailing window of one second, so a status read at any instant is cheap and
 * deterministic.
 */
const SLOT_MS = 100;
const SLOTS = 10;
export const METRICS_WINDOW_MS = SLOT_MS * SLOTS;

export class SlidingWindow {
  private readonly slot = new Array<number>(SLOTS).fill(-1);
  private readonly sums = new Array<number>(SLOTS).fill(0);
  private readonly counts = new Array<number>(SLOTS).fill(0);

  add(now: number, value: number, count = 1): void {
    const s = Math.floor(now / SLOT_MS);
    const i = s % SLOTS;
    if (this.slot[i] !== s) {
      this.slot[i] = s;
      this.sums[i] = 0;
      this.counts[i] = 0;
    }
    this.sums[i]! += value;
    this.counts[i]! += count;
  }

  /** Sum and count of the slots within the window ending at `now`. */
  totals(now: number): { sum: number; count: number } {
    const current = Math.floor(now / SLOT_MS);
    let sum = 0;
    let count = 0;
    for (let i = 0; i < SLOTS; i++) {
      const s = this.slot[i]!;
      if (s >= 0 && s > current - SLOTS && s <= current) {
        sum += this.sums[i]!;
        count += this.counts[i]!;
      }
    }
    return { sum, count };
  }
}

export class MemberMetrics {
  private readonly revisions = new SlidingWindow();
  private readonly commits = new SlidingWindow();
  /** Totals since the member started, for counters. */
  revisionsTotal = 0;
  proposalsCommitted = 0;

  revision(now: number, n: number): void {
    if (n <= 0) return;
    this.revisionsTotal += n;
    this.revisions.add(now, n, n);
  }

  committed(now: number, latencyMs: number): void {
    this.proposalsCommitted++;
    this.commits.add(now, latencyMs);
  }

  revisionsPerSecond(now: number): number {
    return (this.revisions.totals(now).sum * 1000) / METRICS_WINDOW_MS;
  }

  /** Mean latency of the proposals committed in the window, or null if none was. */
  commitLatencyMs(now: number): number | null {
    const { sum, count } = this.commits.totals(now);
    return count === 0 ? null : Math.round((sum / count) * 1000) / 1000;
  }
}
