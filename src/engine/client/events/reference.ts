/**
 * client-go's reference.GetReference: what an event is about. Events name the object's kind,
 * apiVersion, namespace, name, uid and the resourceVersion it had when the event happened.
 */
import type { KubeObject } from '../../api/types';
import type { ObjectReference } from './types';

export function getReference(obj: KubeObject): ObjectReference {
  const m = obj.metadata;
  const ref: ObjectReference = { kind: obj.kind, apiVersion: obj.apiVersion };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.name) ref.name = m.name;
  if (m.uid) ref.uid = m.uid;
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}

/** reference.GetPartialReference: a reference to part of the object (a container of a pod). */
export function getPartialReference(obj: KubeObject, fieldPath: string): ObjectReference {
  return { ...getReference(obj), fieldPath };
}
