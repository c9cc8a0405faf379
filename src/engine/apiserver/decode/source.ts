/**
 * Parsed request bodies and manifest documents, before they are decoded into objects: the
 * values as written, with where each was written. JSON and YAML both parse into this, so the
 * decoder (unknown and duplicate fields, Go type errors) and the position lookups for editor
 * diagnostics are written once. YAML aliases share the anchored node.
 */
import { setOwn } from '../../api/own';
import type { JsonObject, JsonValue } from '../../api/types';

/** UTF-16 offsets into the text, end exclusive. */
export interface SourceSpan {
  start: number;
  end: number;
}

export interface ObjectNode extends SourceSpan {
  kind: 'object';
  /** In order, duplicates kept: decoding decides what a repeated key means. */
  entries: SourceEntry[];
}

export interface SourceEntry {
  key: string;
  keySpan: SourceSpan;
  value: SourceNode;
}

export interface ArrayNode extends SourceSpan {
  kind: 'array';
  items: SourceNode[];
}

export interface StringNode extends SourceSpan {
  kind: 'string';
  value: string;
}

export interface NumberNode extends SourceSpan {
  kind: 'number';
  value: number;
  /** The number as JSON text, which Go parses into the target type ("3", "1.5", "1e+21"). */
  text: string;
}

export interface BoolNode extends SourceSpan {
  kind: 'bool';
  value: boolean;
}

export interface NullNode extends SourceSpan {
  kind: 'null';
}

export type SourceNode = ObjectNode | ArrayNode | StringNode | NumberNode | BoolNode | NullNode;

/** The plain JSON value; for a repeated key the last value wins, as in a Go map. */
export function toJsonValue(node: SourceNode): JsonValue {
  switch (node.kind) {
    case 'object': {
      const out: JsonObject = {};
      for (const e of node.entries) setOwn(out, e.key, toJsonValue(e.value));
      return out;
    }
    case 'array':
      return node.items.map(toJsonValue);
    case 'string':
    case 'number':
    case 'bool':
      return node.value;
    case 'null':
      return null;
  }
}

/**
 * The first number (in text order) that a float64 cannot hold (1e400, a 400-digit integer): Go's
 * JSON decoder refuses it wherever it would become an interface{} (float64) value, with
 * `goFloat64Error`. Whole numbers up to int64 are read as int64, so they are never refused here.
 */
export function firstUnrepresentableNumber(node: SourceNode): NumberNode | undefined {
  const stack: SourceNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.kind === 'number') {
      if (!Number.isFinite(n.value)) return n;
    } else if (n.kind === 'object') {
      for (let i = n.entries.length - 1; i >= 0; i--) stack.push(n.entries[i]!.value);
    } else if (n.kind === 'array') {
      for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]!);
    }
  }
  return undefined;
}

/** encoding/json's error for a number that does not fit the float64 an interface{} gets. */
export function goFloat64Error(n: NumberNode): string {
  return `json: cannot unmarshal number ${n.text} into Go value of type float64`;
}

/** What Go's json errors call a value of this kind: "object", "array", "string", "number", "bool". */
export function goValueKind(node: SourceNode): string {
  return node.kind === 'null' ? 'null' : node.kind;
}
