/**
 * The FieldsV1 encoding of a field set, as managedFields carry it: a nested object keyed by
 * serialized path elements, "." marking a path that is itself in the set when it also has
 * children. Keys are emitted in element order (the order kube-apiserver writes), so callers
 * that serialize the object must keep insertion order.
 */
import { atoi as goAtoi } from '../../../api/strconv';
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import type { PathElement } from './element';
import { compareElements, field, index, keyElement, serializeElement, valueElement } from './element';
import { FieldSet } from './set';
import { setOwn } from '../../../api/own';

export function toFieldsV1(set: FieldSet): JsonObject {
  return emit(set, false);
}

/**
 * The keys of shared (frozen) elements, such as the walkers' elements for a schema's fields,
 * written once: every managedFields entry names them again.
 */
const sharedKeys = new WeakMap<PathElement, string>();

function keyOf(pe: PathElement): string {
  if (!Object.isFrozen(pe)) return serializeElement(pe);
  let key = sharedKeys.get(pe);
  if (key === undefined) sharedKeys.set(pe, (key = serializeElement(pe)));
  return key;
}

function emit(set: FieldSet, includeSelf: boolean): JsonObject {
  const out: JsonObject = {};
  if (includeSelf && (set.members.length > 0 || set.children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  const { members, children } = set;
  while (mi < members.length || ci < children.length) {
    const c = mi >= members.length ? 1 : ci >= children.length ? -1 : compareElements(members[mi]!, children[ci]!.pe);
    if (c < 0) setOwn(out, keyOf(members[mi++]!), {});
    else if (c > 0) {
      const child = children[ci++]!;
      setOwn(out, keyOf(child.pe), emit(child.set, false));
    } else {
      const child = children[ci++]!;
      mi++;
      setOwn(out, keyOf(child.pe), emit(child.set, true));
    }
  }
  return out;
}

/**
 * Whether two sets have the same FieldsV1 encoding, read from the sets without writing it: the
 * same elements by their keys, level by level (emit's order follows from the keys).
 */
export function encodesSame(a: FieldSet, b: FieldSet): boolean {
  if (a === b) return true;
  const am = a.members;
  const bm = b.members;
  const ac = a.children;
  const bc = b.children;
  if (am.length !== bm.length || ac.length !== bc.length) return false;
  for (let i = 0; i < am.length; i++) if (!sameKey(am[i]!, bm[i]!)) return false;
  for (let i = 0; i < ac.length; i++) if (!sameKey(ac[i]!.pe, bc[i]!.pe) || !encodesSame(ac[i]!.set, bc[i]!.set)) return false;
  return true;
}

function sameKey(p: PathElement, q: PathElement): boolean {
  if (p === q) return true;
  if (p.kind === 'field' && q.kind === 'field') return p.name === q.name;
  return keyOf(p) === keyOf(q);
}

export class FieldsV1Error extends Error {}

/** Set.FromJSON; keys with an unknown element type are skipped, as upstream does. */
export function fromFieldsV1(obj: JsonValue): FieldSet {
  return read(obj).set;
}

function read(obj: JsonValue): { set: FieldSet; isMember: boolean } {
  if (!isObject(obj)) throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${JSON.stringify(obj)}`);
  let isMember = false;
  let any = false;
  const members: PathElement[] = [];
  const children: Array<{ pe: PathElement; set: FieldSet }> = [];
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue;
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = deserializeElement(key);
    if (!pe) continue;
    const child = read(value);
    any = true;
    if (child.isMember) members.push(pe);
    if (!child.set.empty()) children.push({ pe, set: child.set });
  }
  return any ? { set: sortedSet(members, children), isMember } : { set: FieldSet.EMPTY, isMember: true };
}

/**
 * The set of members and children in key order. Distinct keys may name the same element (key
 * fields in another order): the first one stays, and children of the same element are united.
 */
function sortedSet(members: PathElement[], children: Array<{ pe: PathElement; set: FieldSet }>): FieldSet {
  members.sort(compareElements);
  children.sort((a, b) => compareElements(a.pe, b.pe));
  return FieldSet.fromSorted(
    members.filter((m, i) => i === 0 || compareElements(members[i - 1]!, m) !== 0),
    children.reduce<Array<{ pe: PathElement; set: FieldSet }>>((out, c) => {
      const last = out[out.length - 1];
      if (last && compareElements(last.pe, c.pe) === 0) out[out.length - 1] = { pe: last.pe, set: last.set.union(c.set) };
      else out.push(c);
      return out;
    }, []),
  );
}

/** DeserializePathElement; undefined for an unknown element type. */
export function deserializeElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new FieldsV1Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new FieldsV1Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return field(rest);
    case 'v':
      return valueElement(parseJson(rest));
    case 'k': {
      const v = parseJson(rest);
      if (!isObject(v)) throw new FieldsV1Error(`ReadObjectCB: expect { or n, but found ${rest.slice(0, 1)}`);
      return keyElement(Object.entries(v).filter((e): e is [string, JsonValue] => e[1] !== undefined));
    }
    case 'i': {
      const i = goAtoi(rest);
      if (!i.ok) throw new FieldsV1Error(i.error);
      return index(i.value);
    }
    default:
      return undefined;
  }
}

function parseJson(s: string): JsonValue {
  try {
    return JSON.parse(s) as JsonValue;
  } catch (err) {
    throw new FieldsV1Error((err as Error).message);
  }
}
