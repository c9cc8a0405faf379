/**
 * Removing fields from a value (TypedValue.RemoveItems): map entries and list items named by
 * the set go, and the walk descends only where the set has paths. A map or list left empty by
 * the removal becomes null, as upstream's walker returns it.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { field } from '../fieldpath/element';
import type { FieldSet } from '../fieldpath/set';
import type { TypeRef } from '../schema';
import { fieldType } from '../schema';
import { deduce, listItemKey } from './atom';
import { setOwn } from '../../../api/own';

export function removeItems(v: JsonValue, toRemove: FieldSet, ref: TypeRef): JsonValue {
  const h = deduce(ref, v).handler;
  switch (h.kind) {
    case 'scalar':
      return v;
    case 'none':
      return null;
    case 'list': {
      if (!Array.isArray(v) || v.length === 0 || h.list.relationship === 'atomic') return null;
      const out: JsonValue[] = [];
      for (const item of v) {
        const key = listItemKey(h.list, item);
        if (!key.ok) {
          out.push(item);
          continue;
        }
        if (toRemove.has([key.value])) continue;
        const subset = toRemove.withPrefix(key.value);
        out.push(subset.empty() ? item : removeItems(item, subset, h.list.element));
      }
      return out.length > 0 ? out : null;
    }
    case 'map': {
      if (!isObject(v) || h.map.relationship === 'atomic') return null;
      const out: JsonObject = {};
      for (const [k, val] of Object.entries(v)) {
        if (val === undefined) continue;
        const pe = field(k);
        if (toRemove.has([pe])) continue;
        const subset = toRemove.withPrefix(pe);
        setOwn(out, k, subset.empty() ? val : removeItems(val, subset, fieldType(h.map, k)));
      }
      return Object.keys(out).length > 0 ? out : null;
    }
  }
}
