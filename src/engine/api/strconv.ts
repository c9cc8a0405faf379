/**
 * strconv.Atoi as upstream's Go code calls it (IntOrString percentages, JSON Patch array
 * indices, managed fields' list indexes, cron fields, Job completion indexes): an optional sign
 * and decimal digits within int64, or Go's error text ("strconv.Atoi: parsing \"x\": invalid
 * syntax").
 */
import { goQuote } from './gofmt';
import { fail, ok, type Result } from './result';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export function atoi(s: string): Result<number> {
  if (!/^[+-]?[0-9]+$/.test(s)) return fail(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const big = BigInt(s);
  if (big > INT64_MAX || big < INT64_MIN) return fail(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return ok(Number(big));
}
