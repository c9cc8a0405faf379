/**
 * client-go's flowcontrol.Backoff, as the kubelet uses it for container restarts (10 s doubling
 * to 5 min, key per container) and image pulls (the same numbers, key per pod and image).
 * An entry remembers the current back-off and when it was last moved on (the restart); it starts
 * over once the event it is asked about (the next exit) comes more than twice the maximum after
 * that, which is how a container that ran for 10 minutes gets a fresh 10 s back-off.
 */

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs: number = INITIAL_BACKOFF_MS,
    private readonly maxMs: number = MAX_BACKOFF_MS,
  ) {}

  /** The current back-off of a key (0 when it has none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /**
   * Moves the key's back-off on at `now`: the initial value for a new entry or one that expired
   * by `eventTime`, else doubled up to the maximum.
   */
  next(key: string, eventTime: number, now: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(eventTime, entry.lastUpdate)) {
      this.entries.set(key, { backoff: this.initialMs, lastUpdate: now });
      return;
    }
    entry.backoff = Math.min(entry.backoff * 2, this.maxMs);
    entry.lastUpdate = now;
  }

  /** Whether `now` still falls within the back-off that started at `eventTime` (the container's exit). */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(eventTime, entry.lastUpdate)) return false;
    return now - eventTime < entry.backoff;
  }

  /** Whether `now` still falls within the back-off counted from the key's last update (image pulls). */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.hasExpired(now, entry.lastUpdate)) return false;
    return now - entry.lastUpdate < entry.backoff;
  }

  /** When the back-off counted from the key's last update ends. */
  endSinceUpdate(key: string): number | undefined {
    const entry = this.entries.get(key);
    return entry ? entry.lastUpdate + entry.backoff : undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops the entries of keys that start with a prefix (a pod's, when the pod goes). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }
}
