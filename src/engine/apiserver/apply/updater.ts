/**
 * Field ownership through writes (structured-merge-diff's merge.Updater). An update gives the
 * writer every field it changed and takes changed fields away from everyone else; an apply
 * merges the configuration, removes what the applier owned before and no longer applies
 * (unless someone else owns it), and fails with conflicts when it would change fields others
 * own, unless forced.
 *
 * kubesim serves one version per kind, so objects are never converted between the versions
 * managers wrote at: every manager's fields are compared on the one representation.
 */
import type { JsonValue } from '../../api/types';
import { jsonEqual } from '../patch/govalue';
import { ConflictsError, conflictsFromManagers } from './conflict';
import { FieldSet } from './fieldpath/set';
import type { TypeRef } from './schema';
import type { Comparison } from './typed/compare';
import { changedFields, compare } from './typed/compare';
import { ensureNamedFieldsAreMembers, toFieldSet } from './typed/fieldset';
import { merge } from './typed/merge';
import { removeItems } from './typed/remove';
import type { VersionedSet } from './managed';

export type ManagerSets = Map<string, VersionedSet>;

export interface UpdaterContext {
  /** The kind's schema. */
  schema: TypeRef;
  /** The API version of the request. */
  apiVersion: string;
  /** Fields this endpoint does not let the writer own (the strategy's reset fields). */
  resetFields?: FieldSet;
}

function filter(ctx: UpdaterContext, set: FieldSet): FieldSet {
  return ctx.resetFields ? set.recursiveDifference(ctx.resetFields) : set;
}

/**
 * The shared step: compare old and new, take changed fields from every manager but the
 * writer, or report them as conflicts.
 */
function takeChanged(ctx: UpdaterContext, oldObj: JsonValue, newObj: JsonValue, managers: ManagerSets, writer: string, force: boolean): Comparison {
  // What the endpoint may not own is left out of the comparison, and not even walked.
  const cmp = compare(oldObj, newObj, ctx.schema, ctx.resetFields);
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === writer) continue;
    const conflict = vs.set.intersection(changed);
    if (!conflict.empty()) conflicts.set(manager, conflict);
  }
  if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
  for (const [manager, conflict] of conflicts) {
    const vs = managers.get(manager)!;
    managers.set(manager, { ...vs, set: vs.set.difference(conflict) });
  }
  if (!cmp.removed.empty()) {
    for (const [manager, vs] of managers) {
      if (manager !== writer) managers.set(manager, { ...vs, set: vs.set.difference(cmp.removed) });
    }
  }
  for (const [manager, vs] of managers) if (vs.set.empty()) managers.delete(manager);
  return cmp;
}

/** Updater.Update: the writer of a non-apply change owns what it changed. */
export function updateOwnership(ctx: UpdaterContext, live: JsonValue, updated: JsonValue, managers: ManagerSets, manager: string): void {
  if (ownsNothingYet(managers, manager)) {
    // A create (or the first tracked write): no one's fields to take or to check, nothing the
    // writer owned that could have been removed; what changed is the writer's whole set. The
    // walk leaves out the reset fields and everything below them already (what filter would
    // remove), so the set is not filtered again.
    const set = changedFields(live, updated, ctx.schema, ctx.resetFields);
    managers.delete(manager);
    if (!set.empty()) managers.set(manager, { set, apiVersion: ctx.apiVersion, applied: false });
    return;
  }
  const cmp = takeChanged(ctx, live, updated, managers, manager, true);
  const previous = managers.get(manager)?.set ?? FieldSet.EMPTY;
  const set = filter(ctx, previous.difference(cmp.removed).union(cmp.modified).union(cmp.added));
  if (set.empty()) managers.delete(manager);
  else managers.set(manager, { set, apiVersion: ctx.apiVersion, applied: false });
}

/** No manager owns any field, the writer included. */
function ownsNothingYet(managers: ManagerSets, writer: string): boolean {
  for (const [manager, vs] of managers) if (manager !== writer || !vs.set.empty()) return false;
  return true;
}

/** Updater.Apply: the merged object, or undefined when the apply changes nothing. */
export function applyConfiguration(
  ctx: UpdaterContext,
  live: JsonValue,
  config: JsonValue,
  managers: ManagerSets,
  manager: string,
  force: boolean,
): JsonValue | undefined {
  const merged = merge(live, config, ctx.schema) ?? null;
  const lastSet = managers.get(manager);
  managers.set(manager, { set: filter(ctx, toFieldSet(config, ctx.schema)), apiVersion: ctx.apiVersion, applied: true });
  const pruned = prune(ctx, merged, managers, lastSet);
  takeChanged(ctx, live, pruned, managers, manager, force);
  return jsonEqual(live, pruned) ? undefined : pruned;
}

/**
 * Removes what the applier applied last time and not this time, unless another manager (or
 * the new configuration) owns it, and never removes what the applier did not own.
 */
function prune(ctx: UpdaterContext, merged: JsonValue, managers: ManagerSets, lastSet: VersionedSet | undefined): JsonValue {
  if (!lastSet || lastSet.set.empty()) return merged;
  const ensure = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, ctx.schema);
  let pruned = removeItems(merged, ensure(lastSet.set), ctx.schema);

  // addBackOwnedItems: whatever any manager owns stays.
  let owned = FieldSet.EMPTY;
  for (const vs of managers.values()) owned = owned.union(vs.set);
  const mergedSet = ensure(toFieldSet(merged, ctx.schema));
  pruned = removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned, ctx.schema)).union(ensure(owned))), ctx.schema);

  // addBackDanglingItems: only fields the applier owned may go.
  const prunedSet = ensure(toFieldSet(pruned, ctx.schema));
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(ensure(lastSet.set)), ctx.schema);
}
