/**
 * kube-apiserver's field manager for one endpoint (a kind's main resource or a subresource):
 * server-side apply, and the managedFields bookkeeping of every other write. It composes the
 * same steps as upstream's manager chain: version check, kubectl's last-applied bridge, the
 * "before-first-apply" manager for objects nobody tracked yet, the cap on Update managers,
 * manager identifiers, timestamps, and dropping the object-identity metadata from ownership.
 *
 * The merged object is not defaulted here; the caller defaults it, as for every patch type.
 */
import type { SchemaNode } from '../../api/openapi/types';
import type { GroupVersionKind, JsonObject, KubeObject, ManagedFieldsEntry } from '../../api/types';
import { formatApiVersion, isObject } from '../../api/types';
import { StatusError, badRequestError } from '../../api/status';
import { cloneJson } from '../patch/govalue';
import { capUpdateManagers } from './capmanagers';
import { ConflictsError, conflictError } from './conflict';
import type { Path } from './fieldpath/element';
import { field } from './fieldpath/element';
import { encodesSame } from './fieldpath/fieldsv1';
import { FieldSet } from './fieldpath/set';
import { KUBECTL_MANAGER, allowedConflicts, disallowed, syncLastApplied } from './lastapplied';
import type { Managed } from './managed';
import { cloneManaged, decodeManagedFields, emptyManaged, encodeManagedFields, formatTime, managerIdentifier } from './managed';
import { errorsText } from './typed/atom';
import { validate } from './typed/validate';
import { zeroObject } from './zero';
import type { UpdaterContext } from './updater';
import { applyConfiguration, updateOwnership } from './updater';
import { setOwn } from '../../api/own';

export interface FieldManagerScope {
  /** The kind's schema, e.g. schemaForKind('apps', 'v1', 'Deployment'). */
  schema: SchemaNode;
  /** The group, version and kind the request is served at. */
  gvk: GroupVersionKind;
  /** '' (or undefined) for the main resource; 'status', 'scale', ... for subresources. */
  subresource?: string;
  /**
   * The strategy's reset fields for this endpoint: what the writer may not own, e.g. status
   * on the main resource and everything but status on the status subresource.
   */
  resetFields?: FieldSet;
  /** Virtual time (ms since the epoch) for managedFields timestamps. */
  now: number;
}

export interface ApplyRequest extends FieldManagerScope {
  /** The stored object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The decoded apply configuration. */
  applied: JsonObject;
  /** PatchOptions.fieldManager (required for apply). */
  manager: string;
  force: boolean;
}

export interface ApplyResult {
  /** The new object, with metadata.managedFields set. */
  object: KubeObject;
  managedFields: ManagedFieldsEntry[] | undefined;
}

export interface UpdateRequest extends FieldManagerScope {
  /** The stored object; undefined on create. */
  live: KubeObject | undefined;
  /** The object about to be stored. */
  updated: KubeObject;
  /** managerOrUserAgent(fieldManager, userAgent). */
  manager: string;
}

const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';

/** Object identity, never owned (stripMetaManager). */
const STRIPPED = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (f): Path => [field('metadata'), field(f)],
  ),
);

/** Server-side apply: the merged object and its managedFields, or a StatusError (409 on conflicts). */
export function applyPatch(req: ApplyRequest): ApplyResult {
  let managed: Managed;
  try {
    managed = decodeManagedFields(req.live?.metadata.managedFields);
  } catch (err) {
    throw plainError(`failed to decode managed fields: ${(err as Error).message}`);
  }
  const patchGvk = gvkOf(req.applied);
  if (patchGvk.group !== req.gvk.group || patchGvk.version !== req.gvk.version || patchGvk.kind !== req.gvk.kind) {
    throw badRequestError(`invalid object type: ${gvkString(patchGvk)}`);
  }
  const live = normalized(req.live ?? zeroObject(req.schema, req.gvk));

  let outcome: { object: JsonObject; managed: Managed };
  try {
    outcome = applyOnce(req, live, managed, req.force);
  } catch (err) {
    if (!(err instanceof ConflictsError)) throw err;
    // kubectl moving from client-side apply: fields still as last applied may change hands.
    const allowed = req.manager === KUBECTL_MANAGER ? allowedConflicts(live, req.schema, formatApiVersion(req.gvk.group, req.gvk.version)) : undefined;
    if (!allowed) throw conflictError(err.conflicts);
    const remaining = disallowed(err.conflicts, allowed);
    if (remaining.length > 0) throw conflictError(remaining);
    outcome = applyOnce(req, live, managed, true);
  }
  const object = outcome.object;
  if (req.manager === KUBECTL_MANAGER) syncLastApplied(object, req.applied);
  const managedFields = setManagedFields(object, outcome.managed);
  return { object: object as KubeObject, managedFields };
}

function applyOnce(req: ApplyRequest, live: JsonObject, original: Managed, force: boolean): { object: JsonObject; managed: Managed } {
  const managed = cloneManaged(original);
  if (managed.fields.size === 0) runUpdate(req, normalized(zeroObject(req.schema, req.gvk)), live, managed, BEFORE_FIRST_APPLY);

  const meta = req.applied.metadata;
  if (isObject(meta) && Array.isArray(meta.managedFields)) throw badRequestError('metadata.managedFields must be nil');
  const errs = validate(req.applied, req.schema, false);
  if (errs.length > 0) throw plainError(`failed to create typed patch object (${gvknn(req.applied)}): ${errorsText(errs)}`);

  const id = managerIdentifier({ manager: req.manager || 'unknown', operation: 'Apply', subresource: req.subresource });
  const merged = applyConfiguration(context(req), live, req.applied, managed.fields, id, force);
  strip(managed, id);
  if (merged !== undefined) managed.times.set(id, formatTime(req.now));
  // The merge shares leaves with its inputs; the result is the caller's to change.
  return { object: cloneJson((merged as JsonObject | undefined) ?? live), managed };
}

/**
 * The managedFields bookkeeping of a create, update or non-apply patch (FieldManager.Update):
 * the manager gets an Update entry owning what it changed. Never fails; on a subresource the
 * request's managedFields are ignored, elsewhere a valid non-empty list replaces the stored one
 * and an empty list resets tracking.
 */
export function updateManagedFields(req: UpdateRequest): KubeObject {
  const requested = req.updated.metadata.managedFields;
  let managed: Managed;
  if (req.subresource) managed = decodeOrEmpty(req.live?.metadata.managedFields);
  else if (isReset(requested)) managed = emptyManaged();
  else {
    const fromRequest = decodeOrEmpty(requested, req.live?.metadata.managedFields);
    managed = fromRequest.fields.size > 0 ? fromRequest : decodeOrEmpty(req.live?.metadata.managedFields);
  }
  // The request's object is the caller's to hand over (a fresh decode): only the levels this
  // changes are copied.
  const updated = normalized(req.updated);
  // Objects that existed before anyone tracked them stay untracked until the first apply.
  if (managed.fields.size === 0 && req.live?.metadata.uid) return updated as KubeObject;
  runUpdate(req, normalized(req.live ?? zeroObject(req.schema, req.gvk)), updated, managed, req.manager);
  setManagedFields(updated, managed);
  return updated as KubeObject;
}

function runUpdate(scope: FieldManagerScope, live: JsonObject, updated: JsonObject, managed: Managed, manager: string): void {
  const id = managerIdentifier({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: formatApiVersion(scope.gvk.group, scope.gvk.version),
    subresource: scope.subresource,
  });
  // What the manager owned before: the write's changes are taken from it first, then given back.
  const before = managed.fields.get(id)?.set;
  updateOwnership(context(scope), live, updated, managed.fields, CURRENT_OPERATION);
  strip(managed, CURRENT_OPERATION);
  const current = managed.fields.get(CURRENT_OPERATION);
  if (current) {
    managed.fields.delete(CURRENT_OPERATION);
    const previous = managed.fields.get(id);
    const set = previous ? current.set.union(previous.set) : current.set;
    // A manager that changed only what it owned keeps its set, and with it its encoding (managed.ts).
    managed.fields.set(id, { ...current, set: before && encodesSame(set, before) ? before : set });
    managed.times.set(id, formatTime(scope.now));
  }
  capUpdateManagers(managed);
}

function context(scope: FieldManagerScope): UpdaterContext {
  return { schema: scope.schema, apiVersion: formatApiVersion(scope.gvk.group, scope.gvk.version), resetFields: scope.resetFields };
}

function strip(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED);
  if (set.empty()) managed.fields.delete(id);
  else managed.fields.set(id, { ...vs, set });
}

function setManagedFields(obj: JsonObject, managed: Managed): ManagedFieldsEntry[] | undefined {
  const entries = encodeManagedFields(managed);
  const meta = isObject(obj.metadata) ? obj.metadata : (obj.metadata = {});
  if (entries) meta.managedFields = entries;
  else delete meta.managedFields;
  return entries;
}

function decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined, stored?: readonly ManagedFieldsEntry[]): Managed {
  try {
    return decodeManagedFields(entries, stored);
  } catch {
    return emptyManaged();
  }
}

/** isResetManagedFields: [] or [{}] in a request clears the tracking. */
function isReset(entries: readonly ManagedFieldsEntry[] | undefined): boolean {
  if (!entries) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && Object.values(entries[0]!).every((v) => v === undefined || v === null || v === '');
}

/**
 * The object without managedFields, which the merge neither reads nor owns: a new top level and
 * metadata, sharing everything below (the walkers only read it).
 */
function normalized(obj: JsonObject | KubeObject): JsonObject {
  const copy = definedEntries(obj as JsonObject);
  if (isObject(copy.metadata)) {
    copy.metadata = definedEntries(copy.metadata);
    delete copy.metadata.managedFields;
  }
  return copy;
}

function definedEntries(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k in obj) if (obj[k] !== undefined) setOwn(out, k, obj[k]);
  return out;
}

function gvkOf(obj: JsonObject): GroupVersionKind {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion, kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind };
  return { group: '', version: '', kind: '' };
}

/** schema.GroupVersionKind's String(). */
function gvkString(g: GroupVersionKind): string {
  return `${g.group}/${g.version}, Kind=${g.kind}`;
}

/** objectGVKNN: "namespace/name; group/version, Kind=Kind". */
function gvknn(obj: JsonObject): string {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  return `${ns}/${name}; ${gvkString(gvkOf(obj))}`;
}

/** A Go error that is not a Status: 500 with no reason and the error's text. */
function plainError(message: string): StatusError {
  return new StatusError({ code: 500, reason: '', message });
}
