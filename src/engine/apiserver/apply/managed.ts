/**
 * metadata.managedFields in and out (k8s.io/apimachinery managedfields/internal): entries are
 * keyed by a manager identifier (the JSON of manager, operation, apiVersion for updates, and
 * subresource), carry a field set at an API version, and are written back sorted: Apply before
 * Update, then by time, manager, apiVersion and subresource.
 */
import { goJson, goQuote } from '../../api/gofmt';
import { isObject, type JsonObject, type JsonValue, type ManagedFieldsEntry } from '../../api/types';
import { fromFieldsV1, toFieldsV1 } from './fieldpath/fieldsv1';
import type { FieldSet } from './fieldpath/set';
import { compareStrings } from './fieldpath/element';

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
const parsedIdentifiers = new Map<string, Readonly<ManagerInfo> | undefined>();
const MAX_PARSED_IDENTIFIERS = 1024;

export function parseIdentifier(id: string): Readonly<ManagerInfo> | undefined {
  if (parsedIdentifiers.has(id)) return parsedIdentifiers.get(id);
  const info = parseIdentifierText(id);
  if (parsedIdentifiers.size >= MAX_PARSED_IDENTIFIERS) parsedIdentifiers.clear();
  parsedIdentifiers.set(id, info && Object.freeze(info));
  return info;
}

function parseIdentifierText(id: string): ManagerInfo | undefined {
  try {
    const v = JSON.parse(id) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
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

/** DecodeManagedFields. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${goQuote(e.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource });
    let set: FieldSet;
    try {
      set = decodeSet(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

/** Sets of stored (deep-frozen, so unchanging) fieldsV1 values: each is decoded once. */
const decodedSets = new WeakMap<object, FieldSet>();

function decodeSet(fieldsV1: JsonValue): FieldSet {
  if (!isObject(fieldsV1) || !Object.isFrozen(fieldsV1)) return fromFieldsV1(fieldsV1);
  let set = decodedSets.get(fieldsV1);
  if (!set) decodedSets.set(fieldsV1, (set = fromFieldsV1(fieldsV1)));
  return set;
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
    entry.fieldsV1 = toFieldsV1(vs.set) as JsonObject;
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
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
