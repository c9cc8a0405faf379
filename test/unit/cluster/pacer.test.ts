/**
 * The Pacer plays virtual time against an injected wall clock: paused, single steps, or running
 * at x0.25 to x100.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Pacer, SPEEDS, type WallClock } from '../../../src/engine/pacer';

/** A wall clock the test moves by hand: tick(ms) fires the callbacks that fall due. */
function manualWall(): WallClock & { tick(ms: number): Promise<void> } {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    after(ms, fn) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => {
        timers = timers.filter((x) => x !== t);
      };
    },
    async tick(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('Pacer', () => {
  it('runs virtual time at the chosen speed and stops when paused', async () => {
    const clock = new Clock(0);
    const wall = manualWall();
    const pacer = new Pacer(clock, wall);
    const fired: number[] = [];
    clock.setTimer(1_000, () => void fired.push(clock.now()));
    clock.setTimer(9_000, () => void fired.push(clock.now()));
    pacer.setSpeed(10);
    pacer.resume();
    for (let i = 0; i < 4; i++) {
      await wall.tick(50);
      await pacer.idle();
    }
    assert.equal(clock.now(), 2_000, '200 ms of wall time at x10');
    assert.deepEqual(fired, [1_000]);
    pacer.pause();
    await wall.tick(1_000);
    await pacer.idle();
    assert.equal(clock.now(), 2_000, 'paused: time stands still');
    assert.equal(await pacer.step(), true);
    assert.deepEqual(fired, [1_000, 9_000], 'a step runs the next timer, whenever it is due');
    assert.equal(await pacer.step(), false);
    assert.deepEqual(pacer.current, { state: 'paused', speed: 10 });
    pacer.dispose();
  });

  it('accepts speeds from x0.25 to x100 only', () => {
    const pacer = new Pacer(new Clock(0), manualWall());
    assert.deepEqual([SPEEDS[0], SPEEDS[SPEEDS.length - 1]], [0.25, 100]);
    assert.throws(() => pacer.setSpeed(200), /speed must be between x0.25 and x100, got 200/);
    pacer.setSpeed(0.25);
    assert.equal(pacer.current.speed, 0.25);
  });
});
