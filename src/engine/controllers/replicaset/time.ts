/** metav1.Time as the controllers compare it: RFC 3339 strings with second precision. */

/** time.Time{}: January 1, year 1, UTC. A missing or malformed time reads as this zero time. */
export const ZERO_TIME_MS = -62135596800000;

export function timeMs(t: string | null | undefined): number {
  if (!t) return ZERO_TIME_MS;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? ZERO_TIME_MS : ms;
}

/** metav1.Now() as the API stores it. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
