/**
 * An upper bound on the length of JSON.stringify(value), for the size check of dry runs: almost
 * every object is far below etcd's limit, and bounding its text is cheaper than writing it.
 */

/** The longest JSON.stringify of a number: "-0.0000012345678901234567". */
const MAX_NUMBER_LENGTH = 25;

/**
 * At least the length of JSON.stringify(value) (a string as if every unit were escaped as \uXXXX),
 * counted until it passes `limit`. Values that are not plain JSON (toJSON, class instances)
 * answer Infinity.
 */
export function jsonLengthBound(value: unknown, limit: number): number {
  let total = 0;
  const visit = (v: unknown): void => {
    if (total > limit) return;
    switch (typeof v) {
      case 'string':
        total += 2 + 6 * v.length;
        return;
      case 'number':
        total += MAX_NUMBER_LENGTH;
        return;
      case 'boolean':
        total += 5;
        return;
      case 'object':
        break;
      case 'bigint':
        // JSON.stringify refuses it: the text path reports that.
        total = Infinity;
        return;
      default:
        // undefined, functions and symbols: dropped, or null in arrays.
        total += 4;
        return;
    }
    if (v === null) {
      total += 4;
      return;
    }
    const proto: unknown = Object.getPrototypeOf(v);
    if (Array.isArray(v) && proto === Array.prototype) {
      total += 2 + v.length;
      for (let i = 0; i < v.length && total <= limit; i++) visit(v[i]);
      return;
    }
    if (proto !== Object.prototype || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      total = Infinity;
      return;
    }
    total += 2;
    const obj = v as Record<string, unknown>;
    // Quotes, colon and comma around each key.
    for (const k in obj) {
      if (total > limit) return;
      total += 4 + 6 * k.length;
      visit(obj[k]);
    }
  };
  visit(value);
  return total;
}
