/**
 * pkg/api/validation/generic.go and ValidateImmutableField: the small checks every kind uses.
 */
import { invalid, type ErrorList, type Path } from '../../../api/field';
import { own } from '../../../api/own';

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
export const fieldImmutableErrorMsg = 'field is immutable';

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, fldPath: Path): ErrorList {
  return value < 0 ? [invalid(fldPath, value, isNegativeErrorMsg).withOrigin('minimum')] : [];
}

/** ValidateImmutableField: `field is immutable` unless old and new are semantically equal. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, fldPath: Path): ErrorList {
  return semanticEqual(oldVal, newVal) ? [] : [invalid(fldPath, newVal ?? null, fieldImmutableErrorMsg)];
}

const isEmptyList = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/**
 * apiequality.Semantic.DeepEqual on the JSON form. Like upstream, an empty list equals an
 * absent one; timestamps compare as instants. Without Go types an empty object is not taken as
 * equal to an absent one (upstream equates them only for maps, not for struct pointers).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (isEmptyList(a) && isEmptyList(b)) return true;
  if (typeof a === 'string' && typeof b === 'string') return sameInstant(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) if (!semanticEqual(own(ao, k), own(bo, k))) return false;
    return true;
  }
  return false;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function sameInstant(a: string, b: string): boolean {
  if (!rfc3339.test(a) || !rfc3339.test(b)) return false;
  // metav1.Time keeps second precision; MicroTime keeps microseconds, which Date cannot hold
  // past milliseconds, so only compare when both carry the same fraction text.
  const frac = (s: string): string => /\.(\d+)/.exec(s)?.[1] ?? '';
  return Date.parse(a) === Date.parse(b) && frac(a) === frac(b);
}
