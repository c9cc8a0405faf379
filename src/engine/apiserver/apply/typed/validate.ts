/**
 * Checking a value against its schema before apply (typed.AsTyped): scalar types, known fields,
 * list item keys and duplicates. The messages print Go values the way fmt prints
 * structured-merge-diff's value wrappers, since they reach the user inside a 500 error.
 */
import { goQuote } from '../../../api/gofmt';
import type { JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { goSprintV, goTypeName } from '../../patch/govalue';
import type { PathElement } from '../fieldpath/element';
import { compareElements, compareStrings, elementString, field, index } from '../fieldpath/element';
import type { Scalar, TypeRef } from '../schema';
import { fieldType, hasField } from '../schema';
import { ValidationError, deduce, listItemKey } from './atom';

export function validate(v: JsonValue, ref: TypeRef, allowDuplicates: boolean): ValidationError[] {
  const h = deduce(ref, v).handler;
  switch (h.kind) {
    case 'map': {
      if (v === null) return [];
      if (!isObject(v)) return [new ValidationError('', `expected map, got ${goPointerV(v)}`)];
      const errs: ValidationError[] = [];
      // Go iterates the map in random order and stops at the first undeclared field; sorted
      // keys make the report deterministic.
      for (const key of Object.keys(v).sort(compareStrings)) {
        const child = v[key];
        if (child === undefined) continue;
        const prefix = elementString(field(key));
        if (!hasField(h.map, key) && h.map.element === undefined) {
          errs.push(new ValidationError(prefix, 'field not declared in schema'));
          break;
        }
        errs.push(...validate(child, fieldType(h.map, key), allowDuplicates).map((e) => e.withPrefix(prefix)));
      }
      return errs;
    }
    case 'scalar':
      return validateScalar(h.scalar, v, '');
    case 'list': {
      if (v === null) return [];
      if (!Array.isArray(v)) return [new ValidationError('', `expected list, got ${goPointerV(v)}`)];
      const errs: ValidationError[] = [];
      const seen: PathElement[] = [];
      for (let i = 0; i < v.length; i++) {
        const child = v[i]!;
        let pe: PathElement;
        if (h.list.relationship !== 'associative') pe = index(i);
        else {
          const key = listItemKey(h.list, child);
          if (!key.ok) {
            errs.push(new ValidationError('', `element ${i}: ${key.error}`));
            return errs;
          }
          pe = key.value;
          if (!allowDuplicates && seen.some((s) => compareElements(s, pe) === 0)) {
            errs.push(new ValidationError('', `duplicate entries for key ${elementString(pe)}`));
          }
          seen.push(pe);
        }
        errs.push(...validate(child, h.list.element, allowDuplicates).map((e) => e.withPrefix(elementString(pe))));
      }
      return errs;
    }
    case 'none':
      return [new ValidationError('', `schema error: invalid atom: ${typeName(ref)}`)];
  }
}

function typeName(ref: TypeRef): string {
  return typeof ref === 'object' && ref.definition ? `named type: ${ref.definition}` : 'inlined';
}

/** validateScalar; prefix is "lhs: " or "rhs: " when merging. */
export function validateScalar(t: Scalar, v: JsonValue | undefined, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  const isNum = typeof v === 'number';
  const isScalar = isNum || typeof v === 'string' || typeof v === 'boolean';
  switch (t) {
    case 'numeric':
      return isNum ? [] : [new ValidationError('', `${prefix}expected numeric (int or float), got ${goTypeName(v)}`)];
    case 'string':
      return typeof v === 'string' ? [] : [new ValidationError('', `${prefix}expected string, got ${goSharpPointerV(v)}`)];
    case 'boolean':
      return typeof v === 'boolean' ? [] : [new ValidationError('', `${prefix}expected boolean, got ${goPointerV(v)}`)];
    case 'untyped':
      return isScalar ? [] : [new ValidationError('', `${prefix}expected any scalar, got ${goPointerV(v)}`)];
  }
}

/** %v of structured-merge-diff's *valueUnstructured: &{value}. */
function goPointerV(v: JsonValue): string {
  return `&{${goSprintV(v)}}`;
}

/** %#v of structured-merge-diff's *valueUnstructured. */
function goSharpPointerV(v: JsonValue): string {
  return `&value.valueUnstructured{Value:${goSharpV(v)}}`;
}

/** %#v of decoded JSON held in an interface{}. */
function goSharpV(v: JsonValue): string {
  if (v === null) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return goSprintV(v);
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSharpV).join(', ') + '}';
  const keys = Object.keys(v)
    .filter((k) => v[k] !== undefined)
    .sort(compareStrings);
  return 'map[string]interface {}{' + keys.map((k) => `${goQuote(k)}:${goSharpV(v[k]!)}`).join(', ') + '}';
}
