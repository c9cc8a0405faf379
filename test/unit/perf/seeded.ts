import type { JsonValue } from '../../../src/engine/api/types';
import { field, index, keyElement, valueElement, type PathElement } from '../../../src/engine/apiserver/apply/fieldpath/element';

/** A small seeded generator for the differential tests: next(n) is an integer in [0, n). */
export function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

/** The alphabet of randomPathElement: field and key names, values, indexes below `indexes`. */
export interface PathAlphabet {
  readonly names: readonly string[];
  readonly values: readonly JsonValue[];
  readonly indexes: number;
  /** Whether a key element may carry a second key, `port` (drawn when it is). */
  readonly portKeys: boolean;
}

/** A random field-path element over the alphabet: a field, an index, a value or a key (by `name`, maybe `port`). */
export function randomPathElement(next: (n: number) => number, a: PathAlphabet): PathElement {
  switch (next(4)) {
    case 0:
      return field(a.names[next(a.names.length)]!);
    case 1:
      return index(next(a.indexes));
    case 2:
      return valueElement(a.values[next(a.values.length)]!);
    default:
      return keyElement([
        ['name', a.names[next(a.names.length)]!],
        ...(a.portKeys && next(2) === 0 ? [['port', a.values[next(a.values.length)]!] as [string, JsonValue]] : []),
      ]);
  }
}
