/**
 * Go durations, in the one home for their grammars. Each face says which upstream parser it is
 * and how its grammar differs from Go's time.ParseDuration:
 * - parseGoDuration: time.ParseDuration itself (a sign, "0", ns us µs μs ms s m h), nanoseconds;
 *   robfig/cron's "@every" reads its durations with it (the CronJob validation and controller).
 * - parseMetaDuration: metav1.Duration's JSON, a string time.ParseDuration reads; milliseconds
 *   on the virtual clock (a PodMetrics window).
 * - parseVirtualDuration: kubesim's own duration texts, the kubelet's behavior annotations
 *   ("crash-after=1m30s") and the CLI's virtual-time flags (--until 90s, stop:leader@20s):
 *   time.ParseDuration without a sign or units below a millisecond; milliseconds.
 * - parseOpenAPIDuration: kube-openapi's strfmt.ParseDuration, the CRD schema format
 *   "duration" (and so the CEL value of such a field): time.ParseDuration, else the Scala-like
 *   form ("3 days", "1h 30 min"); nanoseconds.
 * And formatGoDuration, time.Duration.String, for the texts that print durations ("Successfully
 * pulled image ... in 1.2s", "back-off 5m0s restarting failed container").
 */

import { table, type Dict } from './own';
import { fail, ok, type Result } from './result';

/** time.Duration.String for a duration of whole milliseconds: "0s", "250ms", "1.5s", "5m0s", "1h2m3s". */
export function formatGoDuration(ms: number): string {
  const total = Math.trunc(ms);
  if (total === 0) return '0s';
  const sign = total < 0 ? '-' : '';
  let rest = Math.abs(total);
  if (rest < 1000) return `${sign}${rest}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const whole = Math.floor(rest / 1000);
  const frac = rest % 1000;
  const seconds = frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  let out = sign;
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  return `${out}${seconds}s`;
}

/** Which signs and units a time.ParseDuration face reads. */
interface DurationGrammar {
  readonly signed: boolean;
  /** Unit -> nanoseconds. */
  readonly units: Readonly<Dict<bigint>>;
}

const MS = 1_000_000n;
/** time's unitMap: µ is U+00B5 (micro sign), μ U+03BC (Greek mu). */
const GO: DurationGrammar = {
  signed: true,
  units: table<bigint>({ ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: MS, s: 1000n * MS, m: 60_000n * MS, h: 3_600_000n * MS }),
};
const VIRTUAL: DurationGrammar = { signed: false, units: table<bigint>({ ms: MS, s: 1000n * MS, m: 60_000n * MS, h: 3_600_000n * MS }) };

const MAX = 1n << 63n;
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const HEX = '0123456789abcdef';

/** time's quote: strconv.Quote's form for ASCII, but a non-ASCII or control byte as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${HEX[b >> 4]}${HEX[b & 0xf]}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

function parse(orig: string, grammar: DurationGrammar): Result<bigint> {
  const invalid = fail(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (grammar.signed && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return ok(0n);
  if (s === '') return invalid;
  let d = 0n;
  let i = 0;
  while (i < s.length) {
    if (s[i] !== '.' && !isDigit(s[i])) return invalid;
    // The integer part (leadingInt: an overflow is an invalid duration).
    const intStart = i;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      if (v > MAX / 10n) return invalid;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > MAX) return invalid;
    }
    const pre = i > intStart;
    // The fraction (leadingFraction: digits past what fits are read and dropped).
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      let overflow = false;
      for (; isDigit(s[i]); i++) {
        if (overflow) continue;
        if (f > (MAX - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
        if (y > MAX) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = i > fracStart;
    }
    if (!pre && !post) return invalid;
    // The unit: everything up to the next digit or '.'.
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s[i])) i++;
    if (i === unitStart) return fail(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(unitStart, i);
    const unit = grammar.units[u];
    if (unit === undefined) return fail(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > MAX / unit) return invalid;
    v *= unit;
    // float64, as Go computes the fraction's nanoseconds.
    if (f > 0n) v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
    if (v > MAX) return invalid;
    d += v;
    if (d > MAX) return invalid;
  }
  if (neg) return ok(-d);
  if (d > MAX - 1n) return invalid;
  return ok(d);
}

const toMs = (ns: Result<bigint>): Result<number> => (ns.ok ? ok(Math.round(Number(ns.value) / 1e6)) : ns);

/** time.ParseDuration: nanoseconds, or Go's error ("time: invalid duration", "missing unit", "unknown unit"). */
export function parseGoDuration(text: string): Result<bigint> {
  return parse(text, GO);
}

/** metav1.Duration's UnmarshalJSON (time.ParseDuration of the string), in whole virtual milliseconds (rounded). */
export function parseMetaDuration(text: string): Result<number> {
  return toMs(parse(text, GO));
}

/**
 * kubesim's own duration texts (behavior annotations, CLI flags): time.ParseDuration's grammar
 * without a sign ("-5s" is an invalid duration) or units below a millisecond ("1us" is an
 * unknown unit), in whole virtual milliseconds (rounded).
 */
export function parseVirtualDuration(text: string): Result<number> {
  return toMs(parse(text, VIRTUAL));
}

/** strfmt's Scala-like units: the last spelling of each matches as a prefix ("hours", "mins"), the others exactly. */
const OPENAPI_UNITS: readonly (readonly [bigint, readonly string[]])[] = [
  [1n, ['ns', 'nano']],
  [1_000n, ['us', 'µs', 'micro']],
  [MS, ['ms', 'milli']],
  [1000n * MS, ['s', 'sec']],
  [60_000n * MS, ['m', 'min']],
  [3_600_000n * MS, ['h', 'hr', 'hour']],
  [86_400_000n * MS, ['d', 'day']],
  [604_800_000n * MS, ['w', 'wk', 'week']],
];
/** Go's regexp \s is [\t\n\f\r ]; \d is ASCII. */
const OPENAPI_FORM = /^[\t\n\f\r ]*(?:\d+[\t\n\f\r ]*[A-Za-zµ]+[\t\n\f\r ]*)+$/;
const OPENAPI_PART = /(\d+)[\t\n\f\r ]*([A-Za-zµ]+)/g;
const int64 = (n: bigint): bigint => BigInt.asIntN(64, n);

/** kube-openapi strfmt.ParseDuration: nanoseconds, or its error ("unable to parse 1 fortnight as duration"). */
export function parseOpenAPIDuration(text: string): Result<bigint> {
  const go = parse(text, GO);
  if (go.ok) return go;
  const unable = fail(`unable to parse ${text} as duration`);
  if (!OPENAPI_FORM.test(text)) return unable;
  let dur = 0n;
  let matched = false;
  for (const [, digits, unitText] of text.matchAll(OPENAPI_PART)) {
    const factor = BigInt(digits!);
    if (factor > MAX - 1n) return fail(`strconv.Atoi: parsing ${timeQuote(digits!)}: value out of range`);
    const unit = unitText!.toLowerCase();
    for (const [multiplier, variants] of OPENAPI_UNITS) {
      variants.forEach((variant, i) => {
        if ((i === variants.length - 1 && unit.startsWith(variant)) || variant === unit) {
          matched = true;
          dur = int64(dur + int64(factor * multiplier));
        }
      });
    }
  }
  return matched ? ok(dur) : unable;
}
