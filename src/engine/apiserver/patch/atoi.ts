/**
 * strconv.Atoi as JSON Patch uses it for array indices: an optional sign and decimal digits,
 * within int64, with Go's error texts ("strconv.Atoi: parsing \"x\": invalid syntax").
 */
import { goQuote } from '../../api/gofmt';
import { fail, ok, type Result } from '../../api/result';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export function goAtoi(s: string): Result<number> {
  if (!/^[+-]?[0-9]+$/.test(s)) return fail(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const big = BigInt(s);
  if (big > INT64_MAX || big < INT64_MIN) return fail(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return ok(Number(big));
}
