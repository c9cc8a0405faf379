/**
 * robfig/cron v3 ParseStandard, for its error texts: a CronJob schedule is rejected with exactly
 * the parser's message ("expected exactly 5 fields, found 4: [* * * *]").
 */
import { parseGoDuration } from '../../../api/duration';
import { atoi } from '../../../api/strconv';
import { own } from '../../../api/own';
import { CRON_DESCRIPTORS, CRON_FIELDS, type CronField } from '../../../api/cron';

function mustParseInt(expr: string): number | string {
  const n = atoi(expr);
  if (!n.ok) return `failed to parse int from ${expr}: ${n.error}`;
  if (n.value < 0) return `negative number (${n.value}) not allowed: ${expr}`;
  return n.value;
}

function parseIntOrName(expr: string, names: CronField['names']): number | string {
  const named = own(names, expr.toLowerCase());
  return named !== undefined && Object.hasOwn(names ?? {}, expr.toLowerCase()) ? named : mustParseInt(expr);
}

function checkRange(expr: string, r: CronField): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    const s = parseIntOrName(lowAndHigh[0]!, r.names);
    if (typeof s === 'string') return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1]!, r.names);
      if (typeof e === 'string') return e;
      end = e;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const s = mustParseInt(rangeAndStep[1]!);
    if (typeof s === 'string') return s;
    step = s;
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < r.min) return `beginning of range (${start}) below minimum (${r.min}): ${expr}`;
  if (end > r.max) return `end of range (${end}) above maximum (${r.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

function checkField(field: string, r: CronField): string | undefined {
  for (const expr of field.split(',').filter((e) => e.length > 0)) {
    const err = checkRange(expr, r);
    if (err !== undefined) return err;
  }
  return undefined;
}


/** The parse error of a standard five-field spec or descriptor, or undefined when it parses. */
export function cronParseError(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    const name = rest.slice(rest.indexOf('=') + 1, space < 0 ? undefined : space);
    if (!isKnownTimeZone(name)) return `provided bad location ${name}: unknown time zone ${name}`;
    rest = space < 0 ? '' : rest.slice(space).trim();
  }
  if (rest.startsWith('@')) {
    if (Object.hasOwn(CRON_DESCRIPTORS, rest)) return undefined;
    if (rest.startsWith('@every ')) {
      const d = parseGoDuration(rest.slice('@every '.length));
      return d.ok ? undefined : `failed to parse duration ${rest}: ${d.error}`;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const fields = rest.split(/[ \t\n\r\v\f]+/).filter((f) => f.length > 0);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    const err = checkField(fields[i]!, CRON_FIELDS[i]!);
    if (err !== undefined) return err;
  }
  return undefined;
}

/** Whether time.LoadLocation knows the zone (Go ships the IANA database; so does ICU). */
export function isKnownTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  // ICU matches names case-insensitively; Go opens zoneinfo files, whose names are case-sensitive.
  return canonical === name || canonical.toLowerCase() !== name.toLowerCase();
}
