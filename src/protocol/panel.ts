/**
 * The messages between the control-plane panel's host (src/extension/panel) and its webview
 * (webview/). The host sends trace records as the engine wrote them (DESIGN.md invariant 2: the
 * panel renders records, it never infers) and answers time-travel reads. The webview is
 * untrusted input: everything it sends goes through `parseWebviewMessage` before the host acts.
 */
import type { TraceRecord } from '../engine/trace/types';

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

export type HostMessage = ResetMessage | RecordsMessage | RevisionMessage;

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

export type WebviewMessage = ReadyMessage | GetRevisionMessage;

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
      case 'getRevision':
        return parseGetRevision(fields);
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
