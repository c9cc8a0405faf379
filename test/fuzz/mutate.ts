/**
 * Deterministic mutation of manifests: from a seed, the same mutants every run. Each operator
 * takes a manifest's text and a generator and returns a new text; some work on bytes (flips,
 * binary), some on lines (deletion, duplication, indentation), some on the scalars and keys YAML
 * and JSON hold (type swaps, built-in property names, huge numbers), and some build the inputs
 * parsers are attacked with (deep nesting, alias bombs, huge strings, byte order marks, line ends).
 */

/** A small, fast, seeded generator (mulberry32 over a string hash): the fuzz's only randomness. */
export class Prng {
  private state: number;

  constructor(seed: string) {
    let h = 2166136261;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
    this.state = h >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export const BUILTIN_NAMES: readonly string[] = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype']),
].sort();

const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '1e309',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '2147483648',
  '-2147483649',
  '1' + '0'.repeat(400),
  '0x7fffffffffffffff',
  '1.7976931348623157e309',
  '.inf',
  '-.Inf',
  '.nan',
  '4.9e-325',
  '-0',
  '0o777777777777777777777777',
];

const SCALARS = ['0', '-1', '3.5', 'true', 'false', 'yes', 'no', 'on', 'null', '~', '""', "''", '[]', '{}', '[a, b]', '{a: 1}', '"x"', '2025-01-01', '0777', '1_000', '!!binary aGVsbG8=', '!!str 5', '!!int x', '&a x', '*missing', '|', '>-', '"\\u0000"', '"\\ud800"'];

/** A line holding `key: value` (indentation, key, the rest). */
const KEY_VALUE = /^(\s*(?:- )?)([^\s:#][^:#]*?):(\s+)(\S.*)?$/;

export type Operator = (text: string, r: Prng) => string;

const lines = (text: string) => text.split('\n');

export const OPERATORS: Readonly<Record<string, Operator>> = {
  'byte-flip': (text, r) => {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length === 0) return text;
    for (let n = 1 + r.int(4); n > 0; n--) { const i = r.int(bytes.length); bytes[i] = bytes[i]! ^ (1 << r.int(8)); }
    return bytes.toString('latin1') === text ? text : bytes.toString('utf8');
  },
  truncate: (text, r) => text.slice(0, r.int(text.length + 1)),
  'delete-line': (text, r) => {
    const ls = lines(text);
    ls.splice(r.int(ls.length), 1 + r.int(2));
    return ls.join('\n');
  },
  'duplicate-line': (text, r) => {
    const ls = lines(text);
    const i = r.int(ls.length);
    ls.splice(i, 0, ...ls.slice(i, i + 1 + r.int(3)));
    return ls.join('\n');
  },
  'indent-shift': (text, r) => {
    const ls = lines(text);
    for (let n = 1 + r.int(3); n > 0; n--) {
      const i = r.int(ls.length);
      const shift = r.pick([-4, -2, -1, 1, 2, 4]);
      ls[i] = shift > 0 ? ' '.repeat(shift) + ls[i] : ls[i]!.replace(new RegExp(`^ {0,${-shift}}`), '');
    }
    return ls.join('\n');
  },
  'tab-indent': (text, r) => {
    const ls = lines(text);
    const i = r.int(ls.length);
    ls[i] = ls[i]!.replace(/^ +/, '\t');
    return ls.join('\n');
  },
  'type-swap': (text, r) => replaceValue(text, r, () => r.pick(SCALARS)),
  'builtin-key': (text, r) => {
    const ls = lines(text);
    const candidates = ls.map((l, i) => (KEY_VALUE.test(l) ? i : -1)).filter((i) => i >= 0);
    if (candidates.length === 0) return `${r.pick(BUILTIN_NAMES)}: ${r.pick(BUILTIN_NAMES)}\n${text}`;
    for (let n = 1 + r.int(3); n > 0; n--) {
      const i = r.pick(candidates);
      ls[i] = ls[i]!.replace(KEY_VALUE, (_m, indent: string, _key: string, space: string, value: string | undefined) => `${indent}${r.pick(BUILTIN_NAMES)}:${space}${value ?? ''}`);
    }
    return ls.join('\n');
  },
  'builtin-value': (text, r) => replaceValue(text, r, () => r.pick(BUILTIN_NAMES)),
  'huge-number': (text, r) => replaceValue(text, r, () => r.pick(HUGE_NUMBERS)),
  'deep-nesting': (text, r) => {
    const depth = r.pick([257, 1000, 9999, 10000, 10001, 20000]);
    const kind = r.int(4);
    // Block nesting grows the text with the square of the depth: 1,100 levels (600 kB) is past every bound.
    const value =
      kind === 0 ? '['.repeat(depth) + ']'.repeat(depth) : kind === 1 ? '{a: '.repeat(depth) + '1' + '}'.repeat(depth) : kind === 2 ? '[' + '{"a":['.repeat(depth / 2) + ']}'.repeat(depth / 2) + ']' : '\n' + Array.from({ length: Math.min(depth, 1100) }, (_, i) => `${' '.repeat(i + 2)}k:`).join('\n') + ' 1';
    return replaceValue(text, r, () => value);
  },
  'alias-bomb': (text, r) => {
    // The billion laughs: 9^9 nodes once the aliases are expanded, as top-level keys of the first document.
    const bomb = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const levels = r.pick([4, 6, 9]);
    for (let i = 1; i < levels; i++) bomb.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]`);
    return /^\s*[{[]/.test(text) ? `${bomb.join('\n')}\n` : `${bomb.join('\n')}\n${text}`;
  },
  'huge-string': (text, r) => replaceValue(text, r, () => `"${'x'.repeat(4 * 1024 * 1024)}"`),
  bom: (text, r) => (r.int(2) === 0 ? '\ufeff' + text : text.replace(/\n---\n/, '\n---\n\ufeff')),
  crlf: (text) => text.replace(/\r?\n/g, '\r\n'),
  'lone-cr': (text) => text.replace(/\r?\n/g, '\r'),
  binary: (text, r) => {
    const n = 1 + r.int(2048);
    const bytes = Buffer.alloc(n);
    for (let i = 0; i < n; i++) bytes[i] = r.int(256);
    return r.int(2) === 0 ? bytes.toString('utf8') : text.slice(0, r.int(text.length)) + bytes.toString('utf8');
  },
  'control-char': (text, r) => {
    const at = r.int(text.length + 1);
    return text.slice(0, at) + String.fromCharCode(r.pick([0, 1, 7, 8, 0x0b, 0x0c, 0x1b, 0x7f, 0x85, 0x9f, 0xfeff, 0xfffe, 0x2028])) + text.slice(at);
  },
  'duplicate-document': (text, r) => {
    const docs = text.split(/\n---\n/);
    const d = r.pick(docs);
    return `${text}\n---\n${d}`;
  },
};

/** Replaces the value of one or a few `key: value` lines (or a JSON `"key": value`) with `make()`. */
function replaceValue(text: string, r: Prng, make: () => string): string {
  if (/^\s*[{[]/.test(text)) {
    const values = [...text.matchAll(/:\s*("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)/g)];
    if (values.length === 0) return text;
    const m = r.pick(values);
    const v = make();
    const json = /^[\d.eE+-]+$|^(true|false|null)$/.test(v) ? v : JSON.stringify(v.replace(/^"|"$/g, ''));
    const at = m.index! + m[0].indexOf(m[1]!);
    return text.slice(0, at) + (v.startsWith('[') || v.startsWith('{') ? v.replace(/(\w+):/g, '"$1":') : json) + text.slice(at + m[1]!.length);
  }
  const ls = lines(text);
  const candidates = ls.map((l, i) => (KEY_VALUE.exec(l)?.[4] ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return text;
  for (let n = 1 + r.int(2); n > 0; n--) {
    const i = r.pick(candidates);
    ls[i] = ls[i]!.replace(KEY_VALUE, (_m, indent: string, key: string, space: string) => `${indent}${key}:${space}${make()}`);
  }
  return ls.join('\n');
}

export const OPERATOR_NAMES = Object.keys(OPERATORS);

/** How often each operator is drawn: the expensive inputs (4 MiB, 10,000 levels) less often. */
const WEIGHTS: Readonly<Record<string, number>> = { 'huge-string': 1, 'deep-nesting': 4, 'alias-bomb': 4, binary: 6 };

export interface Mutant {
  id: number;
  seedFile: string;
  operators: string[];
  text: string;
}

/** `count` mutants of the seeds, each from one to three operators, the same for the same seed. */
export function* mutants(seeds: ReadonlyArray<{ file: string; text: string }>, count: number, seed: string): Generator<Mutant> {
  const r = new Prng(seed);
  const weighted = OPERATOR_NAMES.flatMap((name) => Array<string>(Object.hasOwn(WEIGHTS, name) ? WEIGHTS[name]! : 12).fill(name));
  for (let id = 0; id < count; id++) {
    const s = seeds[id % seeds.length]!;
    // The first pass gives every operator its turn on some seed; then draws.
    const first = id < OPERATOR_NAMES.length ? OPERATOR_NAMES[id]! : r.pick(weighted);
    const ops = [first];
    for (let n = r.int(3); n > 0 && id >= OPERATOR_NAMES.length; n--) {
      const next = r.pick(weighted);
      // At most one expensive input per mutant.
      if (!Object.hasOwn(WEIGHTS, next) || !ops.some((o) => Object.hasOwn(WEIGHTS, o))) ops.push(next);
    }
    let text = s.text;
    for (const op of ops) text = OPERATORS[op]!(text, r);
    yield { id, seedFile: s.file, operators: ops, text };
  }
}
