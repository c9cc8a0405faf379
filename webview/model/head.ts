/**
 * Where the store stands: its newest revision and the virtual time it was written, as the trace's
 * store.revision records say. The history the pictures are drawn from (StateHistory) holds only
 * the kinds they draw (Nodes, Pods, workloads, Services, EndpointSlices), so its newest change
 * lags the store whenever something else is written (a Lease renewal, an Event, a ConfigMap): the
 * state drawn is the same, but the revision and time the timeline names are the store's.
 */
import type { PanelRecord } from '../../src/protocol/panel';
import type { StateHistory } from './history';
import { formatTime } from './format';

export class StoreHead {
  revision = 0;
  time = 0;

  reset(): void {
    this.revision = 0;
    this.time = 0;
  }

  /** Takes the newest store.revision record of a batch (records come in id order; revisions only grow). */
  note(records: readonly PanelRecord[]): void {
    for (const r of records) {
      if (r.type !== 'store.revision') continue;
      if (r.revision > this.revision) {
        this.revision = r.revision;
        this.time = r.time;
      }
    }
  }
}

export interface TimelineStatus {
  /** The revision the pictures show: the store's head while live. */
  readonly revision: number;
  /** Its virtual time. */
  readonly time: number;
  /** The store's newest revision. */
  readonly latest: number;
  readonly latestTime: number;
  readonly live: boolean;
  readonly text: string;
}

/** What the timeline says it shows, live (the store's head) or in replay (a revision of the history). */
export function timelineStatus(history: StateHistory, head: StoreHead, replay: number | undefined): TimelineStatus {
  const latest = Math.max(head.revision, history.latestRevision);
  const latestTime = Math.max(head.revision >= history.latestRevision ? head.time : 0, history.latestTime);
  if (replay === undefined) return { revision: latest, time: latestTime, latest, latestTime, live: true, text: `Live · revision ${latest} · ${formatTime(latestTime)}` };
  const time = history.timeOf(replay);
  return { revision: replay, time, latest, latestTime, live: false, text: `Replay · revision ${replay} of ${latest} · ${formatTime(time)}` };
}
