import { strict as assert } from 'node:assert';
import { setImmediate as turn } from 'node:timers/promises';
import { Clock } from '../../../src/engine/clock';
import { MAX_HOLD_MS, WatchWrites } from '../../../src/http/watch-writes';

describe('http WatchWrites', () => {
  it('flushes a held stream on the next turn of the event loop while the clock is idle', async () => {
    const writes = new WatchWrites(new Clock(0));
    let flushed = 0;
    writes.hold(() => void flushed++);
    assert.equal(flushed, 0);
    await turn();
    await turn();
    assert.equal(flushed, 1);
  });

  it('holds events while the clock runs timers and writes each stream once when the run ends', async () => {
    const clock = new Clock(0);
    const writes = new WatchWrites(clock);
    const written: string[] = [];
    // Two streams as serveWatch keeps them: a batch, held when its first event comes.
    const stream = (name: string) => {
      let batch: number[] = [];
      const flush = () => {
        written.push(`${name}:${batch.join(',')}`);
        batch = [];
      };
      return (event: number) => {
        if (batch.length === 0) writes.hold(flush);
        batch.push(event);
      };
    };
    const a = stream('a');
    const b = stream('b');
    // One event per virtual instant, as the latency model delivers them; the clock yields to the event loop between instants.
    for (let i = 1; i <= 5; i++) clock.setTimer(i, () => {
      a(i);
      b(i);
    });
    await clock.advance(10);
    assert.deepEqual(written, []);
    await turn();
    await turn();
    assert.deepEqual(written, ['a:1,2,3,4,5', 'b:1,2,3,4,5']);
  });

  it('does not hold events longer than MAX_HOLD_MS of wall time while a run goes on', async () => {
    let wall = 0;
    const writes = new WatchWrites({ isRunning: true }, () => wall);
    let flushed = 0;
    writes.hold(() => void flushed++);
    await turn();
    await turn();
    assert.equal(flushed, 0);
    wall = MAX_HOLD_MS;
    await turn();
    await turn();
    assert.equal(flushed, 1);
    writes.dispose();
  });
});
