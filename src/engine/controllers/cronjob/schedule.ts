/**
 * robfig/cron v3 schedules as kube-controller-manager evaluates them: the standard five fields
 * (minute, hour, day of month, month, day of week; names allowed for months and days), the
 * @yearly ... @hourly descriptors and "@every <duration>". Next(t) is the first matching second
 * after t, searched field by field as the library does (day of month and day of week match
 * either one unless one of them is "*"). Times are UTC: kubesim does not evaluate time zones.
 */
import { parseGoDuration } from '../../api/duration';
import { own } from '../../api/own';
import { CRON_DAY_OF_MONTH, CRON_DAY_OF_WEEK, CRON_DESCRIPTORS, CRON_HOUR, CRON_MINUTE, CRON_MONTH, type CronField } from '../../api/cron';

export interface Schedule {
  /** The first activation strictly after `ms`, or undefined when none within five years. */
  next(ms: number): number | undefined;
}

const STAR_BIT = 2n ** 63n;

function value(expr: string, b: CronField): number {
  const named = own(b.names, expr.toLowerCase());
  if (named !== undefined) return named;
  if (!/^\d+$/.test(expr)) throw new Error(`failed to parse int from ${expr}`);
  return Number(expr);
}

function field(expr: string, b: CronField): bigint {
  let bits = 0n;
  for (const part of expr.split(',')) {
    const [range = '', stepText] = part.split('/');
    let [lo, hi] = [b.min, b.max];
    let star = false;
    if (range === '*' || range === '?') star = true;
    else {
      const [a = '', z] = range.split('-');
      lo = value(a, b);
      hi = z === undefined ? (stepText === undefined ? lo : b.max) : value(z, b);
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (lo < b.min || hi > b.max || lo > hi || !(step > 0)) throw new Error(`invalid range ${part}`);
    for (let v = lo; v <= hi; v += step) bits |= 1n << BigInt(v);
    if (star && step === 1) bits |= STAR_BIT;
  }
  return bits;
}

const has = (bits: bigint, v: number): boolean => (bits & (1n << BigInt(v))) !== 0n;

class SpecSchedule implements Schedule {
  constructor(
    private readonly minute: bigint,
    private readonly hour: bigint,
    private readonly dom: bigint,
    private readonly month: bigint,
    private readonly dow: bigint,
  ) {}

  private dayMatches(d: Date): boolean {
    const domMatch = has(this.dom, d.getUTCDate());
    const dowMatch = has(this.dow, d.getUTCDay());
    if ((this.dom & STAR_BIT) !== 0n || (this.dow & STAR_BIT) !== 0n) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }

  next(ms: number): number | undefined {
    let t = new Date(Math.floor(ms / 1000) * 1000 + 1000);
    let added = false;
    const yearLimit = t.getUTCFullYear() + 5;
    const at = (y: number, mo: number, d: number, h = 0, mi = 0): Date => new Date(Date.UTC(y, mo, d, h, mi, 0));
    wrap: for (;;) {
      if (t.getUTCFullYear() > yearLimit) return undefined;
      while (!has(this.month, t.getUTCMonth() + 1)) {
        if (!added) {
          added = true;
          t = at(t.getUTCFullYear(), t.getUTCMonth(), 1);
        }
        t = at(t.getUTCFullYear(), t.getUTCMonth() + 1, 1);
        if (t.getUTCMonth() === 0) continue wrap;
      }
      while (!this.dayMatches(t)) {
        if (!added) {
          added = true;
          t = at(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
        }
        t = at(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1);
        if (t.getUTCDate() === 1) continue wrap;
      }
      while (!has(this.hour, t.getUTCHours())) {
        if (!added) {
          added = true;
          t = at(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours());
        }
        t = new Date(t.getTime() + 3_600_000);
        if (t.getUTCHours() === 0) continue wrap;
      }
      while (!has(this.minute, t.getUTCMinutes())) {
        if (!added) {
          added = true;
          t = new Date(Math.floor(t.getTime() / 60_000) * 60_000);
        }
        t = new Date(t.getTime() + 60_000);
        if (t.getUTCMinutes() === 0) continue wrap;
      }
      while (t.getUTCSeconds() !== 0) {
        if (!added) {
          added = true;
          t = new Date(Math.floor(t.getTime() / 1000) * 1000);
        }
        t = new Date(t.getTime() + 1000);
        if (t.getUTCSeconds() === 0) continue wrap;
      }
      return t.getTime();
    }
  }
}

/** "@every 90s": fixed intervals, rounded down to whole seconds (at least one). */
class ConstantDelaySchedule implements Schedule {
  constructor(private readonly delayMs: number) {}

  next(ms: number): number {
    return Math.floor(ms / 1000) * 1000 + this.delayMs;
  }
}

/** cron.ParseStandard for a schedule the API server accepted; a leading TZ=/CRON_TZ= is dropped. */
export function parseSchedule(spec: string): Schedule {
  let s = spec.trim();
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) s = s.slice(s.indexOf(' ') + 1).trim();
  if (s.startsWith('@every ')) {
    const ns = parseGoDuration(s.slice('@every '.length).trim());
    if (!ns.ok) throw new Error(`failed to parse duration ${s}: ${ns.error}`);
    // cron.Every: at least a second, whole seconds.
    return new ConstantDelaySchedule(Math.max(1000, Number(ns.value / 1_000_000_000n) * 1000));
  }
  const fields = (CRON_DESCRIPTORS[s] ?? s).split(/\s+/);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [mi = '', h = '', dom = '', mo = '', dow = ''] = fields;
  return new SpecSchedule(field(mi, CRON_MINUTE), field(h, CRON_HOUR), field(dom, CRON_DAY_OF_MONTH), field(mo, CRON_MONTH), field(dow, CRON_DAY_OF_WEEK));
}
