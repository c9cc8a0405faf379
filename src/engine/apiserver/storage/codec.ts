/**
 * Objects in etcd are JSON, stored without metadata.resourceVersion (the etcd mod revision is
 * the resourceVersion, as kube-apiserver's versioner sets it on the way out). Decoding applies
 * defaults, as kube-apiserver does on every decode, and deep-freezes the result so that the
 * watch cache, list results and informers can share one copy.
 */
import type { KeyValue } from '../../store/types';
import type { KubeObject } from '../../api/types';
import { applyDefaults } from '../defaults/apply';

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
const TOP_ORDER = ['apiVersion', 'kind', 'metadata'];

function ordered<T extends object>(obj: T, order: readonly string[], skip: ReadonlySet<string>): T {
  const src = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && !skip.has(k) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

const NOT_STORED = new Set(['resourceVersion', 'selfLink']);
const NONE = new Set<string>();

/** The object as it is stored: metadata without resourceVersion, fields in Go's order where kubesim knows it. */
export function canonical(obj: KubeObject): KubeObject {
  const metadata = ordered(obj.metadata, META_ORDER, NOT_STORED);
  return ordered({ ...obj, metadata }, TOP_ORDER, NONE);
}

/**
 * What reading back a just-written object gives (defaults applied, the revision as its
 * resourceVersion, frozen), made from the canonical object instead of parsing the bytes again.
 */
export function asStored(stored: KubeObject, revision: number): KubeObject {
  applyDefaults(stored);
  stored.metadata = withResourceVersion(stored.metadata, revision);
  return deepFreeze(stored);
}

export function decodeFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>): KubeObject {
  const obj = JSON.parse(kv.value) as KubeObject;
  applyDefaults(obj);
  obj.metadata = withResourceVersion(obj.metadata, kv.modRevision);
  return deepFreeze(obj);
}

/** resourceVersion goes where Go's encoding puts it: after uid. */
function withResourceVersion(meta: KubeObject['metadata'], revision: number): KubeObject['metadata'] {
  const out: KubeObject['metadata'] = {};
  let placed = false;
  for (const [k, v] of Object.entries(meta)) {
    if (!placed && META_ORDER.indexOf(k) > META_ORDER.indexOf('uid')) {
      out.resourceVersion = String(revision);
      placed = true;
    }
    out[k] = v;
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
