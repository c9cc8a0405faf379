/**
 * Go's time.Duration in the two directions the kubelet needs: String() for the texts that print
 * durations ("Successfully pulled image ... in 1.2s", "back-off 5m0s restarting failed
 * container"), and ParseDuration for the behavior annotation ("crash-after=1m30s").
 * Durations are whole virtual milliseconds.
 */

import { goQuote } from './gofmt';
import { table } from './own';

const UNIT_MS = table<number>({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 });

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

/**
 * time.ParseDuration restricted to non-negative durations in ms, s, m and h ("1m30s", "1.5s",
 * "500ms", "0"). Returns milliseconds (rounded), or an error text in Go's words.
 */
export function parseGoDuration(text: string): number | { error: string } {
  const invalid = { error: `time: invalid duration ${goQuote(text)}` };
  if (text === '0') return 0;
  if (text === '') return invalid;
  if (/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return { error: `time: missing unit in duration ${goQuote(text)}` };
  const re = /(\d+(?:\.\d*)?|\.\d+)([a-zµ]+)/gy;
  let ms = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const unit = UNIT_MS[m[2]!];
    if (unit === undefined) return { error: `time: unknown unit ${goQuote(m[2]!)} in duration ${goQuote(text)}` };
    ms += Number(m[1]) * unit;
    consumed = re.lastIndex;
  }
  if (consumed !== text.length) return invalid;
  return Math.round(ms);
}
