/**
 * Which Events the engine worker streams to the extension host: the newest RECENT_EVENTS (the
 * ones the Cluster tree lists), not every Event of the cluster. The worker's informer keeps them
 * all (details and live YAML read them from the worker); the host's copy holds the window, so its
 * heap does not grow with the cluster's Events (five or so a pod), and an Event older than the
 * window costs the host no message. The window is the newest events in the tree's own order
 * (view-queries.ts: newest first, ties by the later write), kept exactly: an event enters it as an
 * ADDED, leaves it as a DELETED, and one that changes inside it is a MODIFIED.
 */
import type { KubeObject } from '../../engine/api/types';
import { eventAge, newerFirst, type EventAge } from '../view-queries';
import type { ViewChange } from '../view-types';

interface Member {
  readonly object: KubeObject;
  readonly age: EventAge;
}

export class EventWindow {
  private members = new Map<string, Member>();

  /**
   * @param size events kept (the tree's RECENT_EVENTS)
   * @param all every Event the worker's informer holds now, by key (a refill, when events of
   *   the window go away or age and the newest outside it must be found)
   */
  constructor(
    private readonly size: number,
    private readonly all: () => Iterable<readonly [string, KubeObject]>,
  ) {}

  /** The first listing: the newest events, as ADDED. */
  start(): ViewChange[] {
    this.members = this.newest(this.listed());
    return [...this.members].map(([key, m]) => ({ kind: 'events', type: 'ADDED', key, object: m.object }));
  }

  /**
   * A batch of the informers' changes as the host sees it: every other kind's changes as they
   * are, then the changes of the window. The informer's cache already holds the whole batch.
   */
  changes(batch: readonly ViewChange[]): ViewChange[] {
    const out: ViewChange[] = [];
    /** The events the batch touched: their latest version, or null once deleted. */
    const touched = new Map<string, KubeObject | null>();
    for (const c of batch) {
      if (c.kind !== 'events') out.push(c);
      else touched.set(c.key, c.type === 'DELETED' ? null : c.object);
    }
    if (touched.size === 0) return out;
    const before = this.members;
    const after = this.next(touched);
    this.members = after;
    for (const [key, m] of after) {
      if (!before.has(key)) out.push({ kind: 'events', type: 'ADDED', key, object: m.object });
      else if (touched.has(key)) out.push({ kind: 'events', type: 'MODIFIED', key, object: m.object, old: before.get(key)!.object });
    }
    for (const [key, m] of before) if (!after.has(key)) out.push({ kind: 'events', type: 'DELETED', key, object: m.object });
    return out;
  }

  /**
   * The window after the touched events changed. Every event outside the old window that the
   * batch did not touch is older than the old window's oldest (when it was full; there is none
   * when it was not): if at least `size` of the window's remaining members and the touched
   * events are no older than that, the newest of them are the newest of all; otherwise the
   * informer's cache is read again.
   */
  private next(touched: ReadonlyMap<string, KubeObject | null>): Map<string, Member> {
    const full = this.members.size >= this.size;
    let oldest: EventAge | undefined;
    const candidates = new Map<string, Member>();
    for (const [key, m] of this.members) {
      if (full && (!oldest || newerFirst(m.age, oldest) > 0)) oldest = m.age;
      if (!touched.has(key)) candidates.set(key, m);
    }
    for (const [key, object] of touched) if (object) candidates.set(key, { object, age: eventAge(object) });
    if (full) {
      let atLeastAsNew = 0;
      for (const m of candidates.values()) if (newerFirst(m.age, oldest!) <= 0) atLeastAsNew++;
      if (atLeastAsNew < this.size) return this.newest(this.listed());
    }
    return this.newest(candidates);
  }

  private *listed(): Iterable<[string, Member]> {
    for (const [key, object] of this.all()) yield [key, { object, age: eventAge(object) }];
  }

  private newest(events: Iterable<[string, Member]>): Map<string, Member> {
    const members = [...events].sort((a, b) => newerFirst(a[1].age, b[1].age));
    return new Map(members.slice(0, this.size));
  }
}
