/**
 * encodeLikeGo: an object as kube-apiserver writes it, which is what encoding/json makes of the
 * Go struct the object decodes into. Fields tagged omitempty vanish when empty (empty string, 0,
 * false, nil or empty slice and map, nil pointer); fields without it are always written, as
 * their zero value when absent (a nil slice as null, a struct as its own encoding, a zero
 * metav1.Time as null); pointers keep explicit zero values; struct fields come in Go's order
 * and map keys sorted. Custom resources are unstructured maps: every object's keys sorted.
 *
 * Walkers are compiled once per struct. A walk returns the very same object when it is already
 * in Go's shape, so objects that went through storage once cost no allocation the next time.
 */
import { isObject, parseApiVersion, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import { kindDefinition, OMITEMPTY, OMITZERO, structFields } from './go-json-table';
import { own, setOwn, table } from '../../api/own';

interface Codec {
  /** What Go writes for a value the JSON had (null included). */
  encode(v: JsonValue): JsonValue;
  /** What Go writes for the zero value (the field absent). */
  zero(): JsonValue;
  /** omitempty drops the written value. */
  empty(v: JsonValue): boolean;
  /** Whether the zero value is empty (omitempty drops an absent field). */
  readonly zeroEmpty: boolean;
  /** omitzero drops the written value (only metav1.Time carries omitzero in 1.35). */
  isZero(v: JsonValue): boolean;
}

const keep = (v: JsonValue): JsonValue => v;
const never = (): boolean => false;

function scalar(zero: JsonValue, zeroEmpty: boolean): Codec {
  return {
    encode: (v) => (v === null ? zero : v),
    zero: () => zero,
    empty: (v) => zeroEmpty && v === zero,
    zeroEmpty,
    isZero: (v) => v === zero,
  };
}

const STRING = scalar('', true);
const NUMBER = scalar(0, true);
const BOOL = scalar(false, true);
const QUANTITY = scalar('0', false);
const INT_OR_STRING = scalar(0, false);
const DURATION = scalar('0s', false);
const TIME: Codec = { encode: (v) => (v === '' ? null : v), zero: () => null, empty: never, zeroEmpty: false, isZero: (v) => v === null };
const RAW: Codec = { encode: keep, zero: () => null, empty: never, zeroEmpty: false, isZero: (v) => v === null };
const BYTES: Codec = { encode: keep, zero: () => null, empty: (v) => v === null || v === '', zeroEmpty: true, isZero: (v) => v === null };

function pointer(elem: Codec): Codec {
  return { encode: (v) => (v === null ? null : elem.encode(v)), zero: () => null, empty: (v) => v === null, zeroEmpty: true, isZero: (v) => v === null };
}

function slice(elem: Codec): Codec {
  return {
    encode(v) {
      if (!Array.isArray(v)) return v;
      let out: JsonValue[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const ev = elem.encode(v[i] ?? null);
        if (out) out.push(ev);
        else if (ev !== v[i]) {
          out = v.slice(0, i);
          out.push(ev);
        }
      }
      return out ?? v;
    },
    zero: () => null,
    empty: (v) => v === null || (Array.isArray(v) && v.length === 0),
    zeroEmpty: true,
    isZero: (v) => v === null,
  };
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,8})$/;

/**
 * Whether key a comes before key b in a sorted object. JavaScript puts keys that are array
 * indexes ("1234") first, in numeric order, whatever the insertion order: those are the one
 * place where the stored text cannot follow Go's byte order.
 */
export function keyBefore(a: string, b: string): boolean {
  const ai = ARRAY_INDEX.test(a);
  if (ai !== ARRAY_INDEX.test(b)) return ai;
  return ai ? Number(a) < Number(b) : a < b;
}

/** A Go map: values encoded, keys sorted (encoding/json sorts them), undefined entries gone. */
function map(elem: Codec): Codec {
  return {
    encode(v) {
      if (!isObject(v) || writtenAsIs(v, elem)) return v;
      const out: JsonObject = {};
      for (const k of Object.keys(v).sort()) {
        const value = v[k];
        if (value !== undefined) setOwn(out, k, elem.encode(value));
      }
      return out;
    },
    zero: () => null,
    empty: (v) => v === null || (isObject(v) && !hasKeys(v)),
    zeroEmpty: true,
    isZero: (v) => v === null,
  };
}

/** Whether a map's keys are sorted and its values already encoded (read without copying its keys). */
function writtenAsIs(v: JsonObject, elem: Codec): boolean {
  let previous: string | undefined;
  for (const k in v) {
    const value = v[k];
    if (value === undefined || (previous !== undefined && !keyBefore(previous, k)) || elem.encode(value) !== value) return false;
    previous = k;
  }
  return true;
}

function hasKeys(v: JsonObject): boolean {
  for (const _ in v) return true;
  return false;
}

interface Field {
  readonly name: string;
  readonly codec: Codec;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
}

/** The written value of a field the object has, or undefined when Go leaves it out. */
function present(f: Field, v: JsonValue): JsonValue | undefined {
  const ev = f.codec.encode(v);
  if (f.omitEmpty && f.codec.empty(ev)) return undefined;
  if (f.omitZero && f.codec.isZero(ev)) return undefined;
  return ev;
}

function absent(f: Field): JsonValue | undefined {
  if (f.omitEmpty && f.codec.zeroEmpty) return undefined;
  if (f.omitZero && f.codec.isZero(f.codec.zero())) return undefined;
  return f.codec.zero();
}

/**
 * Fields the conversion from the internal types to v1 fills from others on every encode:
 * PodSpec's deprecated serviceAccount repeats serviceAccountName (Convert_core_PodSpec_To_v1_PodSpec).
 */
const FROM_INTERNAL = table<(obj: JsonObject) => JsonObject>({
  'io.k8s.api.core.v1.PodSpec': (spec) => (spec.serviceAccount === spec.serviceAccountName ? spec : { ...spec, serviceAccount: spec.serviceAccountName }),
});

/** A struct type's fields, compiled once. */
interface Layout {
  readonly fields: readonly Field[];
  /** Each field's position in Go's order, by name. */
  readonly positions: ReadonlyMap<string, number>;
  /** Whether Go writes the field when the object lacks it (its zero value is not left out). */
  readonly writtenWhenAbsent: readonly boolean[];
  readonly writtenWhenAbsentCount: number;
}

class StructCodec implements Codec {
  private compiled: Layout | undefined;
  readonly zeroEmpty = false;

  private readonly fromInternal: ((obj: JsonObject) => JsonObject) | undefined;

  constructor(private readonly definition: string) {
    this.fromInternal = FROM_INTERNAL[definition];
  }

  private get layout(): Layout {
    if (!this.compiled) {
      const fields = structFields(this.definition).map(([name, flags, code]) => ({
        name,
        codec: codecFor(code),
        omitEmpty: (flags & OMITEMPTY) !== 0,
        omitZero: (flags & OMITZERO) !== 0,
      }));
      const writtenWhenAbsent = fields.map((f) => absent(f) !== undefined);
      this.compiled = {
        fields,
        positions: new Map(fields.map((f, i) => [f.name, i])),
        writtenWhenAbsent,
        writtenWhenAbsentCount: writtenWhenAbsent.filter((w) => w).length,
      };
    }
    return this.compiled;
  }

  encode(v: JsonValue): JsonValue {
    if (v === null) return this.zero();
    return isObject(v) ? this.walk(v) : v;
  }

  zero(): JsonValue {
    return this.walk({});
  }

  empty(): boolean {
    return false;
  }

  isZero(): boolean {
    return false;
  }

  walk(given: JsonObject): JsonObject {
    const obj = this.fromInternal ? this.fromInternal(given) : given;
    // An object that went through encoding once has Go's keys already: only its values are
    // looked at, not every field of the Go type (most of which an object leaves out).
    return this.hasGoKeys(obj) ? this.encodeValues(obj) : this.rebuild(obj);
  }

  /**
   * Whether the object has the keys Go writes, in Go's order: known fields in the table's order,
   * then the unknown ones, none undefined, and every field Go writes even when absent.
   */
  private hasGoKeys(obj: JsonObject): boolean {
    const { positions, writtenWhenAbsent, writtenWhenAbsentCount } = this.layout;
    let next = 0;
    let written = 0;
    let unknownSeen = false;
    for (const key in obj) {
      if (obj[key] === undefined) return false;
      const at = positions.get(key);
      if (at === undefined) {
        unknownSeen = true;
        continue;
      }
      if (unknownSeen || at < next) return false;
      next = at + 1;
      if (writtenWhenAbsent[at]) written++;
    }
    return written === writtenWhenAbsentCount;
  }

  /** An object with Go's keys, its values encoded: the same object when none changes. */
  private encodeValues(obj: JsonObject): JsonObject {
    const { fields, positions } = this.layout;
    let out: JsonObject | undefined;
    for (const key in obj) {
      const v = obj[key]!;
      const at = positions.get(key);
      const ev = at === undefined ? v : present(fields[at]!, v);
      if (out) {
        if (ev !== undefined) setOwn(out, key, ev);
        continue;
      }
      if (ev === v) continue;
      // The first difference: the keys before it stay as they are.
      out = {};
      for (const before in obj) {
        if (before === key) break;
        setOwn(out, before, obj[before]!);
      }
      if (ev !== undefined) setOwn(out, key, ev);
    }
    return out ?? obj;
  }

  /** Go's fields in Go's order, absent ones as Go writes them; fields the table does not know stay, after them (decoding already pruned unknown fields). */
  private rebuild(obj: JsonObject): JsonObject {
    const { fields, positions } = this.layout;
    const out: JsonObject = {};
    for (const f of fields) {
      const v = own(obj, f.name);
      const ev = v === undefined ? absent(f) : present(f, v);
      if (ev !== undefined) setOwn(out, f.name, ev);
    }
    for (const key in obj) if (!positions.has(key) && obj[key] !== undefined) setOwn(out, key, obj[key]);
    return out;
  }
}

const structs = new Map<string, StructCodec>();
const codecs = new Map<string, Codec>();

function codecFor(code: string): Codec {
  let c = codecs.get(code);
  if (!c) {
    c = compile(code);
    codecs.set(code, c);
  }
  return c;
}

function structCodec(definition: string): StructCodec {
  let s = structs.get(definition);
  if (!s) {
    s = new StructCodec(definition);
    structs.set(definition, s);
  }
  return s;
}

function compile(code: string): Codec {
  switch (code[0]) {
    case 's':
      return STRING;
    case 'n':
      return NUMBER;
    case 'b':
      return BOOL;
    case 'B':
      return BYTES;
    case 't':
      return TIME;
    case 'q':
      return QUANTITY;
    case 'i':
      return INT_OR_STRING;
    case 'd':
      return DURATION;
    case 'r':
      return RAW;
    case '*':
      return pointer(codecFor(code.slice(1)));
    case '[':
      return slice(codecFor(code.slice(1)));
    case '{':
      return map(codecFor(code.slice(1)));
    case '@':
      return structCodec(code.slice(1));
    default:
      throw new Error(`go-json: unknown type code ${code}`);
  }
}

/** An unstructured object as json.Marshal of its map writes it: keys sorted at every level. */
function sortedKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) {
    let out: JsonValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const ev = sortedKeys(v[i]!);
      if (out) out.push(ev);
      else if (ev !== v[i]) {
        out = v.slice(0, i);
        out.push(ev);
      }
    }
    return out ?? v;
  }
  if (!isObject(v)) return v;
  const keys = Object.keys(v);
  let same = true;
  for (let i = 0; i < keys.length && same; i++) {
    const value = own(v, keys[i]!);
    same = value !== undefined && (i === 0 || keyBefore(keys[i - 1]!, keys[i]!)) && sortedKeys(value) === value;
  }
  if (same) return v;
  const out: JsonObject = {};
  for (const key of keys.sort()) {
    const value = own(v, key);
    if (value !== undefined) setOwn(out, key, sortedKeys(value));
  }
  return out;
}

function definitionOf(obj: KubeObject): string | undefined {
  const { group, version } = parseApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
  return kindDefinition(group, version, typeof obj.kind === 'string' ? obj.kind : '');
}

/** Whether the object's kind is a built-in Go type (else it is unstructured, a custom resource). */
export function hasGoType(obj: KubeObject): boolean {
  return definitionOf(obj) !== undefined;
}

/** The object as kube-apiserver would write it (the same object when it already is). */
export function encodeLikeGo(obj: KubeObject): KubeObject {
  const definition = definitionOf(obj);
  const json = obj as JsonObject;
  return (definition ? structCodec(definition).walk(json) : sortedKeys(json)) as KubeObject;
}
