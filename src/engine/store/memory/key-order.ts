import { compareBytes, compareUnits, hasHighUnit } from '../keys';
import type { KeyCompare } from './btree';

/**
 * The comparison behind the key index. Native code-unit comparison is much faster than a
 * byte-exact one and agrees with it unless both keys hold units >= U+D800, so the index compares
 * natively until the first such key is admitted. Switching then keeps the tree sorted: keys
 * without those units order the same way under both comparisons.
 */
export class KeyOrder {
  private exact = false;

  readonly compare: KeyCompare = (a, b) => (this.exact ? compareBytes(a, b) : compareUnits(a, b));

  /** Called for every key that enters the index. */
  admit(key: string): void {
    if (!this.exact && hasHighUnit(key)) this.exact = true;
  }
}
