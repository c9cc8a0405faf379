import { strict as assert } from 'node:assert';
import { cronParseError, isKnownTimeZone } from '../../../../src/engine/apiserver/validation/batch/cron-schedule';

describe('robfig/cron ParseStandard errors', () => {
  const cases: [string, string | undefined][] = [
    ['* * * * *', undefined],
    ['0 0 1 jan mon', undefined],
    ['5/10 * * * *', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['@weekday', 'unrecognized descriptor: @weekday'],
    // robfig/cron passes time.ParseDuration's own error on.
    ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every x', 'failed to parse duration @every x: time: invalid duration "x"'],
    ['@every -1s', undefined],
    ['@every 1μs', undefined],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ];
  for (const [spec, expected] of cases) {
    it(`${JSON.stringify(spec)} -> ${expected ?? 'ok'}`, () => assert.equal(cronParseError(spec), expected));
  }

  it('knows IANA zones case-sensitively, as Go reads zoneinfo files', () => {
    assert.equal(isKnownTimeZone('Europe/Berlin'), true);
    assert.equal(isKnownTimeZone('europe/berlin'), false);
    assert.equal(isKnownTimeZone('Continent/Zone'), false);
  });
});
