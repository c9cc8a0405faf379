/**
 * intstr.IntOrString (k8s.io/apimachinery/pkg/util/intstr): in the wire format it is simply a
 * JSON number or string, so here it is `number | string`. Scaling percentages against a total
 * (maxSurge, maxUnavailable, PodDisruptionBudget) must round exactly as upstream does.
 */
import { goQuote } from './gofmt';

export type IntOrString = number | string;

export function isIntOrString(v: unknown): v is IntOrString {
  return typeof v === 'number' || typeof v === 'string';
}

export class IntOrStringError extends Error {}

const maxInt64 = 2n ** 63n - 1n;
const minInt64 = -(2n ** 63n);

/** strconv.Atoi: an optional sign and decimal digits within int64, or Go's error text. */
export function atoi(s: string): number | IntOrStringError {
  if (!/^[+-]?[0-9]+$/.test(s)) return new IntOrStringError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > maxInt64 || n < minInt64) return new IntOrStringError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

/** IntValue(): a string holds a number (parse failures read as 0). */
export function intValue(v: IntOrString): number {
  if (typeof v === 'number') return v;
  const n = atoi(v);
  return n instanceof IntOrStringError ? 0 : n;
}

/**
 * GetScaledValueFromIntOrPercent: an integer as is, or "N%" of total rounded up or down.
 * A string without "%" is an error (unlike the deprecated GetValueFromIntOrPercent).
 */
export function getScaledValueFromIntOrPercent(v: IntOrString | undefined, total: number, roundUp: boolean): number | IntOrStringError {
  if (v === undefined) return new IntOrStringError('nil value for IntOrString');
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) return new IntOrStringError('invalid value for IntOrString: invalid type: string is not a percentage');
  const n = atoi(v.slice(0, -1));
  if (n instanceof IntOrStringError) return new IntOrStringError(`invalid value for IntOrString: invalid value ${goQuote(v)}: ${n.message}`);
  const scaled = (n * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
