/**
 * How Go prints decoded JSON (map[string]interface{}, []interface{}, int64, float64, ...) in the
 * error texts of the patch code: fmt's %v and reflect.TypeOf(...).String(). Patch bodies are
 * decoded with integers preserved, so a whole number is an int64 and anything else a float64.
 */
import { goFloat } from '../../api/gofmt';
import type { JsonValue } from '../../api/types';
import { own, setOwn } from '../../api/own';

/** fmt.Sprintf("%v", v): maps print sorted as map[k:v ...], slices as [a b], nil as <nil>. */
export function goSprintV(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return '[' + v.map(goSprintV).join(' ') + ']';
  const keys = Object.keys(v)
    .filter((k) => v[k] !== undefined)
    .sort();
  return 'map[' + keys.map((k) => `${k}:${goSprintV(v[k])}`).join(' ') + ']';
}

/** reflect.TypeOf(v).String(); a nil interface prints through %s as %!s(<nil>). */
export function goTypeName(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** The JSON type word encoding/json's UnmarshalTypeError uses: object, array, string, number, bool. */
export function jsonTypeWord(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * A deep copy of decoded JSON, so the Go algorithms (which mutate) never touch frozen input; the
 * same as structuredClone for JSON data (plain objects, arrays, no undefined values), and faster.
 */
export function cloneJson<T extends JsonValue>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((e) => cloneJson(e)) as T;
  const out: Record<string, JsonValue> = {};
  for (const k in v) {
    const e = v[k];
    if (e !== undefined) setOwn(out, k, cloneJson(e));
  }
  return out as T;
}

/** reflect.DeepEqual over decoded JSON (numbers compare by value). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((e, i) => jsonEqual(e, b[i]));
  const ao = a as Record<string, JsonValue | undefined>;
  const bo = b as Record<string, JsonValue | undefined>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => own(bo, k) !== undefined && jsonEqual(ao[k], own(bo, k)));
}

