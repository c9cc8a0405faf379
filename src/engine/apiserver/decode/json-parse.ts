/**
 * A JSON parser that fails the way Go's encoding/json does: kube-apiserver checks a JSON body
 * with Go's scanner before decoding it, so syntax errors read "invalid character '}' looking for
 * beginning of object key string" or "unexpected end of JSON input". Iterative, so nesting
 * depth is bounded by `maxDepth` and not by the call stack.
 */
import { goQuote } from '../../api/gofmt';
import { table } from '../../api/own';
import type { ArrayNode, ObjectNode, SourceNode, SourceSpan } from './source';
import { fail as failed, ok, type Result } from '../../api/result';

export interface JsonSyntaxError {
  message: string;
  /** Where the offending character is (the text's length at end of input). */
  offset: number;
}

export type JsonParseResult = Result<{ node: SourceNode; end: number }, JsonSyntaxError>;

type Frame = { node: ObjectNode; key?: { key: string; keySpan: SourceSpan } } | { node: ArrayNode };

class Fail {
  constructor(readonly error: JsonSyntaxError) {}
}

const END = 'unexpected end of JSON input';
const ESCAPES = table<string>({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' });

/** Go's quoteChar: the offending byte in single quotes. */
function quoteChar(text: string, at: number): string {
  const cp = text.codePointAt(at) ?? 0x20;
  if (cp === 0x27) return `'\\''`;
  if (cp === 0x22) return `'"'`;
  const byte = cp < 0x80 ? cp : cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18);
  const q = goQuote(String.fromCharCode(byte));
  return `'${q.slice(1, -1)}'`;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * One JSON value from `start`. A body must hold exactly one; a manifest stream may hold several,
 * one after another (`stream`), and `end` is where the next begins.
 */
export function parseJson(text: string, maxDepth: number, start = 0, stream = false): JsonParseResult {
  let i = start;
  const n = text.length;
  const stack: Frame[] = [];

  const fail = (context: string): never => {
    throw new Fail({ message: `invalid character ${quoteChar(text, i)} ${context}`, offset: i });
  };
  /** Go feeds a space to the scanner at end of input: half-read tokens fail on that space. */
  const failAtEnd = (context?: string): never => {
    throw new Fail({ message: context ? `invalid character ' ' ${context}` : END, offset: n });
  };
  const skipSpace = () => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };

  const readString = (): string => {
    let out = '';
    i++;
    let chunk = i;
    for (;;) {
      if (i >= n) failAtEnd();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(chunk, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('in string literal');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(chunk, i);
      i++;
      if (i >= n) failAtEnd('in string escape code');
      const e = text[i]!;
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i++;
      } else {
        if (e !== 'u') fail('in string escape code');
        i++;
        const unit = readHex4();
        if (unit >= 0xd800 && unit < 0xdc00 && text.startsWith('\\u', i) && isLowSurrogateEscape(text, i + 2)) {
          i += 2;
          out += String.fromCharCode(unit, readHex4());
        } else {
          out += unit >= 0xd800 && unit < 0xe000 ? '\ufffd' : String.fromCharCode(unit);
        }
      }
      chunk = i;
    }
  };
  const readHex4 = (): number => {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      if (i >= n) failAtEnd('in \\u hexadecimal character escape');
      const c = text.charCodeAt(i);
      if (!isHex(c)) fail('in \\u hexadecimal character escape');
      v = v * 16 + parseInt(text[i]!, 16);
      i++;
    }
    return v;
  };

  const readNumber = (): SourceNode => {
    const start = i;
    if (text[i] === '-') {
      i++;
      if (i >= n) failAtEnd('in numeric literal');
      if (!isDigit(text.charCodeAt(i))) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (text[i] === '.') {
      i++;
      if (i >= n) failAtEnd('after decimal point in numeric literal');
      if (!isDigit(text.charCodeAt(i))) fail('after decimal point in numeric literal');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (i >= n) failAtEnd('in exponent of numeric literal');
      if (!isDigit(text.charCodeAt(i))) fail('in exponent of numeric literal');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    const raw = text.slice(start, i);
    return { kind: 'number', value: Number(raw), text: raw, start, end: i };
  };

  const readLiteral = (word: 'true' | 'false' | 'null'): SourceNode => {
    const start = i;
    for (let k = 1; k < word.length; k++) {
      i++;
      const context = `in literal ${word} (expecting '${word[k]}')`;
      if (i >= n) failAtEnd(context);
      if (text[i] !== word[k]) fail(context);
    }
    i++;
    if (word === 'null') return { kind: 'null', start, end: i };
    return { kind: 'bool', value: word === 'true', start, end: i };
  };

  /** Reads a scalar, or opens a container and returns undefined. */
  const beginValue = (): SourceNode | undefined => {
    skipSpace();
    if (i >= n) failAtEnd();
    const c = text[i]!;
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth) fail('exceeded max depth');
      const start = i;
      i++;
      if (c === '{') {
        const node: ObjectNode = { kind: 'object', entries: [], start, end: start };
        stack.push({ node });
        skipSpace();
        if (text[i] === '}') {
          i++;
          stack.pop();
          node.end = i;
          return node;
        }
        beginKey();
      } else {
        const node: ArrayNode = { kind: 'array', items: [], start, end: start };
        stack.push({ node });
        skipSpace();
        if (text[i] === ']') {
          i++;
          stack.pop();
          node.end = i;
          return node;
        }
      }
      return undefined;
    }
    if (c === '"') {
      const start = i;
      const value = readString();
      return { kind: 'string', value, start, end: i };
    }
    if (c === '-' || isDigit(text.charCodeAt(i))) return readNumber();
    if (c === 't') return readLiteral('true');
    if (c === 'f') return readLiteral('false');
    if (c === 'n') return readLiteral('null');
    return fail('looking for beginning of value');
  };

  const beginKey = () => {
    skipSpace();
    if (i >= n) failAtEnd();
    if (text[i] !== '"') fail('looking for beginning of object key string');
    const start = i;
    const key = readString();
    const frame = stack[stack.length - 1] as { node: ObjectNode; key?: { key: string; keySpan: SourceSpan } };
    frame.key = { key, keySpan: { start, end: i } };
    skipSpace();
    if (i >= n) failAtEnd();
    if (text[i] !== ':') fail('after object key');
    i++;
  };

  try {
    let value = beginValue();
    for (;;) {
      if (value === undefined) {
        // A container was opened: its first member follows.
        value = beginValue();
        continue;
      }
      const frame = stack[stack.length - 1];
      if (!frame) {
        skipSpace();
        if (i < n && !stream) fail('after top-level value');
        return ok({ node: value, end: i });
      }
      if (frame.node.kind === 'object') {
        const f = frame as { node: ObjectNode; key?: { key: string; keySpan: SourceSpan } };
        f.node.entries.push({ key: f.key!.key, keySpan: f.key!.keySpan, value });
        skipSpace();
        if (i >= n) failAtEnd();
        if (text[i] === ',') {
          i++;
          beginKey();
          value = beginValue();
          continue;
        }
        if (text[i] !== '}') fail('after object key:value pair');
      } else {
        frame.node.items.push(value);
        skipSpace();
        if (i >= n) failAtEnd();
        if (text[i] === ',') {
          i++;
          value = beginValue();
          continue;
        }
        if (text[i] !== ']') fail('after array element');
      }
      i++;
      stack.pop();
      frame.node.end = i;
      value = frame.node;
    }
  } catch (e) {
    if (e instanceof Fail) return failed(e.error);
    throw e;
  }
}

function isLowSurrogateEscape(text: string, at: number): boolean {
  const hex = text.slice(at, at + 4);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return false;
  const unit = parseInt(hex, 16);
  return unit >= 0xdc00 && unit < 0xe000;
}
