/**
 * The fields a value sets (TypedValue.ToFieldSet): every scalar, every atomic list or map as a
 * whole, every list item, map entries of non-struct maps, and empty or null values. Struct
 * fields that hold a non-empty object are not members themselves, only their contents.
 */
import type { JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import type { Path, PathElement } from '../fieldpath/element';
import { compareElements, field } from '../fieldpath/element';
import { FieldSet } from '../fieldpath/set';
import type { TypeRef } from '../schema';
import { fieldType, hasField, resolve } from '../schema';
import { deduce, listItemKey } from './atom';

export function toFieldSet(v: JsonValue, ref: TypeRef): FieldSet {
  const paths: Path[] = [];
  collect(v, ref, [], paths);
  return FieldSet.from(paths);
}

function collect(v: JsonValue, ref: TypeRef, path: PathElement[], out: Path[]): void {
  const h = deduce(ref, v).handler;
  switch (h.kind) {
    case 'scalar':
      out.push(path);
      return;
    case 'map': {
      if (h.map.relationship === 'atomic') {
        out.push(path);
        return;
      }
      if (!isObject(v)) return;
      for (const [key, child] of Object.entries(v)) {
        if (child === undefined) continue;
        const childPath = [...path, field(key)];
        collect(child, fieldType(h.map, key), childPath, out);
        if (child === null || (isObject(child) && Object.keys(child).length === 0) || !hasField(h.map, key)) out.push(childPath);
      }
      return;
    }
    case 'list': {
      if (h.list.relationship === 'atomic') {
        out.push(path);
        return;
      }
      if (!Array.isArray(v)) return;
      const keys = v.map((child) => {
        const k = listItemKey(h.list, child);
        return k.ok ? k.value : undefined;
      });
      const count = (pe: PathElement | undefined): number => keys.filter((k) => sameElement(k, pe)).length;
      const reported: PathElement[] = [];
      v.forEach((child, i) => {
        const pe = keys[i];
        if (!pe) return;
        // Duplicated items are owned as a whole, without descending into them.
        if (count(pe) > 1) {
          if (!reported.some((r) => sameElement(r, pe))) {
            reported.push(pe);
            out.push([...path, pe]);
          }
          return;
        }
        const childPath = [...path, pe];
        collect(child, h.list.element, childPath, out);
        out.push(childPath);
      });
      return;
    }
    case 'none':
      return;
  }
}

function sameElement(a: PathElement | undefined, b: PathElement | undefined): boolean {
  return a !== undefined && b !== undefined && compareElements(a, b) === 0;
}

/**
 * EnsureNamedFieldsAreMembers: a struct field that only has children in the set becomes a
 * member too, so that removing the set removes the field itself.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, ref: TypeRef): FieldSet {
  const atom = resolve(ref);
  return set.mapChildren((pe, child) => {
    let childRef: TypeRef;
    if (pe.kind === 'field' && atom.map) childRef = fieldType(atom.map, pe.name);
    else if (pe.kind === 'key' && atom.list) childRef = atom.list.element;
    return {
      set: ensureNamedFieldsAreMembers(child, childRef),
      addMember: pe.kind === 'field' && atom.map !== undefined && hasField(atom.map, pe.name),
    };
  });
}
