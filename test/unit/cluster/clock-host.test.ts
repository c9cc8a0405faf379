/**
 * The slicing ClockHost (docs/architecture.md, invariant 8): the clock yields to the host's event loop once a
 * slice has run its wall time, so a host stays responsive while a big simulation runs, and the
 * simulation's outcome does not depend on where the slices fall.
 */
import { strict as assert } from 'node:assert';
import { slicingClockHost } from '../../../src/host/clock-host';
import { Clock } from '../../../src/engine/clock';

describe('slicingClockHost', () => {
  it('asks to yield once a slice has used its wall time, and starts a new slice after yielding', async () => {
    let now = 0;
    const host = slicingClockHost(20, () => now);
    assert.equal(host.shouldYield(), false);
    now = 19;
    assert.equal(host.shouldYield(), false);
    now = 20;
    assert.equal(host.shouldYield(), true);
    await host.yieldToHost();
    assert.equal(host.shouldYield(), false);
    now = 45;
    assert.equal(host.shouldYield(), true);
  });

  it('lets the host run between slices of one virtual instant, without changing what the clock does', async () => {
    const run = async (sliceMs: number) => {
      let wall = 0;
      let hostTurns = 0;
      const host = slicingClockHost(sliceMs, () => wall);
      const clock = new Clock(0, {
        yieldToHost: async () => {
          hostTurns++;
          await host.yieldToHost();
        },
        shouldYield: () => host.shouldYield(),
      });
      const order: number[] = [];
      // 100 tasks due at the same instant, each "taking" 5 ms of wall time.
      for (let i = 0; i < 100; i++) {
        clock.queueTask(() => {
          wall += 5;
          order.push(i);
        });
      }
      await clock.settle();
      return { order, hostTurns };
    };
    const sliced = await run(20);
    const unsliced = await run(1e9);
    assert.deepEqual(sliced.order, unsliced.order);
    assert.ok(sliced.hostTurns >= 25, `the host got ${sliced.hostTurns} turns in 500 ms of work`);
    assert.ok(unsliced.hostTurns <= 2);
  });
});
