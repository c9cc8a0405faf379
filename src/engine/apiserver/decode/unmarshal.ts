/**
 * Decoding a parsed value into a built-in kind the way kube-apiserver does: into Go structs
 * with sigs.k8s.io/json (case-sensitive field names, strict mode collecting unknown and
 * duplicate fields), not against the OpenAPI schema. The result is what the Go struct holds,
 * as JSON: unknown fields dropped, a repeated field merged into the earlier value as Go does,
 * quantities canonical, times in UTC.
 *
 * Errors follow Go's rules: a type mismatch is remembered and decoding goes on (the first one is
 * reported), an error from a type's own UnmarshalJSON (quantities, int-or-string, times) stops
 * decoding at once. Both end the request; strict-mode findings only matter when neither happened.
 */
import { parseQuantity } from '../../api/quantity';
import { goQuote } from '../../api/gofmt';
import { own, setOwn } from '../../api/own';
import type { SchemaNode } from '../../api/openapi/types';
import { isObject, type JsonObject, type JsonValue } from '../../api/types';
import { decodeGoBase64 } from './go-base64';
import { parseGoTime, RFC3339, RFC3339_MICRO } from './go-time';
import { firstUnrepresentableNumber, toJsonValue, type ObjectNode, type SourceNode } from './source';
import { fieldTarget, printedDefinition, targetFor, zeroValue, type CollectionTarget, type StructTarget, type Target } from './targets';

export interface UnmarshalOptions {
  disallowUnknownFields: boolean;
  disallowDuplicateFields: boolean;
}

/** An unknown or duplicate field: `unknown field "spec.foo"`. */
export interface StrictIssue {
  kind: 'unknown' | 'duplicate';
  /** apimachinery field path: spec.template.spec.containers[0].foo */
  path: string;
  message: string;
}

export interface UnmarshalError {
  message: string;
  /** Where it happened, as a field path with list indexes (Go's own message has none). */
  path: string;
}

export interface UnmarshalResult {
  value: JsonValue | undefined;
  error?: UnmarshalError;
  strict: StrictIssue[];
}

const KEEP = Symbol('keep');
type Out = JsonValue | undefined | typeof KEEP;

/** sigs.k8s.io/json keeps at most this many strict errors. */
const MAX_STRICT = 100;
const JSON_SCHEMA_PROPS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';
/** The float64 an interface{} holds a number in, as Go's type errors name it. */
const FLOAT64: Target = { kind: 'float', bits: 64, type: 'float64', pointer: false };
const FLOAT64_ANY: Target = { kind: 'any', type: 'float64', pointer: false };

class Fatal {
  constructor(
    readonly message: string,
    readonly path?: string,
  ) {}
}

export function unmarshal(node: SourceNode, schema: SchemaNode, options: UnmarshalOptions): UnmarshalResult {
  return new Decoder(options, schema).run(node, targetFor(schema, undefined));
}

class Decoder {
  private readonly fieldStack: string[] = [];
  private structName = '';
  private readonly path: Array<string | number> = [];
  private saved?: UnmarshalError;
  private readonly strict: StrictIssue[] = [];
  private readonly seenStrict = new Set<string>();

  constructor(
    private readonly options: UnmarshalOptions,
    private readonly root: SchemaNode,
  ) {}

  run(node: SourceNode, target: Target): UnmarshalResult {
    try {
      const out = this.value(node, target, undefined);
      const value = out === KEEP ? undefined : out;
      return this.saved ? { value, error: this.saved, strict: [] } : { value, strict: this.strict };
    } catch (e) {
      if (!(e instanceof Fatal)) throw e;
      return { value: undefined, error: { message: e.message, path: e.path ?? this.pathString() }, strict: [] };
    }
  }

  private value(node: SourceNode, t: Target, existing: JsonValue | undefined): Out {
    if (t.kind === 'custom') {
      if (node.kind === 'null' && t.pointer) return undefined;
      return this.custom(node, t.custom);
    }
    switch (node.kind) {
      case 'null':
        if (t.pointer || t.kind === 'map' || t.kind === 'slice' || t.kind === 'bytes') return undefined;
        return t.kind === 'any' ? null : KEEP;
      case 'bool':
        if (t.kind === 'bool' || t.kind === 'any') return node.value;
        return this.typeError('bool', t);
      case 'number':
        return this.number(node.text, node.value, t);
      case 'string':
        if (t.kind === 'string' || t.kind === 'any') return node.value;
        if (t.kind === 'bytes') {
          const decoded = decodeGoBase64(node.value);
          if (decoded.ok) return Buffer.from(decoded.value).toString('base64');
          this.save(decoded.error);
          return KEEP;
        }
        return this.typeError('string', t);
      case 'object':
        if (t.kind === 'struct') return this.struct(node, t, existing);
        if (t.kind === 'map') return this.map(node, t, existing);
        if (t.kind === 'any') return this.any(node);
        return this.typeError('object', t);
      case 'array':
        if (t.kind === 'slice') return this.slice(node.items, t, existing);
        if (t.kind === 'bytes' && node.items.every((i) => i.kind === 'number')) {
          const byte = targetFor(undefined, 'uint8');
          const bytes = node.items.map((item, i) => this.indexed(i, () => this.value(item, byte, undefined)));
          return Buffer.from(bytes.map((b) => (typeof b === 'number' ? b : 0))).toString('base64');
        }
        if (t.kind === 'any') return this.any(node);
        return this.typeError('array', t);
    }
  }

  private number(text: string, value: number, t: Target): Out {
    switch (t.kind) {
      case 'int': {
        if (!/^-?\d+$/.test(text)) return this.typeError(`number ${text}`, t);
        const small = smallInt(text, t.bits, t.unsigned);
        if (small !== undefined) return small === OUT_OF_RANGE ? this.typeError(`number ${text}`, t) : small;
        const n = BigInt(text);
        const min = t.unsigned ? 0n : -(2n ** BigInt(t.bits - 1));
        const max = t.unsigned ? 2n ** BigInt(t.bits) - 1n : 2n ** BigInt(t.bits - 1) - 1n;
        if (n < min || n > max) return this.typeError(`number ${text}`, t);
        return Number(n);
      }
      case 'float': {
        const limit = t.bits === 32 ? 3.4028234663852886e38 : Number.MAX_VALUE;
        if (!Number.isFinite(value) || Math.abs(value) > limit) return this.typeError(`number ${text}`, t);
        return value;
      }
      case 'any':
        // An interface{} holds a number as int64 or float64: beyond float64 it is a type error.
        if (!Number.isFinite(value)) return this.typeError(`number ${text}`, FLOAT64);
        return value;
      default:
        return this.typeError('number', t);
    }
  }

  private struct(node: ObjectNode, t: StructTarget, existing: JsonValue | undefined): JsonObject {
    const out: JsonObject = isObject(existing) ? { ...existing } : {};
    const seen = KeySeen.for(node);
    const outerStruct = this.structName;
    for (let i = 0; i < node.entries.length; i++) {
      const entry = node.entries[i]!;
      const child = fieldTarget(t, entry.key);
      this.path.push(entry.key);
      if (!child) {
        if (this.options.disallowUnknownFields) this.strictIssue('unknown');
      } else {
        if (this.options.disallowDuplicateFields && seen.repeated(node, i)) this.strictIssue('duplicate');
        this.fieldStack.push(entry.key);
        this.structName = t.name;
        assign(out, entry.key, this.value(entry.value, child, own(out, entry.key)));
        this.fieldStack.pop();
        this.structName = outerStruct;
      }
      this.path.pop();
    }
    return out;
  }

  private map(node: ObjectNode, t: CollectionTarget, existing: JsonValue | undefined): JsonObject {
    const out: JsonObject = isObject(existing) ? { ...existing } : {};
    const seen = KeySeen.for(node);
    for (let i = 0; i < node.entries.length; i++) {
      const entry = node.entries[i]!;
      this.path.push(entry.key);
      if (this.options.disallowDuplicateFields && seen.repeated(node, i)) this.strictIssue('duplicate');
      const v = this.value(entry.value, t.elem, undefined);
      setOwn(out, entry.key, v === KEEP || v === undefined ? zeroValue(t.elem) : v);
      this.path.pop();
    }
    return out;
  }

  private slice(items: SourceNode[], t: CollectionTarget, existing: JsonValue | undefined): JsonValue[] {
    // Go decodes into the elements already there: a repeated list field merges by index.
    const before = Array.isArray(existing) ? existing : [];
    const out = new Array<JsonValue>(items.length);
    for (let i = 0; i < items.length; i++) {
      // Without indexed's closure (every list item of every body comes here): a Fatal carries its
      // path and ends the decoder, so the index needs no popping on the way out.
      this.path.push(i);
      const v = this.value(items[i]!, t.elem, before[i]);
      this.path.pop();
      out[i] = v === KEEP ? (before[i] ?? zeroValue(t.elem)) : v === undefined ? null : v;
    }
    return out;
  }

  /** map[string]interface{} and []interface{}: kept as written, duplicates still reported. */
  private any(node: SourceNode): JsonValue {
    if (node.kind === 'object') {
      const out: JsonObject = {};
      const seen = KeySeen.for(node);
      for (let i = 0; i < node.entries.length; i++) {
        const entry = node.entries[i]!;
        this.path.push(entry.key);
        if (this.options.disallowDuplicateFields && seen.repeated(node, i)) this.strictIssue('duplicate');
        setOwn(out, entry.key, this.any(entry.value));
        this.path.pop();
      }
      return out;
    }
    if (node.kind === 'array') return node.items.map((item, i) => this.indexed(i, () => this.any(item)));
    if (node.kind === 'number') {
      const v = this.number(node.text, node.value, FLOAT64_ANY);
      return v === KEEP || v === undefined ? null : v;
    }
    return toJsonValue(node);
  }

  private indexed<T>(i: number, f: () => T): T {
    this.path.push(i);
    try {
      return f();
    } finally {
      this.path.pop();
    }
  }

  private custom(node: SourceNode, kind: Extract<Target, { kind: 'custom' }>['custom']): Out {
    switch (kind) {
      case 'quantity': {
        if (node.kind === 'null') return '0';
        const text = node.kind === 'string' ? node.value : node.kind === 'number' ? node.text : JSON.stringify(toJsonValue(node));
        const q = parseQuantity(text.trim());
        if (!q.ok) throw this.fatal(q.error);
        return q.value.toString();
      }
      case 'intstr':
        if (node.kind === 'string') return node.value;
        if (node.kind === 'null') return 0;
        if (node.kind === 'number' && /^-?\d+$/.test(node.text) && node.value >= -(2 ** 31) && node.value < 2 ** 31) return node.value;
        throw this.fatal(`json: cannot unmarshal ${node.kind === 'number' ? `number ${node.text}` : node.kind} into Go value of type int32`);
      case 'time':
      case 'microtime': {
        if (node.kind === 'null') return null;
        if (node.kind !== 'string') throw this.fatal(`json: cannot unmarshal ${node.kind} into Go value of type string`);
        const parsed = parseGoTime(kind === 'time' ? RFC3339 : RFC3339_MICRO, node.value);
        if (!parsed.ok) throw this.fatal(parsed.error);
        return parsed.value;
      }
      case 'raw': {
        if (node.kind === 'null') return undefined;
        // Go keeps these bytes as sent; a number JavaScript cannot hold is refused as an interface{} refuses it.
        const huge = firstUnrepresentableNumber(node);
        if (huge) return this.typeError(`number ${huge.text}`, FLOAT64);
        return toJsonValue(node);
      }
      case 'schemaOrBool':
        if (node.kind === 'bool') return node.value;
        if (node.kind === 'object') return this.nested(node, JSON_SCHEMA_PROPS, undefined);
        throw this.fatal('boolean or JSON schema expected');
      case 'schemaOrArray':
        if (node.kind === 'object') return this.nested(node, JSON_SCHEMA_PROPS, undefined);
        if (node.kind === 'array') return this.nested(node, JSON_SCHEMA_PROPS, `[]${printedDefinition(JSON_SCHEMA_PROPS)}`);
        return undefined;
      case 'schemaOrStringArray':
        if (node.kind === 'object') return this.nested(node, JSON_SCHEMA_PROPS, undefined);
        if (node.kind === 'array') return this.nested(node, undefined, '[]string');
        return undefined;
    }
  }

  /** A json.Unmarshal inside an UnmarshalJSON: not strict, its own error context, errors fatal. */
  private nested(node: SourceNode, definition: string | undefined, goType: string | undefined): JsonValue | undefined {
    const schema = definition ? findDefinition(this.root, definition) : undefined;
    const target: Target =
      schema && goType ? { kind: 'slice', type: goType, pointer: false, elem: targetFor(schema, undefined) } : targetFor(schema, goType);
    const result = new Decoder({ disallowUnknownFields: false, disallowDuplicateFields: false }, this.root).run(node, target);
    if (result.error) {
      const inner = result.error.path;
      const outer = this.pathString();
      throw new Fatal(result.error.message, inner === '' ? outer : inner.startsWith('[') ? outer + inner : `${outer}.${inner}`);
    }
    return result.value;
  }

  /** An error from a type's own UnmarshalJSON: it ends decoding, here. */
  private fatal(message: string): Fatal {
    return new Fatal(message, this.pathString());
  }

  private typeError(value: string, t: Target): typeof KEEP {
    const message =
      this.structName !== '' || this.fieldStack.length > 0
        ? `json: cannot unmarshal ${value} into Go struct field ${this.structName}.${this.fieldStack.join('.')} of type ${t.type}`
        : `json: cannot unmarshal ${value} into Go value of type ${t.type}`;
    this.save(message);
    return KEEP;
  }

  private save(message: string): void {
    if (!this.saved) this.saved = { message, path: this.pathString() };
  }

  private strictIssue(kind: StrictIssue['kind']): void {
    const path = this.pathString();
    const message = `${kind} field ${goQuote(path)}`;
    if (this.strict.length >= MAX_STRICT || this.seenStrict.has(message)) return;
    this.seenStrict.add(message);
    this.strict.push({ kind, path, message });
  }

  private pathString(): string {
    let s = '';
    for (const p of this.path) s += typeof p === 'number' ? `[${p}]` : s === '' ? p : `.${p}`;
    return s;
  }
}

/**
 * Which keys of an object came before: small objects (nearly all) are scanned, larger ones get a
 * set. In a struct only known fields are checked, and a repeated key is known exactly when its
 * first occurrence was, so scanning every earlier entry finds the same repeats.
 */
class KeySeen {
  private static readonly SCAN = new KeySeen(undefined);
  private static readonly MAX_SCAN = 16;

  private constructor(private readonly keys: Set<string> | undefined) {}

  static for(node: ObjectNode): KeySeen {
    return node.entries.length > KeySeen.MAX_SCAN ? new KeySeen(new Set()) : KeySeen.SCAN;
  }

  /** Whether the i-th entry's key appeared before; asked in order, once per checked entry. */
  repeated(node: ObjectNode, i: number): boolean {
    const key = node.entries[i]!.key;
    if (this.keys) {
      if (this.keys.has(key)) return true;
      this.keys.add(key);
      return false;
    }
    for (let j = 0; j < i; j++) if (node.entries[j]!.key === key) return true;
    return false;
  }
}

const OUT_OF_RANGE = Symbol('out of range');

/**
 * An integer's text of at most 15 digits (every such value is exact as a double) checked against
 * the Go type's range without BigInt: the number, OUT_OF_RANGE, or undefined for longer texts.
 * Go's int32 and uint8 bounds are exact doubles; no 15-digit value is outside int64 or uint64
 * but a negative one for an unsigned type.
 */
function smallInt(text: string, bits: number, unsigned: boolean): number | typeof OUT_OF_RANGE | undefined {
  const digits = text.charCodeAt(0) === 45 /* - */ ? text.length - 1 : text.length;
  if (digits > 15) return undefined;
  // + 0: "-0" is 0, as Number(BigInt("-0")) is.
  const n = Number(text) + 0;
  if (bits >= 53) return unsigned && n < 0 ? OUT_OF_RANGE : n;
  const min = unsigned ? 0 : -(2 ** (bits - 1));
  const max = unsigned ? 2 ** bits - 1 : 2 ** (bits - 1) - 1;
  return n < min || n > max ? OUT_OF_RANGE : n;
}

function assign(out: JsonObject, key: string, v: Out): void {
  if (v === KEEP) return;
  if (v === undefined) delete out[key];
  else setOwn(out, key, v);
}

/** The compiled node of a definition reachable from `root` (JSONSchemaProps inside a CRD). */
function findDefinition(root: SchemaNode, definition: string): SchemaNode | undefined {
  const seen = new Set<SchemaNode>();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.definition === definition && node.properties) return node;
    for (const child of Object.values(node.properties ?? {})) stack.push(child);
    if (node.items) stack.push(node.items);
    if (typeof node.additionalProperties === 'object') stack.push(node.additionalProperties);
  }
  return undefined;
}
