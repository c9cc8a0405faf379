/**
 * Quantities as they appear in v1 JSON: a string, or a bare number that the decoder reads as
 * its text. Values that do not parse are rejected by upstream's decoder before validation;
 * here the rules report them at their field with the decoder's message.
 */
import { invalid, type FieldError, type Path } from '../../../api/field';
import { parseQuantity as parseText, Quantity } from '../../../api/quantity';
import type { Result } from '../../../api/result';

export { Quantity };

function parsed(v: unknown): Result<Quantity> | undefined {
  if (typeof v === 'string') return parseText(v);
  if (typeof v === 'number') return parseText(String(v));
  return undefined;
}

/** The quantity, or undefined when absent or malformed. */
export function parseQuantity(v: unknown): Quantity | undefined {
  const q = parsed(v);
  return q?.ok ? q.value : undefined;
}

/** The decoder's complaint about a malformed quantity, as a field error. */
export function quantitySyntaxError(v: unknown, fldPath: Path): FieldError | undefined {
  const q = parsed(v);
  if (q && !q.ok) return invalid(fldPath, v, q.error);
  if (q === undefined && v !== undefined && v !== null) return invalid(fldPath, v, 'quantities must be a string or a number');
  return undefined;
}

/** A zero quantity, as Go's zero value of resource.Quantity. */
export const zeroQuantity = Quantity.fromInt(0);
