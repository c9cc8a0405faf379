/**
 * Go's time.Parse for the two layouts metav1.Time and metav1.MicroTime use, with its error
 * texts: `parsing time "2024-13-01T00:00:00Z": month out of range`, `parsing time "yesterday" as
 * "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`. Parsed times are rendered
 * the way they marshal back: UTC, seconds (Time) or microseconds (MicroTime).
 */
import { fail, ok, type Fail, type Result } from '../../api/result';

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone';

type Chunk = readonly [prefix: string, std: Std, stdstr: string];

/** Date and time down to the seconds, which both layouts begin with. */
const DATE_TIME: readonly Chunk[] = [
  ['', 'year', '2006'],
  ['-', 'month', '01'],
  ['-', 'day', '02'],
  ['T', 'hour', '15'],
  [':', 'minute', '04'],
  [':', 'second', '05'],
];

/** The layouts as Go's nextStdChunk splits them: literal prefix, then a standard element. */
const CHUNKS: Readonly<Record<string, readonly Chunk[]>> = {
  [RFC3339]: [...DATE_TIME, ['', 'zone', 'Z07:00']],
  [RFC3339_MICRO]: [...DATE_TIME, ['', 'micro', '.000000'], ['', 'zone', 'Z07:00']],
};

class Bad extends Error {}

export function parseGoTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, input: string): Result<string> {
  const error = (layoutElem: string, valueElem: string, message?: string): Fail =>
    fail(
      message
        ? `parsing time ${timeQuote(input)}${message}`
        : `parsing time ${timeQuote(input)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
    );
  let value = input;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let offset = 0;
  for (const [prefix, std, stdstr] of CHUNKS[layout]!) {
    for (const ch of prefix) {
      if (value[0] !== ch) return error(prefix, value);
      value = value.slice(1);
    }
    const hold = value;
    let range = '';
    try {
      switch (std) {
        case 'year':
          if (value.length < 4 || !isDigit(value, 0)) throw new Bad();
          year = atoi(value.slice(0, 4));
          value = value.slice(4);
          break;
        case 'month':
          [month, value] = getnum(value, true);
          if (month <= 0 || month > 12) range = 'month';
          break;
        case 'day':
          [day, value] = getnum(value, true);
          break;
        case 'hour':
          [hour, value] = getnum(value, false);
          if (hour >= 24) range = 'hour';
          break;
        case 'minute':
          [minute, value] = getnum(value, true);
          if (minute >= 60) range = 'minute';
          break;
        case 'second':
          [second, value] = getnum(value, true);
          if (second >= 60) {
            range = 'second';
            break;
          }
          // A fraction the layout does not ask for is still accepted after the seconds.
          if (layout === RFC3339 && value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
            let n = 2;
            while (n < value.length && isDigit(value, n)) n++;
            nanos = parseNanoseconds(value, n);
            value = value.slice(n);
          }
          break;
        case 'micro':
          if (value.length < 7) throw new Bad();
          nanos = parseNanoseconds(value, 7);
          value = value.slice(7);
          break;
        case 'zone':
          if (value[0] === 'Z') {
            value = value.slice(1);
            break;
          }
          if (value.length < 6 || value[3] !== ':') throw new Bad();
          {
            const sign = value[0];
            const [hr] = getnum(value.slice(1, 3), true);
            const [mm] = getnum(value.slice(4, 6), true);
            if (hr > 24) range = 'time zone offset hour';
            if (mm > 60) range = 'time zone offset minute';
            offset = (hr * 60 + mm) * 60;
            if (sign === '-') offset = -offset;
            else if (sign !== '+') throw new Bad();
            value = value.slice(6);
          }
          break;
      }
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      if (range) return error(stdstr, value, `: ${range} out of range`);
      return error(stdstr, hold);
    }
    if (range) return error(stdstr, value, `: ${range} out of range`);
  }
  if (value.length > 0) return error('', value, `: extra text: ${timeQuote(value)}`);
  if (day < 1 || day > daysIn(month, year)) return error('', value, ': day out of range');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const utc = new Date(date.getTime() - offset * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const base =
    `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}` +
    `T${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}`;
  if (layout === RFC3339) return ok(`${base}Z`);
  return ok(`${base}.${pad(Math.floor(nanos / 1000), 6)}Z`);
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Bad();
  return Number(s);
}

function getnum(s: string, fixed: boolean): [number, string] {
  if (!isDigit(s, 0)) throw new Bad();
  if (!isDigit(s, 1)) {
    if (fixed) throw new Bad();
    return [s.charCodeAt(0) - 0x30, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

function parseNanoseconds(value: string, nbytes: number): number {
  if (value[0] !== '.' && value[0] !== ',') throw new Bad();
  const digits = value.slice(1, Math.min(nbytes, 10));
  if (!/^\d+$/.test(digits)) throw new Bad();
  return Number(digits.padEnd(9, '0'));
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The time package's quote: ASCII kept, other bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}
