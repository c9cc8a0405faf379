/**
 * What the registry does to every object's metadata (k8s.io/apiserver/pkg/registry/rest):
 * system fields on create, generated names, the namespace check, and what an update may not
 * change.
 */
import { badRequestError } from '../api/status';
import type { KubeObject, ObjectMeta } from '../api/types';
import type { Clock } from '../clock';
import type { Random } from '../random';

/** rest.WipeObjectMetaSystemFields: what a client may not set on create. */
export function wipeSystemFields(meta: ObjectMeta): void {
  delete meta.creationTimestamp;
  delete meta.uid;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/** rest.FillObjectMetaSystemFields. */
export function fillSystemFields(meta: ObjectMeta, clock: Clock, random: Random): void {
  meta.creationTimestamp = clock.rfc3339();
  meta.uid = random.uuid();
}

const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;
const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

/** names.SimpleNameGenerator: the prefix (cut to 58 characters) and five random characters. */
export function generateName(base: string, random: Random): string {
  return base.slice(0, MAX_GENERATED_NAME_LENGTH) + random.string(RANDOM_LENGTH);
}

/** rest.EnsureObjectNamespaceMatchesRequestNamespace with the resource's scope. */
export function ensureNamespace(meta: ObjectMeta, requestNamespace: string, namespaced: boolean): void {
  const expected = namespaced ? requestNamespace : '';
  const objNamespace = meta.namespace ?? '';
  if (objNamespace === expected) return;
  if (objNamespace === '') {
    if (expected) meta.namespace = expected;
    return;
  }
  if (expected === '') {
    delete meta.namespace;
    return;
  }
  throw badRequestError('the namespace of the provided object does not match the namespace sent on the request');
}

/** rest.BeforeUpdate: what an update keeps from the stored object whatever the client sent. */
export function keepSystemFields(obj: KubeObject, old: KubeObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  if (o.generation === undefined) delete m.generation;
  else m.generation = o.generation;
  if (!m.uid && o.uid) m.uid = o.uid;
  if (o.creationTimestamp) m.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined) {
    m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  }
}
