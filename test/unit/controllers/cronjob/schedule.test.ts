/** robfig/cron spec_test.go Next cases and cronjob utils_test.go mostRecentScheduleTime. */
import { strict as assert } from 'node:assert';
import { parseSchedule } from '../../../../src/engine/controllers/cronjob/schedule';
import { jobNameFor, mostRecentScheduleTime, nextScheduleDelayMs, rfc1123z } from '../../../../src/engine/controllers/cronjob/times';

const t = (s: string): number => Date.parse(s);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));

describe('controllers/cronjob schedules', () => {
  const cases: [string, string, string | undefined][] = [
    // [now, spec, next]
    ['2012-07-09T14:45:00Z', '0,15,30,45 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T14:59:59Z', '0,15,30,45 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T23:46:00Z', '*/15 * * * *', '2012-07-10T00:00:00Z'],
    ['2012-07-09T23:45:00Z', '20-35/15 * * * *', '2012-07-10T00:20:00Z'],
    ['2012-07-09T23:35:00Z', '15/35 * * * *', '2012-07-09T23:50:00Z'],
    ['2012-07-09T23:35:00Z', '0 12 9 Jul *', '2013-07-09T12:00:00Z'],
    ['2012-07-09T14:45:00Z', '0 0 * * Mon', '2012-07-16T00:00:00Z'],
    ['2012-07-09T14:45:00Z', '0 0 1 * Mon', '2012-07-16T00:00:00Z'],
    ['2012-07-09T14:45:00Z', '0 0 1 * *', '2012-08-01T00:00:00Z'],
    ['2012-12-31T23:59:45Z', '0 * * * *', '2013-01-01T00:00:00Z'],
    ['2012-02-28T00:00:00Z', '0 0 29 Feb *', '2012-02-29T00:00:00Z'],
    ['2012-02-29T00:00:00Z', '0 0 29 Feb *', '2016-02-29T00:00:00Z'],
    ['2012-07-09T14:45:00Z', '@hourly', '2012-07-09T15:00:00Z'],
    ['2012-07-09T14:45:10Z', '@every 90s', '2012-07-09T14:46:40Z'],
    // cron.Every: whole seconds, at least one (a negative duration too, as time.ParseDuration reads it).
    ['2012-07-09T14:45:10Z', '@every 1m30.5s', '2012-07-09T14:46:40Z'],
    ['2012-07-09T14:45:10Z', '@every 500ms', '2012-07-09T14:45:11Z'],
    ['2012-07-09T14:45:10Z', '@every -1s', '2012-07-09T14:45:11Z'],
    ['2012-07-09T14:45:00Z', '0 0 30 Feb *', undefined],
  ];
  for (const [now, spec, next] of cases) {
    it(`${spec} after ${now}`, () => assert.equal(iso(parseSchedule(spec).next(t(now))), next));
  }

  it('an @every duration time.ParseDuration refuses is refused in robfig/cron\'s words', () => {
    assert.throws(() => parseSchedule('@every 5x'), { message: 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"' });
  });

  it('mostRecentScheduleTime: none due, one due, several missed, too many missed', () => {
    const every = parseSchedule('*/1 * * * *');
    assert.deepEqual(mostRecentScheduleTime(t('2025-01-01T00:00:10Z'), t('2025-01-01T00:00:50Z'), every, undefined), { earliest: t('2025-01-01T00:00:10Z'), missed: 'none' });
    assert.equal(iso(mostRecentScheduleTime(t('2025-01-01T00:00:10Z'), t('2025-01-01T00:01:10Z'), every, undefined).mostRecent), '2025-01-01T00:01:00Z');
    const several = mostRecentScheduleTime(t('2025-01-01T00:00:10Z'), t('2025-01-01T00:05:30Z'), every, undefined);
    assert.deepEqual([iso(several.mostRecent), several.missed], ['2025-01-01T00:05:00Z', 'few']);
    assert.equal(mostRecentScheduleTime(t('2025-01-01T00:00:10Z'), t('2025-01-01T03:00:30Z'), every, undefined).missed, 'many');
    const withDeadline = mostRecentScheduleTime(t('2025-01-01T00:00:10Z'), t('2025-01-01T03:00:30Z'), every, 60);
    assert.deepEqual([iso(withDeadline.mostRecent), withDeadline.missed], ['2025-01-01T03:00:00Z', 'none']);
    assert.equal(nextScheduleDelayMs(t('2025-01-01T00:00:10Z'), t('2025-01-01T00:00:30Z'), every), 30_100);
  });

  it('job names carry the scheduled minute; missed times print as RFC1123Z', () => {
    assert.equal(jobNameFor('hello', t('2025-01-01T00:01:00Z')), 'hello-28928161');
    assert.equal(rfc1123z(t('2025-01-01T00:01:00Z')), 'Wed, 01 Jan 2025 00:01:00 +0000');
  });
});
