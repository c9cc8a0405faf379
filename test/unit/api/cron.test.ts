import { strict as assert } from 'node:assert';
import { CRON_DESCRIPTORS, CRON_FIELDS } from '../../../src/engine/api/cron';
import { cronParseError } from '../../../src/engine/apiserver/validation/batch/cron-schedule';
import { parseSchedule } from '../../../src/engine/controllers/cronjob/schedule';

/** A spec with `expr` in field `i` and "*" elsewhere. */
const specWith = (i: number, expr: string): string => CRON_FIELDS.map((_, j) => (j === i ? expr : '*')).join(' ');

describe('the cron vocabulary the CronJob validation and controller share', () => {
  const descriptors: [string, string, number][] = [
    ['@yearly', '0 0 1 1 *', Date.UTC(2027, 0, 1)],
    ['@annually', '0 0 1 1 *', Date.UTC(2027, 0, 1)],
    ['@monthly', '0 0 1 * *', Date.UTC(2026, 11, 1)],
    ['@weekly', '0 0 * * 0', Date.UTC(2026, 10, 15)],
    ['@daily', '0 0 * * *', Date.UTC(2026, 10, 11)],
    ['@midnight', '0 0 * * *', Date.UTC(2026, 10, 11)],
    ['@hourly', '0 * * * *', Date.UTC(2026, 10, 10, 13)],
  ];
  const from = Date.UTC(2026, 10, 10, 12, 30); // a Tuesday
  it('lists exactly these descriptors', () => assert.deepEqual(Object.keys(CRON_DESCRIPTORS).sort(), descriptors.map(([d]) => d).sort()));
  for (const [descriptor, spec, next] of descriptors) {
    it(`${descriptor} is ${spec} to both`, () => {
      assert.equal(CRON_DESCRIPTORS[descriptor], spec);
      assert.equal(cronParseError(descriptor), undefined);
      assert.equal(parseSchedule(descriptor).next(from), next);
      assert.equal(parseSchedule(spec).next(from), next);
    });
  }

  const fields: [string, number, number, string | undefined][] = [
    ['minute', 0, 59, undefined],
    ['hour', 0, 23, undefined],
    ['day of month', 1, 31, undefined],
    ['month', 1, 12, 'DEC'],
    ['day of week', 0, 6, 'Sat'],
  ];
  fields.forEach(([name, min, max, named], i) => {
    it(`${name}: ${min}..${max}${named ? `, names like ${named}` : ''}`, () => {
      assert.deepEqual([CRON_FIELDS[i]!.min, CRON_FIELDS[i]!.max], [min, max]);
      assert.equal(cronParseError(specWith(i, `${min}-${max}`)), undefined);
      assert.equal(cronParseError(specWith(i, `${max + 1}`)), `end of range (${max + 1}) above maximum (${max}): ${max + 1}`);
      if (min > 0) assert.equal(cronParseError(specWith(i, `${min - 1}`)), `beginning of range (${min - 1}) below minimum (${min}): ${min - 1}`);
      if (named) {
        assert.equal(cronParseError(specWith(i, named)), undefined);
        assert.doesNotThrow(() => parseSchedule(specWith(i, named)));
      }
      assert.throws(() => parseSchedule(specWith(i, `${max + 1}`)));
    });
  });
});
