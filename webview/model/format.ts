/** Small text formatters shared by the panel's views. */

/** Virtual time of day, UTC, to the millisecond: 00:01:02.345. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/** Full virtual timestamp for details: 2025-01-01T00:01:02.345Z. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** A delay as Go prints short durations: 5ms, 1.5s, 2m30s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${+ms.toFixed(3)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(3)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${+((ms - minutes * 60_000) / 1000).toFixed(3)}s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** "deployments.apps", "pods" (kubectl's resource.group). */
export function groupResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}
