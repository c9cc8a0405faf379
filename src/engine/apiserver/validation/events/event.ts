/**
 * events.k8s.io/v1 Event rules (pkg/apis/core/validation/events.go). The apiserver validates the
 * internal core Event, so errors name internal fields: regarding is "involvedObject", note is
 * "message", deprecatedSource is "source", and so on.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { goJson } from '../../../api/gofmt';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, obj, str } from '../core/json';
import { goStruct } from '../apps/go-values';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { own } from '../../../api/own';

const reportingInstanceLengthLimit = 128;
const actionLengthLimit = 128;
const reasonLengthLimit = 128;
const noteLengthLimit = 1024;

const isZeroTime = (v: unknown): boolean => typeof v !== 'string' || v === '';
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The internal ObjectReference (or nil pointer) as encoding/json prints it. */
function objectReference(v: unknown): Map<string, unknown> | null {
  const r = obj(v);
  if (!r) return null;
  return goStruct(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [
    f === 'uid' ? 'UID' : f === 'apiVersion' ? 'APIVersion' : f[0]!.toUpperCase() + f.slice(1),
    str(own(r, f)),
  ]));
}

/** The internal core.Event fields the rules read, taken from the events.k8s.io/v1 shape. */
function internalView(ev: KubeObject) {
  const source = obj(ev['deprecatedSource']) ?? {};
  return {
    namespace: str(ev.metadata.namespace),
    involvedObject: obj(ev['regarding']) ?? {},
    reason: str(ev['reason']),
    message: str(ev['note']),
    source: goStruct([
      ['Component', str(source['component'])],
      ['Host', str(source['host'])],
    ]),
    firstTimestamp: ev['deprecatedFirstTimestamp'] ?? null,
    lastTimestamp: ev['deprecatedLastTimestamp'] ?? null,
    count: int(ev['deprecatedCount']),
    type: str(ev['type']),
    eventTime: ev['eventTime'] ?? null,
    series: obj(ev['series']),
    action: str(ev['action']),
    related: objectReference(ev['related']),
    reportingController: str(ev['reportingController']),
    reportingInstance: str(ev['reportingInstance']),
  };
}

type View = ReturnType<typeof internalView>;

/** legacyValidateEvent: what every Event, whatever API version wrote it, must satisfy. */
function legacyValidateEvent(e: View): ErrorList {
  const errs: ErrorList = [];
  const involvedNamespace = str(e.involvedObject['namespace']);
  const nsPath = Path.root('involvedObject', 'namespace');
  if (isZeroTime(e.eventTime)) {
    if (involvedNamespace === '') {
      if (e.namespace !== '' && e.namespace !== 'default') errs.push(invalid(nsPath, involvedNamespace, 'does not match event.namespace'));
    } else if (e.namespace !== involvedNamespace) {
      errs.push(invalid(nsPath, involvedNamespace, 'does not match event.namespace'));
    }
  } else {
    if (involvedNamespace === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') {
      errs.push(invalid(nsPath, involvedNamespace, 'does not match event.namespace'));
    }
    if (e.reportingController === '') errs.push(required(Path.root('reportingController'), ''));
    for (const msg of isQualifiedName(e.reportingController)) errs.push(invalid(Path.root('reportingController'), e.reportingController, msg));
    if (e.reportingInstance === '') errs.push(required(Path.root('reportingInstance'), ''));
    if (byteLength(e.reportingInstance) > reportingInstanceLengthLimit) {
      errs.push(invalid(Path.root('reportingInstance'), '', `can have at most ${reportingInstanceLengthLimit} characters`));
    }
    if (e.action === '') errs.push(required(Path.root('action'), ''));
    if (byteLength(e.action) > actionLengthLimit) errs.push(invalid(Path.root('action'), '', `can have at most ${actionLengthLimit} characters`));
    if (e.reason === '') errs.push(required(Path.root('reason'), ''));
    if (byteLength(e.reason) > reasonLengthLimit) errs.push(invalid(Path.root('reason'), '', `can have at most ${reasonLengthLimit} characters`));
    if (byteLength(e.message) > noteLengthLimit) errs.push(invalid(Path.root('message'), '', `can have at most ${noteLengthLimit} characters`));
  }
  for (const msg of isDNS1123Subdomain(e.namespace)) errs.push(invalid(Path.root('namespace'), e.namespace, msg));
  return errs;
}

function validateV1EventSeries(e: View): ErrorList {
  if (!e.series) return [];
  const errs: ErrorList = [];
  if (int(e.series['count']) < 2) errs.push(invalid(Path.root('series.count'), '', 'should be at least 2'));
  if (isZeroTime(e.series['lastObservedTime'])) errs.push(required(Path.root('series.lastObservedTime'), ''));
  return errs;
}

function validateCreate(ev: KubeObject): ErrorList {
  const e = internalView(ev);
  const errs = [
    ...legacyValidateEvent(e),
    ...validateObjectMeta(ev.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateV1EventSeries(e),
  ];
  if (isZeroTime(e.eventTime)) errs.push(required(Path.root('eventTime'), ''));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid(Path.root('type'), '', `has invalid value: ${e.type}`));
  if (!isZeroTime(e.firstTimestamp)) errs.push(invalid(Path.root('firstTimestamp'), '', 'needs to be unset'));
  if (!isZeroTime(e.lastTimestamp)) errs.push(invalid(Path.root('lastTimestamp'), '', 'needs to be unset'));
  if (e.count !== 0) errs.push(invalid(Path.root('count'), '', 'needs to be unset'));
  if (e.source.get('Component') !== '' || e.source.get('Host') !== '') errs.push(invalid(Path.root('source'), '', 'needs to be unset'));
  return errs;
}

/** The fields an update may not change, in the order they are reported (reason stands twice, so a changed reason is reported twice). */
const IMMUTABLE = [
  'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count',
  'reason', 'type', 'eventTime', 'action', 'related', 'reportingController', 'reportingInstance',
] as const satisfies readonly (keyof View)[];

/** An immutable field's internal value; the involved object is compared as the ObjectReference struct. */
const immutableValue = (v: View, name: (typeof IMMUTABLE)[number]): unknown => (name === 'involvedObject' ? objectReference(v.involvedObject) : v[name]);

function validateUpdate(ev: KubeObject, old: KubeObject): ErrorList {
  const e = internalView(ev);
  const o = internalView(old);
  const errs = [...legacyValidateEvent(e), ...validateObjectMetaUpdate(ev.metadata, old.metadata, Path.root('metadata'))];
  if (JSON.stringify(ev['series'] ?? null) !== JSON.stringify(old['series'] ?? null)) errs.push(...validateV1EventSeries(e));
  // ValidateImmutableField: internal values compare equal exactly when they encode alike.
  for (const name of IMMUTABLE) {
    const now = immutableValue(e, name);
    if (goJson(now) !== goJson(immutableValue(o, name))) errs.push(invalid(Path.root(name), now, 'field is immutable'));
  }
  return errs;
}

registerValidator('events.k8s.io', 'Event', { create: validateCreate, update: validateUpdate });
