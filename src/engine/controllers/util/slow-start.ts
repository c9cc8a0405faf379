/**
 * Slow start (slowStartBatch): pods are created in batches of 1, 2, 4, ... so that a create that
 * will fail for every pod (quota, admission) fails once, not hundreds of times. A batch's calls
 * run concurrently; the first failing batch ends the run.
 */

/** SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** The batch sizes for count calls. */
export function slowStartBatchSizes(count: number, initial = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const sizes: number[] = [];
  let remaining = count;
  for (let size = Math.min(remaining, initial); size > 0; size = Math.min(2 * size, remaining)) {
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

/** Runs fn count times in slow-start batches; returns the successes and the first error of the failing batch. */
export async function slowStartBatch(count: number, fn: () => Promise<void>, initial = SLOW_START_INITIAL_BATCH_SIZE): Promise<[number, Error | undefined]> {
  let successes = 0;
  for (const size of slowStartBatchSizes(count, initial)) {
    const results = await Promise.allSettled(Array.from({ length: size }, () => fn()));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += size - failures.length;
    if (failures.length > 0) return [successes, toError(failures[0]!.reason)];
  }
  return [successes, undefined];
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
