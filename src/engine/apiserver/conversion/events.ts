/**
 * Events are one resource in two API groups: kube-apiserver stores events.k8s.io/v1 Events as
 * core/v1 Events (same etcd keys, /registry/events/<ns>/<name>) and converts on the way in and
 * out, through the internal core.Event (pkg/apis/events/v1 conversion): regarding is
 * involvedObject, note is message, deprecatedSource is source, the deprecated timestamps and
 * count are firstTimestamp, lastTimestamp and count, and reportingController is the field core/v1
 * calls reportingComponent. Everything else keeps its name.
 */
import type { KubeObject } from '../../api/types';
import { encodeLikeGo } from '../encoding/go-json';
import type { Conversion } from './types';
import { own, setOwn } from '../../api/own';

/** events.k8s.io/v1 field -> core/v1 field, where the names differ. */
const RENAMED: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];
const SHARED = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'] as const;

function convert(e: KubeObject, apiVersion: string, from: 0 | 1): KubeObject {
  const to = from === 0 ? 1 : 0;
  const out: KubeObject = { apiVersion, kind: 'Event', metadata: e.metadata };
  for (const pair of RENAMED) if (own(e, pair[from]) !== undefined) setOwn(out, pair[to], own(e, pair[from]));
  for (const f of SHARED) if (e[f] !== undefined) out[f] = e[f];
  return encodeLikeGo(out);
}

export const EVENTS_V1_CONVERSION: Conversion = {
  storageApiVersion: 'v1',
  servedApiVersion: 'events.k8s.io/v1',
  toStorage: (e) => convert(e, 'v1', 0),
  fromStorage: (e) => convert(e, 'events.k8s.io/v1', 1),
};
