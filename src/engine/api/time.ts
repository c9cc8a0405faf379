/** metav1.Time and MicroTime: RFC 3339 strings, read back to milliseconds as the controllers compare them. */

/** time.Time{}: January 1, year 1, UTC. A missing or malformed time reads as this zero time. */
export const ZERO_TIME_MS = -62135596800000;

export function timeMs(t: string | null | undefined): number {
  if (!t) return ZERO_TIME_MS;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? ZERO_TIME_MS : ms;
}

/** The last second formatted: writes on the virtual clock stamp the same second many times. */
let lastSecond = NaN;
let lastText = '';

/** metav1.Time as the API stores it: RFC 3339 with second precision, UTC. */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}

/** metav1.MicroTime as the API stores it (events, leases): RFC 3339 with microseconds. */
export function rfc3339Micro(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  return iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}
