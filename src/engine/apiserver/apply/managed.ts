/**
 * metadata.managedFields in and out (k8s.io/apimachinery managedfields/internal): entries are
 * keyed by a manager identifier (the JSON of manager, operation, apiVersion for updates, and
 * subresource), carry a field set at an API version, and are written back sorted: Apply before
 * Update, then by time, manager, apiVersion and subresource.
 */
import { goJson, goQuote } from '../../api/gofmt';
import { isObject, type JsonObject, type JsonValue, type ManagedFieldsEntry } from '../../api/types';
import { fromFieldsV1, toFieldsV1 } from './fieldpath/fieldsv1';
import { RecentMap } from './recent';
import type { FieldSet } from './fieldpath/set';
import { compareStrings } from './fieldpath/element';
import { own } from '../../api/own';
import { rfc3339 } from '../../api/time';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  /** Owned through Apply (true) or Update (false). */
  applied: boolean;
}

/** Field sets by manager identifier, and the time of each manager's last change. */
export interface Managed {
  fields: Map<string, VersionedSet>;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

export interface ManagerInfo {
  manager: string;
  operation: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
}

/** BuildManagerIdentifier: encoding/json of the entry without time and fields (and apiVersion for Apply). */
export function managerIdentifier(e: ManagerInfo): string {
  const parts: string[] = [];
  const add = (k: string, v: string | undefined): void => {
    if (v) parts.push(`${goJson(k)}:${goJson(v)}`);
  };
  add('manager', e.manager);
  add('operation', e.operation);
  if (e.operation !== 'Apply') add('apiVersion', e.apiVersion);
  add('subresource', e.subresource);
  return '{' + parts.join(',') + '}';
}

/** Identifiers seen recently, parsed (writes repeat a handful of them). */
const parsedIdentifiers = new RecentMap<string, Readonly<ManagerInfo> | undefined>(1024);

export function parseIdentifier(id: string): Readonly<ManagerInfo> | undefined {
  if (parsedIdentifiers.has(id)) return parsedIdentifiers.get(id);
  const info = parseIdentifierText(id);
  return parsedIdentifiers.set(id, info && Object.freeze(info));
}

function parseIdentifierText(id: string): ManagerInfo | undefined {
  try {
    const v = JSON.parse(id) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const str = (k: string): string | undefined => (typeof own(v, k) === 'string' ? (own(v, k) as string) : undefined);
    return {
      manager: str('manager') ?? '',
      operation: str('operation') ?? '',
      apiVersion: str('apiVersion'),
      time: str('time'),
      subresource: str('subresource'),
    };
  } catch {
    return undefined;
  }
}

/** printManager: "name", with subresource and, for updates, "using apiVersion [at time]". */
export function printManager(id: string): string {
  const e = parseIdentifier(id);
  if (!e) return goQuote(id);
  let s = goQuote(e.manager);
  if (e.subresource) s += ` with subresource ${goQuote(e.subresource)}`;
  if (e.operation === 'Update') {
    return e.time ? `${s} using ${e.apiVersion ?? ''} at ${e.time}` : `${s} using ${e.apiVersion ?? ''}`;
  }
  return s;
}

export class ManagedFieldsError extends Error {}

/**
 * DecodeManagedFields. `stored` are the entries of the stored object, when the request's entries
 * are likely copies of them (updates and patches send them back): an entry whose fields equal the
 * stored entry's at the same place reuses that entry's decoded set.
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, stored?: readonly ManagedFieldsEntry[]): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${goQuote(e.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource });
    let set: FieldSet;
    const same = stored?.[i]?.fieldsV1;
    try {
      set = decodeSet(same !== undefined && sameFields(e.fieldsV1 ?? {}, same) ? same : (e.fieldsV1 ?? {}));
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

/**
 * One decoded set per stored fieldsV1 value, and one encoding per set. A stored fieldsV1 is
 * deep-frozen, so it decodes to the same set every time: the set is kept with it for as long as
 * some stored revision holds it. A set is encoded once, frozen, and that encoding is what every
 * later entry carrying the set holds: a manager whose fields did not change (set operations give
 * back their operand then, fieldpath/set.ts) keeps the very fieldsV1 of the revision before, so
 * the next write finds its set without decoding and stored revisions share it. A set decoded
 * from a stored value is encoded afresh the first time (the stored value may be a client's, not
 * written in canonical form; upstream encodes the decoded sets on every write).
 *
 * The set and its encoding point at each other (the set's `encoding` slot, and a non-enumerable
 * symbol on the encoding, which JSON, structuredClone, Object.keys and for-in never see) rather
 * than through WeakMaps: an entry of a WeakMap that lives in the old generation keeps its young
 * key and value alive through every scavenge until a full collection, so each write's set and
 * fieldsV1 (most of a create's managed-fields allocation) were promoted and copied even when the
 * write was a dry run nobody kept. A pair held only by each other dies young. Only a frozen value
 * this module did not encode (a client's managedFields, stored) is kept in a WeakMap.
 */
const SET_OF: unique symbol = Symbol('kubesim.fieldSet');
type Encoded = JsonObject & { readonly [SET_OF]?: FieldSet };
const decodedSets = new WeakMap<object, FieldSet>();

function decodeSet(fieldsV1: JsonValue): FieldSet {
  if (!isObject(fieldsV1) || !Object.isFrozen(fieldsV1)) return fromFieldsV1(fieldsV1);
  let set = (fieldsV1 as Encoded)[SET_OF] ?? decodedSets.get(fieldsV1);
  if (!set) decodedSets.set(fieldsV1, (set = fromFieldsV1(fieldsV1)));
  return set;
}

function encodeSet(set: FieldSet): JsonObject {
  let encoded = set.encoding;
  if (!encoded) {
    encoded = toFieldsV1(set);
    Object.defineProperty(encoded, SET_OF, { value: set });
    encoded = freezeFields(encoded);
    set.encoding = encoded;
  }
  return encoded;
}

/** A fieldsV1 value frozen at every level (its values are objects only). */
function freezeFields(v: JsonObject): JsonObject {
  for (const k in v) freezeFields(v[k] as JsonObject);
  return Object.freeze(v);
}

/** Whether two fieldsV1 values hold the same keys at every level (what decoding reads of them). */
function sameFields(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) return false;
  let keys = 0;
  for (const k in a) {
    if (a[k] === undefined) continue;
    keys++;
    const other = own(b, k);
    if (other === undefined || !sameFields(a[k]!, other)) return false;
  }
  for (const k in b) if (b[k] !== undefined) keys--;
  return keys === 0;
}

/** encodeManagedFields: undefined when nothing is managed (the field is then dropped). */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseIdentifier(id) ?? { manager: '', operation: '' };
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    const operation = vs.applied ? 'Apply' : info.operation;
    if (operation === 'Apply' || operation === 'Update') entry.operation = operation;
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = encodeSet(vs.set);
    if (info.subresource) entry.subresource = info.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
  const pt = unixSeconds(p.time);
  const qt = unixSeconds(q.time);
  if (pt !== qt) return pt < qt ? -1 : 1;
  return (
    compareStrings(p.manager ?? '', q.manager ?? '') ||
    compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
    compareStrings(p.subresource ?? '', q.subresource ?? '')
  );
}

export function unixSeconds(time: string | undefined): number {
  if (!time) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** metav1.Time as managedFields carry it: RFC 3339, seconds, UTC. */
export function formatTime(ms: number): string {
  return rfc3339(ms);
}
