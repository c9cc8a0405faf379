/**
 * The bridge from client-side to server-side apply for the "kubectl" manager: conflicts on
 * fields whose live value still matches kubectl's last-applied-configuration annotation are
 * forced through, and an existing annotation is kept in sync with what is applied
 * (lastAppliedManager and lastAppliedUpdater).
 */
import { goJson } from '../../api/gofmt';
import type { JsonObject, JsonValue } from '../../api/types';
import { isObject } from '../../api/types';
import type { Conflict } from './conflict';
import type { FieldSet } from './fieldpath/set';
import type { TypeRef } from './schema';
import { compare } from './typed/compare';
import { toFieldSet } from './typed/fieldset';
import { validate } from './typed/validate';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The manager name kubectl uses for server-side apply. */
export const KUBECTL_MANAGER = 'kubectl';
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: JsonObject): JsonObject | undefined {
  const meta = obj.metadata;
  return isObject(meta) && isObject(meta.annotations) ? meta.annotations : undefined;
}

/**
 * The fields of the last-applied configuration that still hold their last-applied value, or
 * undefined when there is no usable annotation.
 */
export function allowedConflicts(live: JsonObject, schema: TypeRef, apiVersion: string): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED_ANNOTATION];
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: JsonValue;
  try {
    lastApplied = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!isObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  if (validate(lastApplied, schema, false).length > 0) return undefined;
  const cmp = compare(lastApplied, live, schema);
  return toFieldSet(lastApplied, schema).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

export function disallowed(conflicts: readonly Conflict[], allowed: FieldSet): Conflict[] {
  return conflicts.filter((c) => !allowed.has(c.path));
}

/** When the result carries the annotation, it becomes the applied configuration (sans itself). */
export function syncLastApplied(result: JsonObject, applied: JsonObject): void {
  const annotations = annotationsOf(result);
  const current = annotations?.[LAST_APPLIED_ANNOTATION];
  if (!annotations || typeof current !== 'string' || current === '') return;
  annotations[LAST_APPLIED_ANNOTATION] = buildLastApplied(applied);
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += utf8Length(k) + (typeof v === 'string' ? utf8Length(v) : 0);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
}

/** The applied object without the annotation, as encoding/json writes it (with a newline). */
function buildLastApplied(applied: JsonObject): string {
  const copy = JSON.parse(JSON.stringify(applied)) as JsonObject;
  const meta = copy.metadata;
  if (isObject(meta) && isObject(meta.annotations)) delete meta.annotations[LAST_APPLIED_ANNOTATION];
  return goJson(copy) + '\n';
}

const encoder = new TextEncoder();
function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
