/**
 * The one-worker queue of object names that the API server's own controllers (the CRD
 * controllers, APIService autoregistration) drain, as kube-apiserver runs each with a workqueue
 * and one worker: a name queued twice before its sync is synced once; a name queued during its
 * own sync is synced again after it; the drain runs as one clock task and holds the clock's
 * work until the queue is empty.
 */
import type { Clock } from '../clock';

export class NameQueue {
  private readonly queued = new Set<string>();
  private running = false;

  constructor(
    private readonly clock: Clock,
    /** The drain task's label in the clock's trace. */
    private readonly label: string,
    private readonly sync: (name: string) => Promise<void>,
  ) {}

  add(name: string): void {
    this.queued.add(name);
    if (this.running) return;
    this.running = true;
    this.clock.queueTask(() => this.drain(), { label: this.label });
  }

  private async drain(): Promise<void> {
    const release = this.clock.work();
    try {
      for (const name of this.queued) {
        this.queued.delete(name);
        await this.sync(name);
      }
    } finally {
      this.running = false;
      release();
    }
  }
}
