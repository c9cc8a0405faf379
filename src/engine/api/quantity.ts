/**
 * resource.Quantity (k8s.io/apimachinery/pkg/api/resource, release-1.35): parsing with
 * upstream's errors and rounding, the canonical string the API server writes back, comparison
 * and arithmetic. A quantity is the exact decimal `unscaled * 10^exponent`, kept in bigint.
 *
 * Upstream keeps small values as int64 and large or fractional ones as inf.Dec; the two paths
 * round negative values differently in Value()/MilliValue(), so which path a value took is
 * remembered (`big`). A parsed string that is already canonical is kept verbatim, as
 * upstream caches it, which is why "1e3" reads back as "1e3" and "1000m" as "1000m".
 */

import { fail, ok, type Ok, type Result } from './result';

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

const splitREString = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

export const errFormatWrong = `quantities must match the regular expression '${splitREString}'`;
export const errSuffix = "unable to parse quantity's suffix";

const maxInt64 = (1n << 63n) - 1n;
const minInt64 = -(1n << 63n);
const nanoExponent = -9;
/** Beyond this many digits of exponent gap, arithmetic keeps only the dominant operand. */
const maxAlignment = 100000;

/** The powers of ten quantities meet every day, made once (a BigInt never changes). */
const POWERS_OF_TEN = Array.from({ length: 64 }, (_, n) => 10n ** BigInt(n));
const pow10 = (n: number): bigint => POWERS_OF_TEN[n] ?? 10n ** BigInt(n);
const abs = (v: bigint): bigint => (v < 0n ? -v : v);
/** The decimal digits of v, without writing it out when it is below 10^63. */
function digitCount(v: bigint): number {
  if (v === 0n) return 0;
  const a = abs(v);
  for (let n = 1; n < POWERS_OF_TEN.length; n++) if (a < POWERS_OF_TEN[n]!) return n;
  return a.toString().length;
}

export class Quantity {
  private written: string | undefined;

  private constructor(
    /** value = unscaled * 10^exponent */
    private readonly unscaled: bigint,
    private readonly exponent: number,
    readonly format: QuantityFormat,
    /** The verbatim input when upstream caches it; empty otherwise. */
    private readonly cached: string,
    /** Whether upstream holds the value as inf.Dec rather than int64. */
    private readonly big: boolean,
  ) {}

  static fromInt(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return Quantity.scaled(BigInt(value), 0, format);
  }

  static fromMilli(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return Quantity.scaled(BigInt(value), -3, format);
  }

  static scaled(unscaled: bigint, exponent: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(unscaled, exponent, format, '', unscaled > maxInt64 || unscaled < minInt64);
  }

  /** A parse result; `cached` is the input text when it is already canonical. */
  static parsed(unscaled: bigint, exponent: number, format: QuantityFormat, cached: string, big: boolean): Quantity {
    return new Quantity(unscaled, exponent, format, cached, big);
  }

  sign(): number {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  cmp(y: Quantity): number {
    const sa = this.sign();
    const sb = y.sign();
    if (sa !== sb) return sa < sb ? -1 : 1;
    if (sa === 0) return 0;
    // Compare orders of magnitude first so that far-apart exponents never get expanded.
    const ma = digitCount(this.unscaled) + this.exponent;
    const mb = digitCount(y.unscaled) + y.exponent;
    if (ma !== mb) return (ma > mb ? 1 : -1) * sa;
    const e = Math.min(this.exponent, y.exponent);
    const a = this.unscaled * pow10(this.exponent - e);
    const b = y.unscaled * pow10(y.exponent - e);
    return a === b ? 0 : a > b ? 1 : -1;
  }

  equal(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  add(y: Quantity): Quantity {
    return this.combine(y, 1n);
  }

  sub(y: Quantity): Quantity {
    return this.combine(y, -1n);
  }

  private combine(y: Quantity, ySign: bigint): Quantity {
    // Adding to zero adopts the other operand's format (upstream keeps suffixes this way).
    const format = this.isZero() ? y.format : this.format;
    const gap = Math.abs(this.exponent - y.exponent);
    if (gap > maxAlignment && !this.isZero() && !y.isZero()) {
      const dominant = this.cmp(y) * this.sign() >= 0 ? this : y;
      const unscaled = dominant === this ? this.unscaled : ySign * y.unscaled;
      return new Quantity(unscaled, dominant.exponent, format, '', true);
    }
    const e = Math.min(this.exponent, y.exponent);
    const sum = this.unscaled * pow10(this.exponent - e) + ySign * y.unscaled * pow10(y.exponent - e);
    return new Quantity(sum, e, format, '', this.big || y.big || sum > maxInt64 || sum < minInt64);
  }

  neg(): Quantity {
    return new Quantity(-this.unscaled, this.exponent, this.format, '', this.big);
  }

  /**
   * RoundUp(scale): the value rounded away from zero to whole units of 10^scale. A value already
   * that coarse is returned as is (keeping its text); otherwise the text is recomputed, as
   * upstream clears its cached string (so defaulting turns "100u" into "1m").
   */
  roundUp(scale: number): Quantity {
    if (this.exponent >= scale) return this;
    const divisor = pow10(scale - this.exponent);
    const truncated = this.unscaled / divisor;
    const rounded = this.unscaled % divisor === 0n ? truncated : truncated + BigInt(this.sign());
    return new Quantity(rounded, scale, this.format, '', this.big);
  }

  /** Value(): the integer value, rounded up. */
  value(): number {
    return this.scaledValue(0);
  }

  /** MilliValue(): the value in thousandths, rounded up. */
  milliValue(): number {
    return this.scaledValue(-3);
  }

  /** ScaledValue(scale): the value in units of 10^scale, rounded up, saturated to int64. */
  scaledValue(scale: number): number {
    const dif = scale - this.exponent;
    if (dif <= 0) {
      if (digitCount(this.unscaled) - dif > 19) return this.sign() > 0 ? Number(maxInt64) : this.sign() < 0 ? Number(minInt64) : 0;
      return Number(this.unscaled * pow10(-dif));
    }
    if (dif > digitCount(this.unscaled) + 1) {
      // Less than one unit, without expanding 10^dif.
      if (this.unscaled === 0n) return 0;
      if (!this.big) return this.sign();
      return Number(bigRoundUp(this.unscaled, dif, 0n));
    }
    const divisor = pow10(dif);
    const inexact = this.unscaled % divisor !== 0n;
    const truncated = this.unscaled / divisor;
    if (!inexact) return Number(truncated);
    if (!this.big) return Number(this.unscaled > 0n ? truncated + 1n : truncated - 1n);
    return Number(bigRoundUp(this.unscaled, dif, truncated));
  }

  /** AsApproximateFloat64. */
  asApproximateFloat64(): number {
    return Number(this.unscaled) * Math.pow(10, this.exponent);
  }

  /** The canonical form kube-apiserver serializes. */
  toString(): string {
    if (this.cached) return this.cached;
    // Written once: parsed quantities are shared (see parseQuantity) and serialized on every write.
    return (this.written ??= this.canonicalText());
  }

  private canonicalText(): string {
    if (this.unscaled === 0n) return '0';
    let format = this.format;
    if (format === 'BinarySI') {
      if (this.cmp(MINUS_1024) > 0 && this.cmp(PLUS_1024) < 0) format = 'DecimalSI';
      else if (this.exponent < 0 && this.unscaled % pow10(-this.exponent) !== 0n) format = 'DecimalSI';
      else return binaryString(this.exponent >= 0 ? this.unscaled * pow10(this.exponent) : this.unscaled / pow10(-this.exponent));
    }
    let amount = this.unscaled;
    let exponent = this.exponent;
    while (amount % 10n === 0n) {
      amount /= 10n;
      exponent++;
    }
    while (exponent % 3 !== 0) {
      amount *= 10n;
      exponent--;
    }
    const suffix = format === 'DecimalExponent' ? (exponent === 0 ? '' : `e${exponent}`) : (decimalSuffixes.get(exponent) ?? '');
    return amount.toString() + suffix;
  }

  toJSON(): string {
    return this.toString();
  }
}

const MINUS_1024 = Quantity.fromInt(-1024);
const PLUS_1024 = Quantity.fromInt(1024);

/**
 * inf.Dec's ScaledValue (called only when inexact) adds one to the quotient. Its fast path truncates (so -9.01
 * becomes -8), its slow path for large divisors floors (so a tiny negative value becomes 0).
 */
function bigRoundUp(unscaled: bigint, dif: number, truncated: bigint): bigint {
  if (dif < 19 && unscaled < maxInt64) return truncated + 1n;
  return unscaled < 0n ? truncated : truncated + 1n;
}

const binarySuffixes = new Map<number, string>([
  [10, 'Ki'],
  [20, 'Mi'],
  [30, 'Gi'],
  [40, 'Ti'],
  [50, 'Pi'],
  [60, 'Ei'],
]);

// Exponents without a suffix print bare digits, as upstream does (so "1000E" reads back as "1").
const decimalSuffixes = new Map<number, string>([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);

function binaryString(value: bigint): string {
  let amount = value;
  let exponent = 0;
  while (amount % 1024n === 0n) {
    amount /= 1024n;
    exponent += 10;
  }
  return amount.toString() + (binarySuffixes.get(exponent) ?? '');
}

interface SuffixMeaning {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

const suffixTable: Record<string, SuffixMeaning> = {
  '': { base: 10, exponent: 0, format: 'DecimalSI' },
  n: { base: 10, exponent: -9, format: 'DecimalSI' },
  u: { base: 10, exponent: -6, format: 'DecimalSI' },
  m: { base: 10, exponent: -3, format: 'DecimalSI' },
  k: { base: 10, exponent: 3, format: 'DecimalSI' },
  M: { base: 10, exponent: 6, format: 'DecimalSI' },
  G: { base: 10, exponent: 9, format: 'DecimalSI' },
  T: { base: 10, exponent: 12, format: 'DecimalSI' },
  P: { base: 10, exponent: 15, format: 'DecimalSI' },
  E: { base: 10, exponent: 18, format: 'DecimalSI' },
  Ki: { base: 2, exponent: 10, format: 'BinarySI' },
  Mi: { base: 2, exponent: 20, format: 'BinarySI' },
  Gi: { base: 2, exponent: 30, format: 'BinarySI' },
  Ti: { base: 2, exponent: 40, format: 'BinarySI' },
  Pi: { base: 2, exponent: 50, format: 'BinarySI' },
  Ei: { base: 2, exponent: 60, format: 'BinarySI' },
};

function interpretSuffix(s: string): SuffixMeaning | undefined {
  const known = Object.hasOwn(suffixTable, s) ? suffixTable[s] : undefined;
  if (known) return known;
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    // strconv.ParseInt: optional sign, decimal digits, within int64; then truncated to int32.
    if (!/^[+-]?[0-9]+$/.test(s.slice(1))) return undefined;
    const parsed = BigInt(s.slice(1));
    if (parsed > maxInt64 || parsed < minInt64) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

interface QuantityParts {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Splits sign, integer digits (leading zeros dropped), fraction digits and suffix. */
function splitQuantity(str: string): QuantityParts | undefined {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    const denomStart = ++pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return undefined;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/**
 * Quantities parsed before, by their text: every pod repeats the same few ("100m", "128Mi"),
 * and a Quantity never changes. Bounded: emptied when full.
 */
const parsedQuantities = new Map<string, Ok<Quantity>>();
const PARSED_QUANTITIES_MAX = 4096;

/** ParseQuantity: the quantity, or the error text kube-apiserver reports. */
export function parseQuantity(str: string): Result<Quantity> {
  const known = parsedQuantities.get(str);
  if (known) return known;
  const q = parseText(str);
  if (q.ok) {
    if (parsedQuantities.size >= PARSED_QUANTITIES_MAX) parsedQuantities.clear();
    parsedQuantities.set(str, q);
  }
  return q;
}

/** The quantity a text parses to, or undefined when it does not parse. */
export function quantityOrUndefined(str: string): Quantity | undefined {
  const q = parseQuantity(str);
  return q.ok ? q.value : undefined;
}

function parseText(str: string): Result<Quantity> {
  if (str.length === 0) return fail(errFormatWrong);
  if (str === '0') return ok(Quantity.parsed(0n, 0, 'DecimalSI', '0', false));
  const parts = splitQuantity(str);
  if (!parts) return fail(errFormatWrong);
  const meaning = interpretSuffix(parts.suffix);
  if (!meaning) return fail(errSuffix);
  const { positive, num, denom } = parts;
  let { format } = meaning;

  // The int64 fast path: taken when the digits surely fit; its result may keep the input text.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (denom.length === 0) {
      mantissa = 1n << BigInt(meaning.exponent);
      precision = 15 - num.length - Math.trunc((meaning.exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = meaning.exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= nanoExponent) {
      const shifted = num + denom;
      const value = BigInt(shifted);
      const result = value * mantissa;
      if (result <= maxInt64) {
        const signed = positive ? result : -result;
        const keep =
          format === 'BinarySI'
            ? meaning.exponent % 10 === 0 && (value & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return ok(Quantity.parsed(signed, scale, format, keep ? str : '', false));
      }
    }
  }

  let unscaled = BigInt(num + denom);
  let exponent = -denom.length;
  if (meaning.base === 10) exponent += meaning.exponent;
  else unscaled *= 1n << BigInt(meaning.exponent);
  if (unscaled !== 0n && exponent < nanoExponent) {
    // Round up (away from zero) to whole nano units.
    const divisor = pow10(nanoExponent - exponent);
    const rounded = unscaled / divisor + (unscaled % divisor === 0n ? 0n : 1n);
    unscaled = rounded;
    exponent = nanoExponent;
  }
  if (format === 'BinarySI') {
    const q = Quantity.scaled(unscaled, exponent);
    if (q.cmp(Quantity.fromInt(maxInt64)) > 0) {
      unscaled = maxInt64;
      exponent = 0;
    } else if (q.sign() > 0 && q.cmp(Quantity.fromInt(1)) < 0) {
      format = 'DecimalSI';
    }
  }
  return ok(Quantity.parsed(positive ? unscaled : -unscaled, exponent, format, '', true));
}

/** For constants and tests: parse or throw. */
export function mustParseQuantity(str: string): Quantity {
  const q = parseQuantity(str);
  if (!q.ok) throw new Error(`cannot parse '${str}': ${q.error}`);
  return q.value;
}
