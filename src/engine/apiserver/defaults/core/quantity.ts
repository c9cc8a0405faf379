/**
 * The parts of resource.Quantity that defaulting needs: parsing, exact sums and maxima, rounding
 * up to a scale, and the canonical text kube-apiserver writes back ("0.5" -> "500m",
 * "1024Mi" -> "1Gi"). Values are exact decimals (mantissa x 10^exponent), like Go's inf.Dec path.
 */

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export interface Quantity {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const maxAllowed = 9223372036854775807n;
const nanoExponent = -9;

const numberPattern = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/;

/** ParseQuantity; undefined where kube-apiserver's decoder would reject the text. */
export function parseQuantity(text: string): Quantity | undefined {
  const m = numberPattern.exec(text);
  if (!m) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let mantissa = BigInt(whole + fraction || '0');
  let exponent = -fraction.length;
  let format: QuantityFormat;
  const decimal = decimalSuffixes[suffix];
  const binary = binarySuffixes[suffix];
  if (decimal !== undefined) {
    format = 'DecimalSI';
    exponent += decimal;
  } else if (binary !== undefined) {
    format = 'BinarySI';
    mantissa *= 1n << BigInt(binary);
  } else if (/^[eE][+-]?\d+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent += Number(suffix.slice(1));
  } else {
    return undefined;
  }
  // Anything non-zero below a nano rounds up to a nano; the magnitude is capped at int64.
  let q = roundUp({ mantissa, exponent, format }, nanoExponent);
  if (compareMagnitude(q, maxAllowed) > 0) q = { mantissa: maxAllowed, exponent: 0, format };
  return sign === '-' ? { ...q, mantissa: -q.mantissa } : q;
}

/** Rounds away from zero to a multiple of 10^scale (Quantity.RoundUp). */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.exponent >= scale) return q;
  const divisor = 10n ** BigInt(scale - q.exponent);
  const negative = q.mantissa < 0n;
  const abs = negative ? -q.mantissa : q.mantissa;
  let scaled = abs / divisor;
  if (scaled * divisor !== abs) scaled += 1n;
  return { mantissa: negative ? -scaled : scaled, exponent: scale, format: q.format };
}

function aligned(a: Quantity, b: Quantity): [bigint, bigint, number] {
  const e = Math.min(a.exponent, b.exponent);
  return [a.mantissa * 10n ** BigInt(a.exponent - e), b.mantissa * 10n ** BigInt(b.exponent - e), e];
}

/** a + b, keeping a's format unless a is zero (Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const [x, y, exponent] = aligned(a, b);
  return { mantissa: x + y, exponent, format: a.mantissa === 0n ? b.format : a.format };
}

export function compareQuantities(a: Quantity, b: Quantity): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareMagnitude(q: Quantity, n: bigint): number {
  const abs = q.mantissa < 0n ? -q.mantissa : q.mantissa;
  return compareQuantities({ ...q, mantissa: abs }, { mantissa: n, exponent: 0, format: q.format });
}

/** The canonical text Go marshals a Quantity as. */
export function formatQuantity(q: Quantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    if (compareMagnitude(q, 1024n) < 0) format = 'DecimalSI';
    else {
      const integer = asInteger(q);
      if (integer === undefined) format = 'DecimalSI';
      else return formatBase1024(integer);
    }
  }
  let mantissa = q.mantissa;
  let exponent = q.exponent;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  return `${mantissa}${decimalSuffix(exponent, format)}`;
}

function decimalSuffix(exponent: number, format: QuantityFormat): string {
  if (format === 'DecimalExponent') return exponent === 0 ? '' : `e${exponent}`;
  for (const [suffix, e] of Object.entries(decimalSuffixes)) if (e === exponent) return suffix;
  return `e${exponent}`;
}

function asInteger(q: Quantity): bigint | undefined {
  if (q.exponent >= 0) return q.mantissa * 10n ** BigInt(q.exponent);
  const divisor = 10n ** BigInt(-q.exponent);
  return q.mantissa % divisor === 0n ? q.mantissa / divisor : undefined;
}

function formatBase1024(value: bigint): string {
  const negative = value < 0n;
  let abs = negative ? -value : value;
  let power = 0;
  while (abs >= 1024n && abs % 1024n === 0n) {
    abs /= 1024n;
    power += 10;
  }
  const suffix = Object.entries(binarySuffixes).find(([, p]) => p === power)?.[0] ?? '';
  return `${negative ? '-' : ''}${abs}${suffix}`;
}

/** A quantity field's JSON value (a string, or a bare number as Go's decoder also accepts). */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v === 'string') return parseQuantity(v.trim());
  if (typeof v === 'number' && Number.isFinite(v)) return parseQuantity(String(v));
  return undefined;
}
