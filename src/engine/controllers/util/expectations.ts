/**
 * ControllerExpectations with UID tracking (controller_utils.go): after a ReplicaSet asks for
 * creates or deletes it waits for the informer to show them before it counts pods again, since
 * until then its cache would make it create or delete twice. Expectations that are not met
 * within five minutes (of the virtual clock) are given up on.
 */
import type { Clock } from '../../clock';

export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();
  /** Keys (namespace/name) of the pods each controller expects to see deleted. */
  private readonly deletions = new Map<string, Set<string>>();

  constructor(private readonly clock: Clock) {}

  /** Whether the controller may sync: nothing outstanding, expectations expired, or none recorded. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, adds: number): void {
    this.byKey.set(key, { add: adds, del: 0, timestamp: this.clock.now() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.deletions.set(key, new Set(podKeys));
    this.byKey.set(key, { add: 0, del: podKeys.length, timestamp: this.clock.now() });
  }

  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** Counts a deletion only once per expected pod, whether seen as a deletionTimestamp or as the delete. */
  deletionObserved(key: string, podKey: string): void {
    const expected = this.deletions.get(key);
    if (!expected?.delete(podKey)) return;
    const e = this.byKey.get(key);
    if (e) e.del--;
  }

  delete(key: string): void {
    this.byKey.delete(key);
    this.deletions.delete(key);
  }
}
