/**
 * strconv.Atoi as JSON Patch uses it for array indices: an optional sign and decimal digits,
 * within int64, with Go's error texts ("strconv.Atoi: parsing \"x\": invalid syntax").
 */
import { goQuote } from '../../api/gofmt';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export type AtoiResult = { ok: true; value: number } | { ok: false; error: string };

export function goAtoi(s: string): AtoiResult {
  if (!/^[+-]?[0-9]+$/.test(s)) return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax` };
  const big = BigInt(s);
  if (big > INT64_MAX || big < INT64_MIN) return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: value out of range` };
  return { ok: true, value: Number(big) };
}
