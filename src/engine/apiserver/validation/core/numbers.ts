/** Numeric range checks shared across kinds. */
import { invalid, type ErrorList, type Path } from '../../../api/field';
import { zeroQuantity, type Quantity } from './quantity';

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
export const isNotPositiveErrorMsg = 'must be greater than zero';
export const isNotIntegerErrorMsg = 'must be an integer';

export function validateNonnegativeField(value: number, fldPath: Path): ErrorList {
  return value < 0 ? [invalid(fldPath, value, isNegativeErrorMsg).withOrigin('minimum')] : [];
}

export function validateNonnegativeQuantity(q: Quantity, fldPath: Path): ErrorList {
  return q.cmp(zeroQuantity) < 0 ? [invalid(fldPath, q.toString(), isNegativeErrorMsg)] : [];
}

export function validatePositiveQuantityValue(q: Quantity, fldPath: Path): ErrorList {
  return q.cmp(zeroQuantity) <= 0 ? [invalid(fldPath, q.toString(), isNotPositiveErrorMsg)] : [];
}
