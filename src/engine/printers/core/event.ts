/**
 * kubectl get events: LAST SEEN TYPE REASON OBJECT MESSAGE (+ SUBOBJECT SOURCE FIRST SEEN COUNT
 * NAME wide). Events of the events.k8s.io API (eventTime, series) print the same way.
 */
import type { KubeObject } from '../../api/types';
import { NAME, nameColumn } from '../common';
import {
  EVENT_COUNT,
  EVENT_FIELD_PATH,
  EVENT_FIRST_TIMESTAMP,
  EVENT_INVOLVED_OBJECT,
  EVENT_LAST_TIMESTAMP,
  EVENT_MESSAGE,
  EVENT_REASON,
  EVENT_SOURCE,
  EVENT_TYPE,
} from '../descriptions';
import { age, int, obj, str } from '../format';
import { col, tablePrinter, wide } from '../table';

function eventSource(ev: KubeObject): string {
  const source = obj(ev.source);
  const component = str(source.component) || str(ev.reportingComponent);
  const instance = str(source.host) || str(ev.reportingInstance);
  return instance ? `${component}, ${instance}` : component;
}

interface EventTimes {
  first: string;
  last: string;
  count: number;
}

/** FIRST SEEN, LAST SEEN and COUNT: from the series when the event has one. */
function eventTimes(ev: KubeObject, now: number): EventTimes {
  const first = ev.firstTimestamp ? age(ev.firstTimestamp, now) : age(ev.eventTime, now);
  const series = ev.series === undefined || ev.series === null ? undefined : obj(ev.series);
  if (series) return { first, last: age(series.lastObservedTime, now), count: int(series.count) };
  const count = int(ev.count);
  return { first, last: ev.lastTimestamp ? age(ev.lastTimestamp, now) : first, count: count === 0 ? 1 : count };
}

function involvedObject(ev: KubeObject): string {
  const involved = obj(ev.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  return str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
}

export const eventPrinter = tablePrinter<EventTimes>(
  [
    col('Last Seen', 'string', EVENT_LAST_TIMESTAMP, (r) => r.view.last),
    col('Type', 'string', EVENT_TYPE, (r) => str(r.object.type)),
    col('Reason', 'string', EVENT_REASON, (r) => str(r.object.reason)),
    col('Object', 'string', EVENT_INVOLVED_OBJECT, (r) => involvedObject(r.object)),
    wide('Subobject', 'string', EVENT_FIELD_PATH, (r) => str(obj(r.object.involvedObject).fieldPath)),
    wide('Source', 'string', EVENT_SOURCE, (r) => eventSource(r.object)),
    col('Message', 'string', EVENT_MESSAGE, (r) => str(r.object.message).trim()),
    wide('First Seen', 'string', EVENT_FIRST_TIMESTAMP, (r) => r.view.first),
    wide('Count', 'string', EVENT_COUNT, (r) => r.view.count),
    { definition: { ...nameColumn, priority: 1 }, cell: NAME.cell },
  ],
  { view: eventTimes },
);

/** An events.k8s.io/v1 Event in the core shape the printer reads (the API server's internal type). */
export function coreEventOf(ev: KubeObject): KubeObject {
  return {
    ...ev,
    involvedObject: ev.regarding,
    message: ev.note,
    source: ev.deprecatedSource,
    firstTimestamp: ev.deprecatedFirstTimestamp,
    lastTimestamp: ev.deprecatedLastTimestamp,
    count: ev.deprecatedCount,
    reportingComponent: ev.reportingController,
  };
}
