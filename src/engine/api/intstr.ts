/**
 * intstr.IntOrString (k8s.io/apimachinery/pkg/util/intstr): in the wire format it is simply a
 * JSON number or string, so here it is `number | string`. Scaling percentages against a total
 * (maxSurge, maxUnavailable, PodDisruptionBudget) must round exactly as upstream does.
 */
import { goQuote } from './gofmt';
import { fail, ok, type Result } from './result';
import { atoi } from './strconv';

export { atoi };

export type IntOrString = number | string;

export function isIntOrString(v: unknown): v is IntOrString {
  return typeof v === 'number' || typeof v === 'string';
}


/** IntValue(): a string holds a number (parse failures read as 0). */
export function intValue(v: IntOrString): number {
  if (typeof v === 'number') return v;
  const n = atoi(v);
  return n.ok ? n.value : 0;
}

/**
 * GetScaledValueFromIntOrPercent: an integer as is, or "N%" of total rounded up or down.
 * A string without "%" is an error (unlike the deprecated GetValueFromIntOrPercent).
 */
export function getScaledValueFromIntOrPercent(v: IntOrString | undefined, total: number, roundUp: boolean): Result<number> {
  if (v === undefined) return fail('nil value for IntOrString');
  if (typeof v === 'number') return ok(v);
  if (!v.endsWith('%')) return fail('invalid value for IntOrString: invalid type: string is not a percentage');
  const n = atoi(v.slice(0, -1));
  if (!n.ok) return fail(`invalid value for IntOrString: invalid value ${goQuote(v)}: ${n.error}`);
  const scaled = (n.value * total) / 100;
  return ok(roundUp ? Math.ceil(scaled) : Math.floor(scaled));
}
