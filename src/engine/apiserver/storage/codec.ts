/**
 * Objects in etcd are JSON, stored without metadata.resourceVersion (the etcd mod revision is
 * the resourceVersion, as kube-apiserver's versioner sets it on the way out). Decoding applies
 * defaults, as kube-apiserver does on every decode, and deep-freezes the result so that the
 * watch cache, list results and informers can share one copy.
 */
import type { KeyValue } from '../../store/types';
import type { KubeObject } from '../../api/types';
import { applyDefaults } from '../defaults/apply';
import { encodeLikeGo, hasGoType } from '../encoding/go-json';
import { setOwn } from '../../api/own';

/** ObjectMeta's fields in the order Go's encoding writes them. */
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/**
 * The object as it is stored: encoded as kube-apiserver's Go types encode it (encodeLikeGo), with
 * metadata without resourceVersion and selfLink. Top level and metadata are fresh objects, which
 * asStored may change.
 */
export function canonical(obj: KubeObject): KubeObject {
  const encoded = encodeLikeGo(obj);
  const metadata: KubeObject['metadata'] = {};
  for (const [k, v] of Object.entries(encoded.metadata)) if (k !== 'resourceVersion' && k !== 'selfLink') setOwn(metadata, k, v);
  return { ...encoded, metadata };
}

/**
 * What reading back a just-written object gives (defaults applied, the revision as its
 * resourceVersion, frozen), made from the canonical object instead of parsing the bytes again.
 */
export function asStored(stored: KubeObject, revision: number): KubeObject {
  applyDefaults(stored);
  stored.metadata = withResourceVersion(stored, revision);
  return deepFreeze(stored);
}

export function decodeFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>): KubeObject {
  const obj = JSON.parse(kv.value) as KubeObject;
  applyDefaults(obj);
  obj.metadata = withResourceVersion(obj, kv.modRevision);
  return deepFreeze(obj);
}

/** resourceVersion goes where Go's encoding puts it: after uid, or among sorted keys for custom resources. */
function withResourceVersion(obj: KubeObject, revision: number): KubeObject['metadata'] {
  const out: KubeObject['metadata'] = {};
  const after = hasGoType(obj) ? (k: string) => META_ORDER.indexOf(k) > META_ORDER.indexOf('uid') : (k: string) => k > 'resourceVersion';
  let placed = false;
  for (const [k, v] of Object.entries(obj.metadata)) {
    if (!placed && after(k)) {
      out.resourceVersion = String(revision);
      placed = true;
    }
    setOwn(out, k, v);
  }
  if (!placed) out.resourceVersion = String(revision);
  return out;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    const obj = value as Record<string, unknown>;
    for (const k in obj) deepFreeze(obj[k]);
  }
  return value;
}
