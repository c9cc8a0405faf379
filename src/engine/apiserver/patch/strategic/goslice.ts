/**
 * A Go slice over a shared backing array. Upstream's list merging deletes and appends in place,
 * and the $setElementOrder step then reads the caller's (now partly overwritten) view of the
 * original list to order server-only items; reproducing that order needs Go's aliasing.
 * Capacities follow Go's append growth for decoded lists: the next power of two.
 */
import type { JsonValue } from '../../../api/types';

export function decodedCap(len: number): number {
  return len === 0 ? 0 : 2 ** Math.ceil(Math.log2(len));
}

export class GoSlice {
  private constructor(
    private readonly backing: JsonValue[],
    readonly len: number,
    private readonly cap: number,
  ) {}

  /** A list as decoded from JSON or converted from a typed object. */
  static decoded(items: readonly JsonValue[]): GoSlice {
    return new GoSlice([...items], items.length, decodedCap(items.length));
  }

  items(): JsonValue[] {
    return this.backing.slice(0, this.len);
  }

  at(i: number): JsonValue {
    return this.backing[i]!;
  }

  set(i: number, v: JsonValue): void {
    this.backing[i] = v;
  }

  /** append(s, v): in place while capacity lasts, else a new backing array. */
  append(v: JsonValue): GoSlice {
    if (this.len < this.cap) {
      this.backing[this.len] = v;
      return new GoSlice(this.backing, this.len + 1, this.cap);
    }
    const grown = this.items();
    grown.push(v);
    return new GoSlice(grown, this.len + 1, decodedCap(this.len + 1));
  }

  /** append(s[:i], s[i+1:]...): shifts the tail left in place; the old last slot keeps its value. */
  removeAt(i: number): GoSlice {
    this.backing.copyWithin(i, i + 1, this.len);
    return new GoSlice(this.backing, this.len - 1, this.cap);
  }
}
