/**
 * kube-apiserver's etcd health check (storagebackend/factory/etcd3.go), behind the `etcd` check
 * of /healthz and /livez and the `etcd` and `etcd-readiness` checks of /readyz: a linearizable
 * Get of /registry/health with a 2 s timeout (--etcd-healthcheck-timeout and
 * --etcd-readycheck-timeout), at most one probe every half timeout; a check in between answers
 * with the last probe's result. With quorum lost the Get cannot be served and the check fails
 * with "error getting data from etcd: context deadline exceeded".
 */
import type { Clock } from '../clock';
import type { Store } from '../store/types';

/** storagebackend.DefaultHealthcheckTimeout and DefaultReadinessTimeout. */
export const ETCD_HEALTHCHECK_TIMEOUT_MS = 2000;

export class EtcdHealthCheck {
  private lastProbe = Number.NEGATIVE_INFINITY;
  private lastError: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly timeoutMs = ETCD_HEALTHCHECK_TIMEOUT_MS,
  ) {}

  /** The check's error text, or undefined when etcd answered. */
  async check(): Promise<string | undefined> {
    // rate.Every(timeout/2) with a burst of one.
    if (this.clock.now() - this.lastProbe < this.timeoutMs / 2) return this.lastError;
    this.lastProbe = this.clock.now();
    const error = await this.probe();
    this.lastError = error;
    return error;
  }

  private probe(): Promise<string | undefined> {
    return new Promise((resolve) => {
      let done = false;
      const timer = this.clock.setTimer(
        this.timeoutMs,
        () => {
          if (done) return;
          done = true;
          resolve('error getting data from etcd: context deadline exceeded');
        },
        { label: 'kube-apiserver etcd health check timeout' },
      );
      this.store.range({ key: '/registry/health' }).then(
        () => {
          if (done) return;
          done = true;
          this.clock.clearTimer(timer);
          resolve(undefined);
        },
        (err: unknown) => {
          if (done) return;
          done = true;
          this.clock.clearTimer(timer);
          resolve(`error getting data from etcd: ${err instanceof Error ? err.message : String(err)}`);
        },
      );
    });
  }
}
