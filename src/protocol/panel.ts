/**
 * The messages between the control-plane panel's host (src/extension/panel) and its webview
 * (webview/). The host sends trace records as the engine wrote them (docs/architecture.md, invariant 2: the
 * panel renders records, it never infers) and answers time-travel reads. The webview is
 * untrusted input: everything it sends goes through `parseWebviewMessage` before the host acts.
 */
import type { TraceRecord } from '../engine/trace/types';
import { ETCD_ACTIONS, ETCD_MEMBER_NAME, type EtcdActionMessage, type EtcdFrameMessage, type EtcdResetMessage, type EtcdResultMessage } from './etcd';
import { VIEW_KINDS, type ConditionView, type StateMessage, type StateResetMessage, type ViewKind } from './cluster-state';

/** Every record the panel shows: the engine's trace records, as they are. */
export type PanelRecord = TraceRecord;

// ---- host -> webview ----------------------------------------------------------------------

/**
 * Starts a (re-)sync: the webview drops what it holds; the host then sends the records its
 * buffer still holds, oldest first, followed by live ones.
 */
export interface ResetMessage {
  readonly type: 'reset';
  /** The trace buffer's capacity: the webview keeps at most this many records. */
  readonly capacity: number;
  /** Records with smaller ids fell off the host's buffer before this sync. */
  readonly firstId: number;
  /** How many records the sync sends before live ones follow. */
  readonly total: number;
  /** "group/resource" -> Kind, for the revision timeline's kind column and filter. */
  readonly kinds: Readonly<Record<string, string>>;
}

export interface RecordsMessage {
  readonly type: 'records';
  readonly records: readonly PanelRecord[];
  /** Records the host had to drop since the last batch because the webview fell behind. */
  readonly dropped: number;
}

/** An object as the API server returned it at one revision (a LIST with resourceVersionMatch=Exact). */
export type ObjectAtRevision =
  | { readonly state: 'found'; readonly revision: number; readonly yaml: string }
  /** The object did not exist at that revision (before its creation, after its deletion). */
  | { readonly state: 'absent'; readonly revision: number }
  /** 410 Gone: compaction removed that revision; `message` is the Status message. */
  | { readonly state: 'compacted'; readonly revision: number; readonly message: string }
  | { readonly state: 'error'; readonly revision: number; readonly code: number; readonly message: string };

export interface RevisionMessage {
  readonly type: 'revision';
  readonly requestId: number;
  /** The object at the revision asked for, and just before it (revision - 1). */
  readonly at: ObjectAtRevision;
  readonly before: ObjectAtRevision;
}

/** An Event about the object, as `kubectl describe` lists them. */
export interface EventRow {
  readonly type: string;
  readonly reason: string;
  /** Virtual ms of the last occurrence (lastTimestamp, eventTime or creation). */
  readonly time: number;
  /** source.component or reportingController. */
  readonly from: string;
  readonly message: string;
  readonly count: number;
}

export type EventsAnswer =
  | { readonly state: 'found'; readonly events: readonly EventRow[] }
  | { readonly state: 'compacted' | 'error'; readonly message: string };

export interface ContainerLog {
  readonly container: string;
  /** The log's tail (at most MAX_LOG_BYTES), or why there is none. */
  readonly text?: string;
  readonly error?: string;
}

/** The answer to GetDetailsMessage: the object (YAML) and its events at the revision, a pod's logs now. */
export interface DetailsMessage {
  readonly type: 'details';
  readonly requestId: number;
  readonly object: ObjectAtRevision;
  /** status.conditions of the object read (absent when it was not found). */
  readonly conditions?: readonly ConditionView[];
  readonly events: EventsAnswer;
  /** Pods only: each container's log as the kubelet holds it now (logs have no revisions). */
  readonly logs?: readonly ContainerLog[];
}

/** Open an object's details (the Cluster tree's click): the view every picture shares. */
export interface ShowDetailsMessage {
  readonly type: 'showDetails';
  readonly kind: ViewKind;
  readonly namespace?: string;
  readonly name: string;
}

export type HostMessage = ResetMessage | RecordsMessage | RevisionMessage | StateResetMessage | StateMessage | DetailsMessage | ShowDetailsMessage | EtcdResetMessage | EtcdFrameMessage | EtcdResultMessage | ShowEtcdMessage;

/** Bring the etcd tab forward (Show etcd, a click on a member in the sidebar). */
export interface ShowEtcdMessage {
  readonly type: 'showEtcd';
  readonly member?: string;
}

// ---- webview -> host ----------------------------------------------------------------------

/** The webview (re)loaded and wants a sync. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/** Time travel: the object stored under a key, at `revision` and at `revision - 1`. */
export interface GetRevisionMessage {
  readonly type: 'getRevision';
  /** Echoed in the answer so the webview can ignore stale ones. */
  readonly requestId: number;
  readonly revision: number;
  readonly group: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
}

/**
 * The details view of one object (a click on the map, the graph or the tree): its YAML and
 * events at `revision` (absent: now), read through the API server, and a pod's logs.
 */
export interface GetDetailsMessage {
  readonly type: 'getDetails';
  readonly requestId: number;
  readonly kind: ViewKind;
  readonly namespace?: string;
  readonly name: string;
  readonly revision?: number;
}

/**
 * The user scrubbed the timeline back to a past revision (drag, click or keys: not a restored
 * state, not live). Sent once a load; the walkthrough's "Scrub back" step completes on it.
 */
export interface ScrubbedMessage {
  readonly type: 'scrubbed';
}

export type WebviewMessage = ReadyMessage | GetRevisionMessage | GetDetailsMessage | EtcdActionMessage | ScrubbedMessage;

export type Parsed<T> = { readonly ok: true; readonly message: T } | { readonly ok: false; readonly error: string };

const MAX_NAME = 253;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// Object names are path segments for some kinds (RBAC): anything printable but '/' and '%'.
const OBJECT_NAME = /^[^/%\u0000-\u001f\u007f]+$/;

type Fields = Readonly<Record<string, unknown>>;

/**
 * The webview's message, checked field by field: a plain object with exactly the known keys
 * of its type, each of the right type and shape. Anything else is rejected with the reason.
 */
export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  try {
    const fields = plainObject(raw);
    if (!fields) return fail('not a plain object');
    switch (fields.type) {
      case 'ready':
        return onlyKeys(fields, ['type']) ?? { ok: true, message: { type: 'ready' } };
      case 'scrubbed':
        return onlyKeys(fields, ['type']) ?? { ok: true, message: { type: 'scrubbed' } };
      case 'getRevision':
        return parseGetRevision(fields);
      case 'getDetails':
        return parseGetDetails(fields);
      case 'etcdAction': {
        const keys = onlyKeys(fields, ['type', 'action', 'member']);
        if (keys) return keys;
        if (typeof fields.action !== 'string' || !(ETCD_ACTIONS as readonly string[]).includes(fields.action)) return fail(`action: not one of ${ETCD_ACTIONS.join(', ')}`);
        if (typeof fields.member !== 'string' || !ETCD_MEMBER_NAME.test(fields.member)) return fail('member: not an etcd member name (etcd-0 ...)');
        return { ok: true, message: { type: 'etcdAction', action: fields.action as EtcdActionMessage['action'], member: fields.member } };
      }
      default:
        return fail(`unknown message type ${describe(fields.type)}`);
    }
  } catch {
    // A hostile object (a proxy, a throwing getter) is malformed by definition.
    return fail('unreadable message');
  }
}

function parseGetRevision(f: Fields): Parsed<WebviewMessage> {
  const keys = onlyKeys(f, ['type', 'requestId', 'revision', 'group', 'resource', 'namespace', 'name']);
  if (keys) return keys;
  if (!isCount(f.requestId, 0x7fffffff)) return fail('requestId: not a non-negative integer');
  if (!isCount(f.revision, Number.MAX_SAFE_INTEGER) || f.revision === 0) return fail('revision: not a positive integer');
  if (typeof f.group !== 'string' || (f.group !== '' && !isDnsSubdomain(f.group))) return fail('group: not an API group name');
  if (typeof f.resource !== 'string' || !isDnsSubdomain(f.resource)) return fail('resource: not a resource name');
  if (f.namespace !== undefined && (typeof f.namespace !== 'string' || f.namespace.length > 63 || !DNS_LABEL.test(f.namespace))) {
    return fail('namespace: not a namespace name');
  }
  if (typeof f.name !== 'string' || f.name.length > MAX_NAME || !OBJECT_NAME.test(f.name) || f.name === '.' || f.name === '..') {
    return fail('name: not an object name');
  }
  const message: GetRevisionMessage = {
    type: 'getRevision',
    requestId: f.requestId,
    revision: f.revision,
    group: f.group,
    resource: f.resource,
    name: f.name,
    ...(f.namespace !== undefined ? { namespace: f.namespace } : {}),
  };
  return { ok: true, message };
}

function parseGetDetails(f: Fields): Parsed<WebviewMessage> {
  const keys = onlyKeys(f, ['type', 'requestId', 'kind', 'namespace', 'name', 'revision']);
  if (keys) return keys;
  if (!isCount(f.requestId, 0x7fffffff)) return fail('requestId: not a non-negative integer');
  if (typeof f.kind !== 'string' || !(VIEW_KINDS as readonly string[]).includes(f.kind)) return fail('kind: not a kind the panel shows');
  if (f.revision !== undefined && (!isCount(f.revision, Number.MAX_SAFE_INTEGER) || f.revision === 0)) return fail('revision: not a positive integer');
  const namespaced = f.kind !== 'Node';
  if (namespaced !== (f.namespace !== undefined)) return fail(namespaced ? 'namespace: required for a namespaced kind' : 'namespace: a Node has none');
  if (f.namespace !== undefined && (typeof f.namespace !== 'string' || f.namespace.length > 63 || !DNS_LABEL.test(f.namespace))) return fail('namespace: not a namespace name');
  if (typeof f.name !== 'string' || f.name.length > MAX_NAME || !isDnsSubdomain(f.name)) return fail('name: not an object name');
  const message: GetDetailsMessage = {
    type: 'getDetails',
    requestId: f.requestId,
    kind: f.kind as ViewKind,
    name: f.name,
    ...(f.namespace !== undefined ? { namespace: f.namespace } : {}),
    ...(f.revision !== undefined ? { revision: f.revision } : {}),
  };
  return { ok: true, message };
}

/** The object's own fields when it is a plain data object (structured-cloned JSON), else undefined. */
function plainObject(raw: unknown): Fields | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const proto: unknown = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) return undefined;
  return raw as Fields;
}

function onlyKeys(f: Fields, allowed: readonly string[]): Parsed<never> | undefined {
  const keys = Object.keys(f);
  if (keys.length > allowed.length) return fail('unexpected fields');
  const extra = keys.find((k) => !allowed.includes(k));
  return extra === undefined ? undefined : fail(`unexpected field ${JSON.stringify(extra.slice(0, 40))}`);
}

function isCount(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;
}

function isDnsSubdomain(s: string): boolean {
  return s.length <= MAX_NAME && DNS_SUBDOMAIN.test(s);
}

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v;
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
