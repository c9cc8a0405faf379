/**
 * The collector's decision for one object (attemptToDeleteItem), given its owners classified by
 * looking each one up:
 *  - solid: exists and is not waiting for its dependents' deletion;
 *  - dangling: gone (or replaced by another object of the same name);
 *  - waiting: being deleted in the foreground, waiting for its dependents.
 * With a solid owner the object stays, references to dangling or waiting owners are removed.
 * Without one it is deleted: in the foreground when a waiting owner needs it gone and it has
 * dependents of its own, else with the propagation its finalizers ask for (orphan, foreground)
 * or in the background.
 */
import type { KubeObject, OwnerReference } from '../../api/types';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Foreground' | 'Background';

export interface OwnerClasses {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

/**
 * What looking one owner up found (isDangling's inputs): the absent owner cache already knew it
 * gone, or the GET's answer (undefined for NotFound). A cluster-scoped item naming a namespaced
 * owner is refused before any lookup.
 */
export type OwnerLookup = { readonly cachedAbsent: true } | { readonly owner: KubeObject | undefined };

/** isDangling and classifyReferences for one reference: gone or another object of that name is dangling. */
export function classifyOwner(ref: OwnerReference, lookup: OwnerLookup): keyof OwnerClasses {
  if ('cachedAbsent' in lookup) return 'dangling';
  const owner = lookup.owner;
  if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
  return isDeletingDependents(owner) ? 'waiting' : 'solid';
}

/** classifyReferences: each reference by what its lookup found, in the references' order. */
export function classifyReferences(refs: readonly OwnerReference[], lookups: readonly OwnerLookup[]): OwnerClasses {
  const classes: OwnerClasses = { solid: [], dangling: [], waiting: [] };
  refs.forEach((ref, i) => classes[classifyOwner(ref, lookups[i]!)].push(ref));
  return classes;
}

export type Decision =
  | { action: 'none' }
  | { action: 'remove-owner-references'; uids: string[] }
  | { action: 'delete'; policy: PropagationPolicy; unblockOwners: boolean };

export interface ItemState {
  object: KubeObject;
  /** Whether anything in the cache names the object as an owner. */
  hasDependents: boolean;
  /** Whether one of those dependents is itself waiting for its dependents' deletion (a cycle). */
  dependentDeletingDependents: boolean;
}

export function decideDeletion(item: ItemState, owners: OwnerClasses): Decision {
  if (owners.solid.length > 0) {
    if (owners.dangling.length === 0 && owners.waiting.length === 0) return { action: 'none' };
    return { action: 'remove-owner-references', uids: [...owners.dangling, ...owners.waiting].map((r) => r.uid) };
  }
  if (owners.waiting.length > 0 && item.hasDependents) {
    return { action: 'delete', policy: 'Foreground', unblockOwners: item.dependentDeletingDependents };
  }
  const finalizers = item.object.metadata.finalizers ?? [];
  const policy: PropagationPolicy = finalizers.includes(FINALIZER_ORPHAN) ? 'Orphan' : finalizers.includes(FINALIZER_FOREGROUND) ? 'Foreground' : 'Background';
  return { action: 'delete', policy, unblockOwners: false };
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

/** Being deleted in the foreground: the object stays until its blocking dependents are gone. */
export function isDeletingDependents(obj: KubeObject): boolean {
  return isBeingDeleted(obj) && (obj.metadata.finalizers ?? []).includes(FINALIZER_FOREGROUND);
}

export function isOrphaningDependents(obj: KubeObject): boolean {
  return isBeingDeleted(obj) && (obj.metadata.finalizers ?? []).includes(FINALIZER_ORPHAN);
}

/** The dependent's reference to `ownerUid` blocks the owner's foreground deletion. */
export function blocksOwner(dependent: KubeObject, ownerUid: string): boolean {
  return (dependent.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid && r.blockOwnerDeletion === true);
}
