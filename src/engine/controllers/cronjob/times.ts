/**
 * When a CronJob should have started a Job (utils.go mostRecentScheduleTime): the latest
 * activation between its last schedule (or creation, or now minus startingDeadlineSeconds) and
 * now; how many were missed (more than 100 is reported); and how long until the next one (plus
 * 100 ms, so the sync lands after it).
 */
import type { Schedule } from './schedule';

export type Missed = 'none' | 'few' | 'many';

const NEXT_SCHEDULE_DELTA_MS = 100;

export interface ScheduleWindow {
  earliest: number;
  mostRecent?: number;
  missed: Missed;
}

export function mostRecentScheduleTime(earliestIn: number, now: number, schedule: Schedule, startingDeadlineSeconds: number | undefined): ScheduleWindow {
  let earliest = earliestIn;
  if (startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - startingDeadlineSeconds * 1000);
  const t1 = schedule.next(earliest);
  if (t1 === undefined || now < t1) return { earliest, missed: 'none' };
  const t2 = schedule.next(t1);
  if (t2 === undefined || now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) throw new Error('time difference between two schedules is less than 1 second');
  const missedCount = Math.floor(Math.floor((now - t1) / 1000) / between) + 1;
  let mostRecent: number | undefined;
  for (let t = schedule.next(t1 + (missedCount - 2) * between * 1000); t !== undefined && t <= now; t = schedule.next(t)) mostRecent = t;
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/** How long until the activation after the most recent one (from the last schedule, ignoring the deadline). */
export function nextScheduleDelayMs(earliest: number, now: number, schedule: Schedule): number | undefined {
  let window: ScheduleWindow;
  try {
    window = mostRecentScheduleTime(earliest, now, schedule, undefined);
  } catch {
    return undefined;
  }
  const from = window.mostRecent ?? (window.missed === 'none' ? window.earliest : now);
  const next = schedule.next(from);
  return next === undefined ? undefined : next + NEXT_SCHEDULE_DELTA_MS - now;
}

/** getTimeHashInMinutes: Job names carry the scheduled time in Unix minutes. */
export function jobNameFor(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** time.RFC1123Z in UTC, as the MissSchedule event prints the missed time. */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
