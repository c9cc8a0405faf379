/** time.ParseDuration for "@every": "1h30m", "90s", "2.5m" (ns, us, ms, s, m, h). */
import { table } from '../../api/own';

const UNITS = table<number>({ ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 });

export function parseGoDuration(text: string): number {
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== text.length) throw new Error(`time: invalid duration ${JSON.stringify(text)}`);
  return total;
}
