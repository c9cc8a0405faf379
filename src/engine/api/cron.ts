/**
 * What a robfig/cron v3 standard schedule is made of, read by both the CronJob validation (for
 * the parser's error texts) and the CronJob controller (to compute activations): the range of
 * each of the five fields, with the names months and weekdays may be given by, and the
 * descriptors with the five-field spec each one stands for.
 */
import { table } from './own';

export interface CronField {
  readonly min: number;
  readonly max: number;
  /** Lower-case names of values (jan, sun, ...), matched case-insensitively. */
  readonly names?: { readonly [name: string]: number };
}

export const CRON_MINUTE: CronField = { min: 0, max: 59 };
export const CRON_HOUR: CronField = { min: 0, max: 23 };
export const CRON_DAY_OF_MONTH: CronField = { min: 1, max: 31 };
export const CRON_MONTH: CronField = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
export const CRON_DAY_OF_WEEK: CronField = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** The five fields in a spec's order. */
export const CRON_FIELDS: readonly CronField[] = [CRON_MINUTE, CRON_HOUR, CRON_DAY_OF_MONTH, CRON_MONTH, CRON_DAY_OF_WEEK];

/** The descriptors ParseStandard accepts besides "@every <duration>", and the spec each is. */
export const CRON_DESCRIPTORS = table<string>({
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
});
