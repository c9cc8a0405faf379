/**
 * apimachinery's duration.HumanDuration and ShortHumanDuration: the AGE column's "5m", "3h12m",
 * "2d", and the RESTARTS column's "(2m ago)". Durations are in milliseconds; like Go, each unit is
 * truncated, never rounded.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const trunc = (ms: number, unit: number): number => Math.trunc(ms / unit);

/** Both forms of a negative duration: a clock up to two seconds ahead of the timestamp still reads "0s". */
const negative = (seconds: number): string => (seconds < -1 ? '<invalid>' : '0s');

/** About 2-3 significant figures: "45s", "3m20s", "25m", "5h30m", "3d4h", "400d", "2y30d". */
export function humanDuration(ms: number): string {
  const seconds = trunc(ms, SECOND);
  if (seconds < 0) return negative(seconds);
  if (seconds < 120) return `${seconds}s`;
  const minutes = trunc(ms, MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = trunc(ms, HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours, 24)}d` : `${trunc(hours, 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours, 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = trunc(hours, 24) % 365;
    return days === 0 ? `${trunc(hours, 24 * 365)}y` : `${trunc(hours, 24 * 365)}y${days}d`;
  }
  return `${trunc(hours, 24 * 365)}y`;
}

/** One unit only: "45s", "3m", "5h", "3d", "2y". */
export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms, SECOND);
  if (seconds < 0) return negative(seconds);
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms, MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms, HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours, 24)}d`;
  return `${trunc(hours, 24 * 365)}y`;
}
