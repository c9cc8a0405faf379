/**
 * client-go's EventCorrelator (tools/record/events_cache.go), on the virtual clock. Before a
 * core/v1 event is written it goes through three stages:
 *  - aggregation: once 10 events that differ only in their message arrive for one object and
 *    reason within 10 minutes, the rest become one event "(combined from similar events): <msg>";
 *  - observation: an event seen before (same source, object, type, reason and message) is
 *    counted: it keeps its name and first timestamp, its count goes up, and it is written as a
 *    patch of count, lastTimestamp and message;
 *  - the spam filter: a token bucket per source and object (burst 25, one more every 5 minutes)
 *    drops what exceeds it.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import { TokenBucket } from '../flowcontrol/token-bucket';
import { Lru } from './lru';
import { generateEventName } from './name';
import type { CoreEvent } from './types';

const MAX_LRU_CACHE_ENTRIES = 4096;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600 * 1000;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;

export const AGGREGATE_MESSAGE_PREFIX = '(combined from similar events): ';

export interface CorrelatorOptions {
  clock: Clock;
  /** For event names that are not valid object names. */
  random: Random;
  burst?: number;
  qps?: number;
  /** What the spam filter counts by; default: source, object and type. */
  spamKey?: (event: CoreEvent) => string;
}

export interface CorrelateResult {
  /** The event to write; with a patch (count > 1), as a strategic merge patch of that event. */
  event?: CoreEvent;
  patch?: { count: number; lastTimestamp: string; message: string };
  skip: boolean;
}

/** getEventKey: everything that makes two events the same event. */
export function eventKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message].map((s) => s ?? '').join('');
}

/** getSpamKey: the source and the object (not the reason or message). */
export function spamKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type].map((s) => s ?? '').join('');
}

/** EventAggregatorByReasonFunc: the aggregation group, and the message as the key within it. */
function aggregateKeys(e: CoreEvent): [string, string] {
  const o = e.involvedObject;
  const group = [e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance];
  return [group.map((s) => s ?? '').join(''), e.message];
}

interface AggregateRecord {
  localKeys: Set<string>;
  lastTimestamp: number;
}

interface EventLog {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion?: string;
}

export class EventCorrelator {
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly aggregates = new Lru<AggregateRecord>(MAX_LRU_CACHE_ENTRIES);
  private readonly observations = new Lru<EventLog>(MAX_LRU_CACHE_ENTRIES);
  private readonly spam = new Lru<TokenBucket>(MAX_LRU_CACHE_ENTRIES);
  private readonly burst: number;
  private readonly qps: number;
  private readonly spamKeyOf: (event: CoreEvent) => string;

  constructor(options: CorrelatorOptions) {
    this.clock = options.clock;
    this.random = options.random;
    this.burst = options.burst ?? SPAM_BURST;
    this.qps = options.qps ?? SPAM_QPS;
    this.spamKeyOf = options.spamKey ?? spamKey;
  }

  correlate(event: CoreEvent): CorrelateResult {
    const [aggregated, key] = this.aggregate(event);
    const [observed, patch] = this.observe(aggregated, key);
    if (this.filter(observed)) return { skip: true };
    return patch ? { event: observed, patch, skip: false } : { event: observed, skip: false };
  }

  /** After a successful write: remember the event as the server stored it. */
  updateState(event: CoreEvent): void {
    this.observations.add(eventKey(event), {
      count: event.count,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata.name,
      resourceVersion: event.metadata.resourceVersion,
    });
  }

  private aggregate(event: CoreEvent): [CoreEvent, string] {
    const now = this.clock.now();
    const [groupKey, localKey] = aggregateKeys(event);
    let record = this.aggregates.get(groupKey);
    if (!record || now - record.lastTimestamp > AGGREGATE_INTERVAL_MS) record = { localKeys: new Set(), lastTimestamp: now };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.aggregates.add(groupKey, record);
    if (record.localKeys.size < AGGREGATE_MAX_EVENTS) return [event, eventKey(event)];
    // Keep the group just under the limit, so that each further similar event aggregates too.
    record.localKeys.delete(record.localKeys.values().next().value!);
    const t = this.clock.rfc3339(now);
    const combined: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: generateEventName(event.involvedObject.name ?? '', this.clock, this.random), namespace: event.metadata.namespace },
      involvedObject: event.involvedObject,
      reason: event.reason,
      message: AGGREGATE_MESSAGE_PREFIX + event.message,
      source: event.source,
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type: event.type,
      eventTime: null,
      // The combined event is built without the reporting fields, as client-go builds it.
      reportingComponent: '',
      reportingInstance: '',
    };
    return [combined, groupKey];
  }

  private observe(event: CoreEvent, key: string): [CoreEvent, CorrelateResult['patch']] {
    const last = this.observations.get(key);
    let observed = event;
    let patch: CorrelateResult['patch'];
    if (last && last.count > 0) {
      const metadata = { ...event.metadata, name: last.name };
      if (last.resourceVersion) metadata.resourceVersion = last.resourceVersion;
      else delete metadata.resourceVersion;
      observed = { ...event, metadata, firstTimestamp: last.firstTimestamp, count: last.count + 1 };
      patch = { count: observed.count, lastTimestamp: observed.lastTimestamp, message: observed.message };
    }
    this.observations.add(key, { count: observed.count, firstTimestamp: observed.firstTimestamp, name: observed.metadata.name, resourceVersion: observed.metadata.resourceVersion });
    return [observed, patch];
  }

  /** True when the source has sent more about the object than its token bucket allows. */
  private filter(event: CoreEvent): boolean {
    const key = this.spamKeyOf(event);
    let bucket = this.spam.get(key);
    if (!bucket) bucket = new TokenBucket(this.qps, this.burst, this.clock);
    const accepted = bucket.tryAccept();
    this.spam.add(key, bucket);
    return !accepted;
  }
}
