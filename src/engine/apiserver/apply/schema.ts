/**
 * How server-side apply sees a schema (kube-openapi's schemaconv into structured-merge-diff's
 * schema): every node is a scalar, a list (atomic, or associative by value or by key fields)
 * or a map (atomic or granular, with known fields and a type for other keys). Values the schema
 * leaves free are "deduced": maps granular, lists atomic, scalars any.
 */
import type { SchemaNode } from '../../api/openapi/types';
import { own } from '../../api/own';

export const DEDUCED = 'deduced';

/** A node, the deduced type, or the empty type reference (no type: unknown fields). */
export type TypeRef = SchemaNode | typeof DEDUCED | undefined;

export type Scalar = 'string' | 'numeric' | 'boolean' | 'untyped';

export interface ListAtom {
  relationship: 'atomic' | 'associative';
  keys: readonly string[];
  element: TypeRef;
}

export interface MapAtom {
  relationship: 'separable' | 'atomic';
  fields: Readonly<Record<string, SchemaNode>>;
  /** The type of keys that are not fields; undefined when the schema allows none. */
  element: TypeRef;
}

export interface Atom {
  scalar?: Scalar;
  list?: ListAtom;
  map?: MapAtom;
}

const deducedAtom: Atom = {
  scalar: 'untyped',
  list: { relationship: 'atomic', keys: [], element: DEDUCED },
  map: { relationship: 'separable', fields: {}, element: DEDUCED },
};

const cache = new WeakMap<SchemaNode, Atom>();

/** The empty type's atom: no scalar, list or map (one shared value). */
const NO_ATOM: Atom = Object.freeze({});

export function resolve(ref: TypeRef): Atom {
  if (ref === undefined) return NO_ATOM;
  if (ref === DEDUCED) return deducedAtom;
  let atom = cache.get(ref);
  if (!atom) {
    atom = compile(ref);
    cache.set(ref, atom);
  }
  return atom;
}

function compile(n: SchemaNode): Atom {
  if (n.properties || n.additionalProperties || n.type === 'object') {
    const fields = n.properties ?? {};
    let element: TypeRef;
    if (n.additionalProperties === true) element = DEDUCED;
    else if (n.additionalProperties) element = n.additionalProperties;
    // An object without properties is free-form; with properties, unknown keys are not allowed.
    else if (n.preserveUnknownFields || Object.keys(fields).length === 0) element = DEDUCED;
    return { map: { relationship: n.mapType === 'atomic' ? 'atomic' : 'separable', fields, element } };
  }
  if (n.type === 'array') return { list: { ...listRelationship(n), element: n.items ?? DEDUCED } };
  if (n.intOrString || n.format === 'int-or-string' || n.format === 'quantity') return { scalar: 'untyped' };
  switch (n.type) {
    case 'string':
      return { scalar: !n.format || n.format === 'byte' ? 'string' : 'untyped' };
    case 'integer':
    case 'number':
      return { scalar: 'numeric' };
    case 'boolean':
      return { scalar: 'boolean' };
    default:
      return deducedAtom;
  }
}

function listRelationship(n: SchemaNode): Pick<ListAtom, 'relationship' | 'keys'> {
  switch (n.listType) {
    case 'atomic':
      return { relationship: 'atomic', keys: [] };
    case 'set':
      return { relationship: 'associative', keys: [] };
    case 'map':
      return { relationship: 'associative', keys: n.listMapKeys ?? [] };
  }
  // Lists older than list-type annotations are described by their patch strategy.
  if (n.patchStrategy === 'merge' || n.patchStrategy === 'merge,retainKeys') {
    return { relationship: 'associative', keys: n.patchMergeKey ? [n.patchMergeKey] : [] };
  }
  return { relationship: 'atomic', keys: [] };
}

/** The type of a map entry: its field's type, else the map's element type. */
export function fieldType(m: MapAtom, key: string): TypeRef {
  return Object.prototype.hasOwnProperty.call(m.fields, key) ? own(m.fields, key) : m.element;
}

export function hasField(m: MapAtom, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(m.fields, key);
}
