/**
 * What the API server keeps per kind and registers once, as each kind's module loads (its
 * defaulter, its validation rules): found by group and kind, refused when registered twice.
 */
import { groupKindKey } from '../api/types';

export class KindRegistry<T> {
  private readonly entries = new Map<string, T>();

  /** `what` names an entry in the registered-twice error ("defaulter", "validator"). */
  constructor(private readonly what: string) {}

  register(group: string, kind: string, entry: T): void {
    const key = groupKindKey(group, kind);
    if (this.entries.has(key)) throw new Error(`${this.what} for ${key} registered twice`);
    this.entries.set(key, entry);
  }

  get(group: string, kind: string): T | undefined {
    return this.entries.get(groupKindKey(group, kind));
  }
}
