/**
 * client-go's events.k8s.io/v1 recorder (tools/events), as kube-scheduler uses it. Events that
 * repeat (same type, action, reason, reporting controller and instance, regarding and related
 * objects; the note does not count) become a series: the second occurrence patches the event
 * with series {count: 2, lastObservedTime}; later ones only count in memory, written every
 * 30 minutes, and when a series has been quiet for 6 minutes it is written a last time and
 * forgotten.
 */
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { Clock, Timer } from '../../clock';
import type { Random } from '../../random';
import type { Client } from '../client';
import { deepCopy } from '../clone';
import { isNotFound } from '../errors';
import { EVENTS_V1 } from '../resources';
import { generateEventName } from './name';
import { getReference } from './reference';
import type { EventType, EventsV1Event, ObjectReference } from './types';

const FINISH_TIME_MS = 6 * 60 * 1000;
const REFRESH_TIME_MS = 30 * 60 * 1000;

export interface EventsV1BroadcasterOptions {
  client: Client;
  clock: Clock;
  random: Random;
}

function refKey(r: ObjectReference | undefined): string {
  if (!r) return '';
  return [r.kind, r.namespace, r.name, r.uid, r.apiVersion, r.resourceVersion, r.fieldPath].map((s) => s ?? '').join('\u0000');
}

function isomorphicKey(e: EventsV1Event): string {
  return [e.type, e.action, e.reason, e.reportingController, e.reportingInstance, refKey(e.regarding), refKey(e.related)].join('\u0001');
}

interface Cached {
  event: EventsV1Event;
  cause: number | undefined;
  /** Virtual ms of the event, or of its series' last observation. */
  lastSeen: number;
}

export class EventsV1Broadcaster {
  private readonly cache = new Map<string, Cached>();
  private refreshTimer: Timer | undefined;
  private finishTimer: Timer | undefined;

  constructor(private readonly options: EventsV1BroadcasterOptions) {}

  /** Starts the periodic series writes (StartRecordingToSink). */
  start(): void {
    if (!this.refreshTimer) this.every('refreshTimer', REFRESH_TIME_MS, 'events.k8s.io: refresh series', () => this.refreshSeries());
    if (!this.finishTimer) this.every('finishTimer', FINISH_TIME_MS, 'events.k8s.io: finish series', () => this.finishSeries());
  }

  shutdown(): void {
    this.options.clock.clearTimer(this.refreshTimer);
    this.options.clock.clearTimer(this.finishTimer);
    this.refreshTimer = this.finishTimer = undefined;
  }

  /** `work` every `periodMs` on a daemon timer kept in `slot` (wait.Until: each run first sets the next). */
  private every(slot: 'refreshTimer' | 'finishTimer', periodMs: number, label: string, work: () => Promise<void>): void {
    this[slot] = this.options.clock.setTimer(
      periodMs,
      () => {
        this.every(slot, periodMs, label, work);
        return work();
      },
      { daemon: true, label },
    );
  }

  /** reportingInstance is "<controller>-<hostname>", as tools/events' NewRecorder builds it. */
  newRecorder(reportingController: string, hostname: string): EventsV1Recorder {
    return new EventsV1Recorder(this, reportingController, `${reportingController}-${hostname}`, this.options.clock, this.options.random);
  }

  submit(event: EventsV1Event, cause: number | undefined): void {
    this.options.clock.queueTask(() => this.record(event, cause), { label: `events.k8s.io: ${event.reason} ${event.regarding.kind ?? ''}/${event.regarding.name ?? ''}` });
  }

  private async record(event: EventsV1Event, cause: number | undefined): Promise<void> {
    const key = isomorphicKey(event);
    const existing = this.cache.get(key);
    const now = this.options.clock.now();
    if (!existing) {
      this.cache.set(key, { event, cause, lastSeen: now });
      await this.write(deepCopy(event), cause);
      return;
    }
    existing.lastSeen = now;
    const lastObservedTime = this.options.clock.rfc3339Micro(now);
    if (existing.event.series) {
      existing.event.series.count++;
      existing.event.series.lastObservedTime = lastObservedTime;
      return;
    }
    existing.event.series = { count: 2, lastObservedTime };
    await this.write(deepCopy(existing.event), cause);
  }

  /** recordEvent: a series is a patch of the event's series (created if it is gone); a new event is created. */
  private async write(event: EventsV1Event, cause: number | undefined): Promise<EventsV1Event | undefined> {
    const events = this.options.client.scoped(cause).resource<EventsV1Event & KubeObject>(EVENTS_V1, event.metadata.namespace);
    try {
      if (event.series) {
        try {
          return await events.patch(event.metadata.name, 'strategic', { series: { count: event.series.count, lastObservedTime: event.series.lastObservedTime } });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
      const { resourceVersion: _rv, ...metadata } = event.metadata;
      return await events.create({ ...event, metadata });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      return undefined;
    }
  }

  private async refreshSeries(): Promise<void> {
    for (const [key, cached] of [...this.cache]) {
      if (!cached.event.series) continue;
      const stored = await this.write(deepCopy(cached.event), cached.cause);
      if (stored && this.cache.get(key) === cached) cached.event = deepCopy(stored);
    }
  }

  private async finishSeries(): Promise<void> {
    const cutoff = this.options.clock.now() - FINISH_TIME_MS;
    for (const [key, cached] of [...this.cache]) {
      if (cached.lastSeen >= cutoff) continue;
      if (cached.event.series) await this.write(deepCopy(cached.event), cached.cause);
      this.cache.delete(key);
    }
  }
}

export class EventsV1Recorder {
  constructor(
    private readonly broadcaster: EventsV1Broadcaster,
    readonly reportingController: string,
    readonly reportingInstance: string,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** Eventf(regarding, related, type, reason, action, note). */
  eventf(regarding: KubeObject, related: KubeObject | undefined, type: EventType, reason: string, action: string, note: string, cause?: number): void {
    if (type !== 'Normal' && type !== 'Warning') return;
    const ref = getReference(regarding);
    const now = this.clock.now();
    const event: EventsV1Event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: generateEventName(ref.name ?? '', this.clock, this.random), namespace: ref.namespace || 'default' },
      eventTime: this.clock.rfc3339Micro(now),
      reportingController: this.reportingController,
      reportingInstance: this.reportingInstance,
      action,
      reason,
      regarding: ref,
      note,
      type,
    };
    if (related) event.related = getReference(related);
    this.broadcaster.submit(event, cause);
  }
}
