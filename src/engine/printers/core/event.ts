/**
 * kubectl get events: LAST SEEN TYPE REASON OBJECT MESSAGE (+ SUBOBJECT SOURCE FIRST SEEN COUNT
 * NAME wide). Events of the events.k8s.io API (eventTime, series) print the same way.
 */
import type { KubeObject } from '../../api/types';
import { nameColumn } from '../common';
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
import { column, type Cell, type PrintContext, type Printer } from '../table';

function eventSource(ev: KubeObject): string {
  const source = obj(ev.source);
  const component = str(source.component) || str(ev.reportingComponent);
  const instance = str(source.host) || str(ev.reportingInstance);
  return instance ? `${component}, ${instance}` : component;
}

export const eventPrinter: Printer = {
  columns: [
    column('Last Seen', 'string', EVENT_LAST_TIMESTAMP),
    column('Type', 'string', EVENT_TYPE),
    column('Reason', 'string', EVENT_REASON),
    column('Object', 'string', EVENT_INVOLVED_OBJECT),
    column('Subobject', 'string', EVENT_FIELD_PATH, { priority: 1 }),
    column('Source', 'string', EVENT_SOURCE, { priority: 1 }),
    column('Message', 'string', EVENT_MESSAGE),
    column('First Seen', 'string', EVENT_FIRST_TIMESTAMP, { priority: 1 }),
    column('Count', 'string', EVENT_COUNT, { priority: 1 }),
    { ...nameColumn, priority: 1 },
  ],
  cells(ev: KubeObject, ctx: PrintContext): Cell[] {
    const involved = obj(ev.involvedObject);
    const first = ev.firstTimestamp ? age(ev.firstTimestamp, ctx.now) : age(ev.eventTime, ctx.now);
    let last = ev.lastTimestamp ? age(ev.lastTimestamp, ctx.now) : first;
    let count = int(ev.count);
    const series = ev.series === undefined || ev.series === null ? undefined : obj(ev.series);
    if (series) {
      last = age(series.lastObservedTime, ctx.now);
      count = int(series.count);
    } else if (count === 0) {
      count = 1;
    }
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    return [last, str(ev.type), str(ev.reason), target, str(involved.fieldPath), eventSource(ev), str(ev.message).trim(), first, count, ev.metadata.name ?? ''];
  },
};

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
