/** Go's time.ParseDuration for the CLI's flags: "90s", "5m", "1h30m", "250ms". Returns ms. */
import { table } from '../engine/api/own';

const UNIT_MS = table<number>({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 });

export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  if (text.length === 0) return undefined;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    pos = re.lastIndex;
  }
  return total;
}
