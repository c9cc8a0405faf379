/**
 * Quantities as they appear in v1 JSON: a string, or a bare number that the decoder reads as
 * its text. Values that do not parse are rejected by upstream's decoder before validation;
 * here the rules report them at their field with the decoder's message.
 */
import { invalid, type FieldError, type Path } from '../../../api/field';
import { parseQuantity as parseText, Quantity, QuantityParseError } from '../../../api/quantity';

export { Quantity };

function parsed(v: unknown): Quantity | QuantityParseError | undefined {
  if (typeof v === 'string') return parseText(v);
  if (typeof v === 'number') return parseText(String(v));
  return undefined;
}

/** The quantity, or undefined when absent or malformed. */
export function parseQuantity(v: unknown): Quantity | undefined {
  const q = parsed(v);
  return q instanceof Quantity ? q : undefined;
}

/** The decoder's complaint about a malformed quantity, as a field error. */
export function quantitySyntaxError(v: unknown, fldPath: Path): FieldError | undefined {
  const q = parsed(v);
  if (q instanceof QuantityParseError) return invalid(fldPath, v, q.message);
  if (q === undefined && v !== undefined && v !== null) return invalid(fldPath, v, 'quantities must be a string or a number');
  return undefined;
}

/** A zero quantity, as Go's zero value of resource.Quantity. */
export const zeroQuantity = Quantity.fromInt(0);
