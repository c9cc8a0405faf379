/**
 * The empty object a create or a first apply starts from. Ownership is computed by comparing
 * with it, so it has to look like the registry's New() object as Go serializes it.
 */
import type { SchemaNode } from '../../api/openapi/types';
import type { GroupVersionKind, JsonObject, JsonValue } from '../../api/types';
import { formatApiVersion, isObject } from '../../api/types';
import { setOwn } from '../../api/own';

const zeros = new WeakMap<SchemaNode, Map<string, JsonObject>>();

/**
 * A new, empty object of the kind, as the registry's New() serializes: value-typed structs
 * (the schema gives them an empty default) are present and empty, required fields hold Go's
 * zero value (null for pointers, slices and maps), everything else is absent. Computed once per
 * kind: the object is shared and frozen.
 */
export function zeroObject(schema: SchemaNode, gvk: GroupVersionKind): JsonObject {
  const apiVersion = formatApiVersion(gvk.group, gvk.version);
  let byKind = zeros.get(schema);
  if (!byKind) zeros.set(schema, (byKind = new Map()));
  const id = `${apiVersion}/${gvk.kind}`;
  let zero = byKind.get(id);
  if (!zero) byKind.set(id, (zero = deepFreeze({ ...zeroOf(schema), apiVersion, kind: gvk.kind })));
  return zero;
}

function deepFreeze(v: JsonObject): JsonObject {
  for (const child of Object.values(v)) if (isObject(child)) deepFreeze(child);
  return Object.freeze(v);
}

function zeroOf(node: SchemaNode): JsonObject {
  // metav1.Time is a struct: its zero value serializes as null even with omitempty.
  if (node.definition?.endsWith('.ObjectMeta')) return { creationTimestamp: null };
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(node.properties ?? {})) {
    const d = child.default;
    if (child.properties && isObject(d) && Object.keys(d).length === 0) setOwn(out, k, zeroOf(child));
    else if (node.required?.includes(k)) {
      const zero = zeroScalar(child);
      if (zero !== undefined) setOwn(out, k, zero);
    }
  }
  return out;
}

function zeroScalar(node: SchemaNode): JsonValue | undefined {
  if (node.intOrString || node.format === 'quantity') return undefined;
  switch (node.type) {
    case 'string':
      return node.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
