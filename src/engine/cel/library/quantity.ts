/** Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go). */
import type { Environment } from '@marcbachmann/cel-js';
import { parseQuantity, Quantity } from '../../api/quantity';
import { celError } from '../values';
import { table } from '../../api/own';

/** A resource.Quantity as a CEL value (kubernetes.Quantity). */
export class CelQuantity {
  constructor(readonly q: Quantity) {}
  compareTo(o: CelQuantity): number {
    return this.q.cmp(o.q);
  }
  toString(): string {
    return this.q.toString();
  }
}

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** The quantity's exact value as an integer, when it has one within int64. */
function exactInteger(q: Quantity): bigint | undefined {
  const { unscaled, exponent } = q as unknown as { unscaled: bigint; exponent: number };
  let v: bigint;
  if (exponent >= 0) v = unscaled * 10n ** BigInt(exponent);
  else {
    const d = 10n ** BigInt(-exponent);
    if (unscaled % d !== 0n) return undefined;
    v = unscaled / d;
  }
  return v > MAX_INT64 || v < MIN_INT64 ? undefined : v;
}

function parse(s: string): CelQuantity {
  const q = parseQuantity(s);
  if (!q.ok) throw celError(q.error);
  return new CelQuantity(q.value);
}

export function registerQuantity(env: Environment): void {
  env
    .registerType('kubernetes.Quantity', CelQuantity)
    .registerFunction('quantity(string): kubernetes.Quantity', parse)
    .registerFunction('isQuantity(string): bool', (s: string) => parseQuantity(s).ok)
    .registerFunction('kubernetes.Quantity.sign(): int', (a: CelQuantity) => BigInt(a.q.sign()))
    .registerFunction('kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: CelQuantity, b: CelQuantity) => a.q.cmp(b.q) > 0)
    .registerFunction('kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: CelQuantity, b: CelQuantity) => a.q.cmp(b.q) < 0)
    .registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: CelQuantity, b: CelQuantity) => BigInt(a.q.cmp(b.q)))
    .registerFunction('kubernetes.Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(a.q.toString().replace(/[a-zA-Z]+$/, '')) * suffixFactor(a.q.toString()))
    .registerFunction('kubernetes.Quantity.asInteger(): int', (a: CelQuantity) => {
      const v = exactInteger(a.q);
      if (v === undefined) throw celError('cannot convert value to integer');
      return v;
    })
    .registerFunction('kubernetes.Quantity.isInteger(): bool', (a: CelQuantity) => exactInteger(a.q) !== undefined)
    .registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(a.q.add(b.q)))
    .registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) => new CelQuantity(a.q.add(Quantity.fromInt(b))))
    .registerFunction('kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(a.q.sub(b.q)))
    .registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) => new CelQuantity(a.q.sub(Quantity.fromInt(b))));
}

const SUFFIXES = table<number>({
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5, Ei: 1024 ** 6,
});

function suffixFactor(s: string): number {
  const m = /([a-zA-Z]+)$/.exec(s);
  if (!m) return 1;
  if (/^[eE]/.test(m[1]!) && /[eE][-+]?\d+$/.test(s)) return 1;
  return SUFFIXES[m[1]!] ?? 1;
}
