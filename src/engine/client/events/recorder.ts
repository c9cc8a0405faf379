/**
 * client-go's core/v1 event recorder (tools/record), as kube-controller-manager's controllers
 * and the kubelet use it. recorder.event() returns at once; the broadcaster writes the event in
 * a later clock task, through the EventCorrelator: a new event is created, a repeated one is
 * patched (count, lastTimestamp, message), a combined one replaces similar ones, spam is dropped.
 * A write the server refuses is not retried, as client-go does not retry Status errors.
 */
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import type { Client } from '../client';
import { isNotFound } from '../errors';
import { EVENTS } from '../resources';
import { EventCorrelator } from './correlator';
import { generateEventName } from './name';
import { getReference } from './reference';
import type { CoreEvent, EventSource, EventType, ObjectReference } from './types';

export interface EventBroadcasterOptions {
  /** The component's client: events are written with its identity. */
  client: Client;
  clock: Clock;
  random: Random;
}

export class EventBroadcaster {
  private readonly correlator: EventCorrelator;

  constructor(private readonly options: EventBroadcasterOptions) {
    this.correlator = new EventCorrelator({ clock: options.clock, random: options.random });
  }

  /** source.component: "deployment-controller", "kubelet"; source.host: the kubelet's node. */
  newRecorder(source: EventSource): EventRecorder {
    return new EventRecorder(this, source, this.options.clock, this.options.random);
  }

  /** Events waiting for the sink, in the order they were recorded. */
  private readonly queue: { event: CoreEvent; cause: number | undefined }[] = [];
  private draining = false;

  /**
   * Queues an event for writing (the broadcaster's watch channel). The sink writes them one at a
   * time in order, as upstream's recordToSink runs in the one goroutine that watches the channel.
   */
  submit(event: CoreEvent, cause: number | undefined): void {
    this.queue.push({ event, cause });
    if (this.draining) return;
    this.draining = true;
    this.options.clock.queueTask(() => this.drain(), { label: `events: ${event.reason} ${event.involvedObject.kind ?? ''}/${event.involvedObject.name ?? ''}` });
  }

  private async drain(): Promise<void> {
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.write(next.event, next.cause);
    } finally {
      this.draining = false;
    }
  }

  private async write(event: CoreEvent, cause: number | undefined): Promise<void> {
    const result = this.correlator.correlate(event);
    if (result.skip || !result.event) return;
    const e = result.event;
    const events = this.options.client.scoped(cause).resource<CoreEvent & KubeObject>(EVENTS, e.metadata.namespace);
    try {
      let stored: CoreEvent | undefined;
      if (result.patch) {
        try {
          stored = await events.patch(e.metadata.name, 'strategic', result.patch);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
      if (!stored) {
        const { resourceVersion: _rv, ...metadata } = e.metadata;
        stored = await events.create({ ...e, metadata });
      }
      this.correlator.updateState(stored);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }
}

export class EventRecorder {
  constructor(
    private readonly broadcaster: EventBroadcaster,
    readonly source: EventSource,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /**
   * Records an event about an object (or a part of it, given a reference with a fieldPath).
   * `cause`: the trace record the event's write is attributed to (the reconcile's trigger).
   */
  event(object: KubeObject | ObjectReference, type: EventType, reason: string, message: string, cause?: number): void {
    this.annotatedEvent(object, undefined, type, reason, message, cause);
  }

  annotatedEvent(object: KubeObject | ObjectReference, annotations: Record<string, string> | undefined, type: EventType, reason: string, message: string, cause?: number): void {
    if (type !== 'Normal' && type !== 'Warning') return;
    const ref = isKubeObject(object) ? getReference(object) : object;
    const now = this.clock.now();
    const t = this.clock.rfc3339(now);
    const metadata: CoreEvent['metadata'] = { name: generateEventName(ref.name ?? '', this.clock, this.random), namespace: ref.namespace || 'default' };
    if (annotations) metadata.annotations = annotations;
    this.broadcaster.submit(
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata,
        involvedObject: ref,
        reason,
        message,
        source: this.source,
        firstTimestamp: t,
        lastTimestamp: t,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: this.source.component ?? '',
        reportingInstance: this.source.host ?? '',
      },
      cause,
    );
  }
}

function isKubeObject(o: KubeObject | ObjectReference): o is KubeObject {
  return typeof (o as KubeObject).metadata === 'object';
}
