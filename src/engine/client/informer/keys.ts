/**
 * client-go's cache keys: "<namespace>/<name>" (or "<name>" for cluster-scoped objects), and the
 * tombstone a delete handler receives when the informer missed the delete itself (it relisted
 * and the object was gone): the last state it knew.
 */
import type { KubeObject } from '../../api/types';

export function metaNamespaceKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  const name = obj.metadata.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export class DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

/** DeletionHandlingMetaNamespaceKeyFunc: the key of an object or of a tombstone. */
export function deletionHandlingKey(obj: KubeObject | DeletedFinalStateUnknown): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : metaNamespaceKey(obj);
}

/** The object a delete handler got, whether it saw the delete or a tombstone. */
export function deletedObject<T extends KubeObject>(obj: T | DeletedFinalStateUnknown<T>): T {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}
