import { strict as assert } from 'node:assert';
import { humanDuration, shortHumanDuration } from '../../../src/engine/printers';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

// apimachinery pkg/util/duration/duration_test.go, in milliseconds.
describe('printers: duration', () => {
  const human: [number, string][] = [
    [s, '1s'],
    [70 * s, '70s'],
    [190 * s, '3m10s'],
    [70 * m, '70m'],
    [47 * h, '47h'],
    [49 * h, '2d1h'],
    [8 * d + 2 * h, '8d'],
    [367 * d, '367d'],
    [2 * y + 25 * h, '2y1d'],
    [8 * y + 2 * h, '8y'],
    [-2 * s, '<invalid>'],
    [-2 * s + 1, '0s'],
    [0, '0s'],
    [s - 1, '0s'],
    [2 * m - 1, '119s'],
    [2 * m, '2m'],
    [2 * m + s, '2m1s'],
    [10 * m - 1, '9m59s'],
    [10 * m + s, '10m'],
    [3 * h - 1, '179m'],
    [3 * h + m, '3h1m'],
    [8 * h - 1, '7h59m'],
    [8 * h + 59 * m, '8h'],
    [2 * d - 1, '47h'],
    [2 * d + h, '2d1h'],
    [8 * d - 1, '7d23h'],
    [8 * d + 23 * h, '8d'],
    [2 * y - 1, '729d'],
    [2 * y + 24 * h - 1, '2y'],
    [2 * y + 24 * h, '2y1d'],
    [8 * y - 1, '7y364d'],
    [8 * y + 364 * d, '8y'],
    [9 * y, '9y'],
  ];
  for (const [ms, want] of human) it(`HumanDuration(${ms}ms) = ${want}`, () => assert.equal(humanDuration(ms), want));

  const short: [number, string][] = [
    [-2 * s, '<invalid>'],
    [-2 * s + 1, '0s'],
    [s - 1, '0s'],
    [2 * s - 1, '1s'],
    [m - 1, '59s'],
    [m, '1m'],
    [2 * m - 1, '1m'],
    [h - 1, '59m'],
    [2 * h - 1, '1h'],
    [d - 1, '23h'],
    [2 * d - 1, '1d'],
    [y - 1, '364d'],
    [y, '1y'],
    [2 * y - 1, '1y'],
  ];
  for (const [ms, want] of short) it(`ShortHumanDuration(${ms}ms) = ${want}`, () => assert.equal(shortHumanDuration(ms), want));
});
