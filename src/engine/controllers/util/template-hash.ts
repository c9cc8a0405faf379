/**
 * Pod templates as the deployment controller compares and names them: EqualIgnoreHash (is this
 * ReplicaSet running the Deployment's template?) and ComputeHash (the pod-template-hash label and
 * the new ReplicaSet's name suffix).
 */
import { parseQuantity } from '../../api/quantity';
import { POD_TEMPLATE_HASH_LABEL, type PodTemplateSpec } from './types/workload';
import { own } from '../../api/own';

/**
 * apiequality.Semantic.DeepEqual of two templates with the hash label removed: an empty list or
 * map equals a missing one, and quantities compare by value.
 */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return semanticEqual(withoutHashLabel(a), withoutHashLabel(b), '');
}

function withoutHashLabel(t: PodTemplateSpec | undefined): PodTemplateSpec {
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return { ...t, metadata: { ...t?.metadata, labels } };
}

const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead']);
/** Go maps among the template's fields: an empty one equals a missing one (an empty struct does not). */
const STRING_MAPS = new Set(['labels', 'annotations', 'nodeSelector']);

function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

function isEmptyMap(v: unknown): boolean {
  return isAbsent(v) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => isAbsent((v as Record<string, unknown>)[k])));
}

function semanticEqual(a: unknown, b: unknown, key: string): boolean {
  if (a === b) return true;
  if (isAbsent(a) || isAbsent(b)) return (isAbsent(a) && isAbsent(b)) || (STRING_MAPS.has(key) && isEmptyMap(a) && isEmptyMap(b));
  if (typeof a === 'string' && typeof b === 'string') return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i], ''));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) {
    const x = own(ra, k);
    const y = own(rb, k);
    if (QUANTITY_MAPS.has(key) && quantitiesEqual(x, y)) continue;
    if (!semanticEqual(x, y, k)) return false;
  }
  return true;
}

function quantitiesEqual(x: unknown, y: unknown): boolean {
  if ((typeof x !== 'string' && typeof x !== 'number') || (typeof y !== 'string' && typeof y !== 'number')) return false;
  const qx = parseQuantity(String(x));
  const qy = parseQuantity(String(y));
  return qx.ok && qy.ok && qx.value.cmp(qy.value) === 0;
}

/**
 * ComputeHash: FNV-32a over a deterministic printing of the template, then collisionCount as
 * four little-endian bytes padded to eight, rendered in rand.SafeEncodeString's alphabet.
 * Upstream prints the Go struct with go-spew; this prints the JSON with sorted keys, so the hash
 * is stable and deterministic but not the value kube-controller-manager would compute.
 */
export function computeHash(template: PodTemplateSpec | undefined, collisionCount: number | undefined): string {
  let h = fnv32a(FNV_OFFSET, utf8(canonicalJson(template ?? {})));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(h, bytes);
  }
  return safeEncodeString(String(h));
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnv32a(seed: number, bytes: Uint8Array): number {
  let h = seed;
  for (const b of bytes) h = Math.imul(h ^ b, FNV_PRIME) >>> 0;
  return h >>> 0;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function canonicalJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** rand.SafeEncodeString: each byte picks from the consonant-and-digit alphabet, so no words are spelled. */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHANUMS[s.charCodeAt(i) % SAFE_ALPHANUMS.length];
  return out;
}
