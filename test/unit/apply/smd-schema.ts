/**
 * structured-merge-diff test schemas (their own YAML schema language) as compiled OpenAPI
 * nodes, so upstream's merge tables run against kubesim's schema handling.
 */
import { parse } from 'yaml';
import type { SchemaNode } from '../../../src/engine/api/openapi/types';
import { dict } from '../../../src/engine/api/own';

interface SmdField {
  name: string;
  type: SmdRef;
  default?: unknown;
}
interface SmdAtom {
  scalar?: string;
  list?: { elementType: SmdRef; elementRelationship?: string; keys?: string[] };
  map?: { fields?: SmdField[]; elementType?: SmdRef; elementRelationship?: string };
}
type SmdRef = SmdAtom & { namedType?: string };

export function smdSchema(yamlText: string, root: string): SchemaNode {
  const types = (parse(yamlText) as { types: Array<SmdAtom & { name: string }> }).types;
  const named = new Map<string, SchemaNode>();
  for (const t of types) named.set(t.name, {});
  const ref = (r: SmdRef): SchemaNode => {
    if (r.namedType === '__untyped_deduced_') return {};
    if (r.namedType) return named.get(r.namedType)!;
    return atom(r);
  };
  const atom = (a: SmdAtom): SchemaNode => {
    if (a.scalar) {
      if (a.scalar === 'numeric') return { type: 'number' };
      if (a.scalar === 'boolean') return { type: 'boolean' };
      if (a.scalar === 'string') return { type: 'string' };
      return { intOrString: true, format: 'int-or-string' };
    }
    if (a.list) {
      const rel = a.list.elementRelationship;
      const listType = rel === 'associative' ? (a.list.keys?.length ? 'map' : 'set') : 'atomic';
      return { type: 'array', items: ref(a.list.elementType), listType, ...(a.list.keys?.length ? { listMapKeys: a.list.keys } : {}) };
    }
    const m = a.map ?? {};
    const properties = dict<SchemaNode>();
    for (const f of m.fields ?? []) properties[f.name] = f.default === undefined ? ref(f.type) : { ...ref(f.type), default: f.default as never };
    return {
      type: 'object',
      ...(m.fields ? { properties } : {}),
      ...(m.elementType ? { additionalProperties: ref(m.elementType) } : {}),
      ...(m.elementRelationship === 'atomic' ? { mapType: 'atomic' as const } : {}),
    };
  };
  for (const t of types) Object.assign(named.get(t.name)!, atom(t));
  return named.get(root)!;
}
