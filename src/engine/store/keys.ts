/**
 * Key and value byte semantics shared by both backends. etcd compares keys and values as bytes;
 * strings travel as UTF-8, and UTF-8 byte order is code point order. JavaScript's `<` compares
 * UTF-16 code units, which agrees with code point order except when both strings hold a unit at
 * or above U+D800 at the first difference (a surrogate pair sorts below U+E000..U+FFFF by code
 * unit but above them by code point).
 */

const HIGH_UNIT = /[\uD800-\uFFFF]/;

export function hasHighUnit(s: string): boolean {
  return HIGH_UNIT.test(s);
}

/** Byte order of the UTF-8 encodings (bytes.Compare), without encoding. */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

/** Orders units >= U+D800 by code point: surrogates (astral code points) above U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

export function compareUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Length of the UTF-8 encoding, as etcd counts request sizes. */
export { utf8Length } from '../api/utf8';

/** etcd's mkGteRange: a range end of "\0" means "every key from `key` on", encoded as "". */
export const ALL_KEYS_FROM = '\0';

/**
 * The internal form of a range end: undefined selects the single key, '' means no upper bound,
 * anything else is an exclusive bound. etcd treats an empty range end like an absent one.
 */
export function normalizeRangeEnd(rangeEnd: string | undefined): string | undefined {
  if (rangeEnd === undefined || rangeEnd === '') return undefined;
  return rangeEnd === ALL_KEYS_FROM ? '' : rangeEnd;
}
