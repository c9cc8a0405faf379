/**
 * A controller's workers (wait.UntilWithContext(worker) started --concurrent-*-syncs times):
 * each takes an item, processes it and marks it done, until the queue shuts down.
 */
import type { WorkQueue } from './queue';

/** Resolves when every worker has stopped. A processing function that throws is a bug: the clock reports it. */
export async function runWorkers<T extends NonNullable<unknown>>(queue: WorkQueue<T>, workers: number, process: (item: T) => Promise<void>): Promise<void> {
  const loop = async (): Promise<void> => {
    for (;;) {
      const item = await queue.get();
      if (item === undefined) return;
      try {
        await process(item);
      } catch (err) {
        queue.clock.queueTask(() => {
          throw err;
        }, { label: `workqueue ${queue.name}: worker failed` });
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, loop));
}
