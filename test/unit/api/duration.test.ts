/**
 * The Go duration grammars (src/engine/api/duration.ts). The tables are ported from Go's
 * src/time/time_test.go (parseDurationTests, parseDurationErrorTests; the invalid-UTF-8 rows
 * cannot be written as JavaScript strings) and kube-openapi's pkg/validation/strfmt/duration_test.go.
 */
import { strict as assert } from 'node:assert';
import { parseGoDuration, parseMetaDuration, parseOpenAPIDuration, parseVirtualDuration } from '../../../src/engine/api/duration';
import { fail, ok } from '../../../src/engine/api/result';

const NS = 1n;
const US = 1000n * NS;
const MS = 1000n * US;
const S = 1000n * MS;
const MIN = 60n * S;
const H = 60n * MIN;
const MAX = (1n << 63n) - 1n;
const MIN_INT = -(1n << 63n);

describe('api/duration', () => {
  describe('parseGoDuration (time.ParseDuration)', () => {
    const cases: [string, bigint][] = [
      ['0', 0n], ['5s', 5n * S], ['30s', 30n * S], ['1478s', 1478n * S],
      ['-5s', -5n * S], ['+5s', 5n * S], ['-0', 0n], ['+0', 0n],
      ['5.0s', 5n * S], ['5.6s', 5n * S + 600n * MS], ['5.s', 5n * S], ['.5s', 500n * MS], ['1.0s', S], ['1.00s', S],
      ['1.004s', S + 4n * MS], ['1.0040s', S + 4n * MS], ['100.00100s', 100n * S + MS],
      ['10ns', 10n * NS], ['11us', 11n * US], ['12µs', 12n * US], ['12μs', 12n * US], ['13ms', 13n * MS], ['14s', 14n * S], ['15m', 15n * MIN], ['16h', 16n * H],
      ['3h30m', 3n * H + 30n * MIN], ['10.5s4m', 4n * MIN + 10n * S + 500n * MS], ['-2m3.4s', -(2n * MIN + 3n * S + 400n * MS)],
      ['1h2m3s4ms5us6ns', H + 2n * MIN + 3n * S + 4n * MS + 5n * US + 6n * NS], ['39h9m14.425s', 39n * H + 9n * MIN + 14n * S + 425n * MS],
      ['52763797000ns', 52763797000n], ['0.3333333333333333333h', 20n * MIN], ['9007199254740993ns', (1n << 53n) + 1n],
      ['9223372036854775807ns', MAX], ['9223372036854775.807us', MAX], ['9223372036s854ms775us807ns', MAX],
      ['-9223372036854775808ns', MIN_INT], ['-9223372036854775.808us', MIN_INT], ['-9223372036s854ms775us808ns', MIN_INT],
      ['-2562047h47m16.854775808s', MIN_INT], ['0.100000000000000000000h', 6n * MIN],
      ['0.830103483285477580700h', 49n * MIN + 48n * S + 372539827n * NS],
    ];
    for (const [text, want] of cases) it(`${JSON.stringify(text)} -> ${want}ns`, () => assert.deepEqual(parseGoDuration(text), ok(want)));

    const errors: [string, string][] = [
      ['', 'time: invalid duration ""'],
      ['3', 'time: missing unit in duration "3"'],
      ['-', 'time: invalid duration "-"'],
      ['s', 'time: invalid duration "s"'],
      ['.', 'time: invalid duration "."'],
      ['-.', 'time: invalid duration "-."'],
      ['.s', 'time: invalid duration ".s"'],
      ['+.s', 'time: invalid duration "+.s"'],
      ['1d', 'time: unknown unit "d" in duration "1d"'],
      ['\uFFFD', 'time: invalid duration "\\xef\\xbf\\xbd"'],
      ['\uFFFD hello \uFFFD world', 'time: invalid duration "\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
      ['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'],
      ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
      ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
      ['9223372036854776us', 'time: invalid duration "9223372036854776us"'],
      ['3000000h', 'time: invalid duration "3000000h"'],
      ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
      ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
      // The unit is everything up to the next digit or '.', quoted with time's own quote.
      ['1m30', 'time: missing unit in duration "1m30"'],
      ['1 s', 'time: unknown unit " s" in duration "1 s"'],
      ['5µ', 'time: unknown unit "\\xc2\\xb5" in duration "5\\xc2\\xb5"'],
    ];
    for (const [text, want] of errors) it(`${JSON.stringify(text)} -> ${want}`, () => assert.deepEqual(parseGoDuration(text), fail(want)));
  });

  it('parseMetaDuration (metav1.Duration JSON): time.ParseDuration in rounded milliseconds', () => {
    assert.deepEqual(parseMetaDuration('1m30s'), ok(90_000));
    assert.deepEqual(parseMetaDuration('-1.5s'), ok(-1500));
    assert.deepEqual(parseMetaDuration('1500us'), ok(2));
    assert.deepEqual(parseMetaDuration('30'), fail('time: missing unit in duration "30"'));
  });

  it('parseVirtualDuration (behavior annotations, CLI flags): no sign, no unit below a millisecond', () => {
    const cases: [string, number | string][] = [
      ['0', 0], ['30s', 30_000], ['1m30s', 90_000], ['1.5s', 1500], ['.5s', 500], ['250ms', 250], ['2h', 7_200_000],
      ['30', 'time: missing unit in duration "30"'], ['abc', 'time: invalid duration "abc"'], ['3d', 'time: unknown unit "d" in duration "3d"'], ['', 'time: invalid duration ""'],
      ['-5s', 'time: invalid duration "-5s"'], ['+5s', 'time: invalid duration "+5s"'],
      ['1us', 'time: unknown unit "us" in duration "1us"'], ['10ns', 'time: unknown unit "ns" in duration "10ns"'],
    ];
    for (const [text, want] of cases) assert.deepEqual(parseVirtualDuration(text), typeof want === 'number' ? ok(want) : fail(want), text);
  });

  describe('parseOpenAPIDuration (strfmt.ParseDuration, format: duration)', () => {
    const D = 24n * H;
    const W = 7n * D;
    const cases: [string, bigint][] = [
      ['0ms', 0n], ['2ms', 2n * MS], ['-1.5h', -(H + 30n * MIN)],
      ['1ns', NS], ['1us', US], ['1µs', US], ['1ms', MS], ['1s', S], ['1m', MIN], ['1h', H], ['1hr', H], ['1d', D], ['1w', W], ['1wk', W],
      ['1nanoseconds', NS], ['1nanos', NS], ['1microseconds', US], ['1micros', US], ['1millis', MS], ['1milliseconds', MS],
      ['1second', S], ['1sec', S], ['1min', MIN], ['1minute', MIN], ['1hour', H], ['1day', D], ['1week', W],
      ['1  ns', NS], ['1  us', US], ['1  µs', US], ['1  ms', MS], ['1  s', S], ['1  m', MIN], ['1  h', H], ['1  hr', H], ['1  d', D], ['1  w', W], ['1  wk', W],
      ['1  nanoseconds', NS], ['1  nanos', NS], ['1  microseconds', US], ['1  micros', US], ['1  millis', MS], ['1  milliseconds', MS],
      ['1  second', S], ['1  sec', S], ['1  min', MIN], ['1  minute', MIN], ['1  hour', H], ['1  day', D], ['1  week', W],
      ['1w2s', W + 2n * S], ['1d2h3m5s', D + 2n * H + 3n * MIN + 5n * S],
      ['1s 2m', 2n * MIN + S], ['1w 2d 3h 4m', W + 2n * D + 3n * H + 4n * MIN],
      // TestIsDuration_Caveats: the last spelling of a unit matches as a prefix.
      ['45 weeks', 45n * W], ['45 weekz', 45n * W], ['12 hours', 12n * H], ['12 minutes', 12n * MIN],
    ];
    for (const [text, want] of cases) it(`${JSON.stringify(text)} -> ${want}ns`, () => assert.deepEqual(parseOpenAPIDuration(text), ok(want)));

    const errors = ['yada', 'three week', '12 parsecs', '12 y', '45 wekk', '45 weeekks', '12 phours', '1s invalid', 'invalid 1s', '1s   invalid', 'invalid   1s', '1s 2m invalid', '1s invalid 2m'];
    for (const text of errors) it(`${JSON.stringify(text)} -> unable to parse`, () => assert.deepEqual(parseOpenAPIDuration(text), fail(`unable to parse ${text} as duration`)));
    it('a count past int64 is strconv.Atoi\'s range error', () =>
      assert.deepEqual(
        parseOpenAPIDuration('9999999999999999999999999999999999999999999999999999999 weeks'),
        fail('strconv.Atoi: parsing "9999999999999999999999999999999999999999999999999999999": value out of range'),
      ));
  });
});
