/** The Reflector's backoff (wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)). */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { ExponentialBackoff, REFLECTOR_BACKOFF } from '../../../src/engine/client/flowcontrol/backoff';

describe('client/flowcontrol: reflector backoff', () => {
  it('doubles from 800 ms to 30 s, each wait jittered up to twice its length', () => {
    const clock = new Clock();
    const b = new ExponentialBackoff(REFLECTOR_BACKOFF, clock, new Random('b'));
    const bases = [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000];
    for (const base of bases) {
      const wait = b.next();
      assert.ok(wait >= base && wait < 2 * base, `${wait} in [${base}, ${2 * base})`);
    }
  });

  it('starts over after two minutes without a backoff', async () => {
    const clock = new Clock();
    const b = new ExponentialBackoff({ ...REFLECTOR_BACKOFF, jitter: 0 }, clock, new Random('b'));
    assert.deepEqual([b.next(), b.next(), b.next()], [800, 1600, 3200]);
    await clock.advance(120_000);
    assert.equal(b.next(), 6400, 'exactly two minutes is not more than two minutes');
    await clock.advance(120_001);
    assert.equal(b.next(), 800);
  });
});
