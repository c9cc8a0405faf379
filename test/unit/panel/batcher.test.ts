import { strict as assert } from 'node:assert';
import { RecordBatcher, type Timers } from '../../../src/extension/panel/batcher';
import { drain, FrameQueue } from '../../../webview/model/frame-queue';

/** Timers under the test's control: `tick()` fires what is due. */
function manualTimers(): Timers & { tick(): void; pending(): number } {
  let queue: { fn: () => void; handle: number }[] = [];
  let next = 1;
  return {
    setTimeout: (fn) => {
      const handle = next++;
      queue.push({ fn, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      queue = queue.filter((t) => t.handle !== handle);
    },
    tick() {
      const due = queue;
      queue = [];
      for (const t of due) t.fn();
    },
    pending: () => queue.length,
  };
}

describe('panel batching', () => {
  it('host: coalesces a burst into one message per interval, at most maxBatch records each', () => {
    const timers = manualTimers();
    const sent: [number[], number][] = [];
    const b = new RecordBatcher<number>((batch, dropped) => sent.push([batch, dropped]), { maxBatch: 3, intervalMs: 50, capacity: 100 }, timers);
    for (let i = 1; i <= 7; i++) b.push(i);
    assert.equal(sent.length, 0, 'nothing goes out before the interval');
    assert.equal(timers.pending(), 1, 'one timer for the whole burst');
    timers.tick();
    assert.deepEqual(sent, [[[1, 2, 3], 0]]);
    timers.tick();
    timers.tick();
    assert.deepEqual(sent.map(([batch]) => batch), [[1, 2, 3], [4, 5, 6], [7]]);
    timers.tick();
    assert.equal(sent.length, 3, 'no empty messages');
    assert.equal(timers.pending(), 0, 'idle: no timer');
  });

  it('host: is bounded: the oldest queued records are dropped and the next batch says how many', () => {
    const timers = manualTimers();
    const sent: [number[], number][] = [];
    const b = new RecordBatcher<number>((batch, dropped) => sent.push([batch, dropped]), { maxBatch: 10, intervalMs: 50, capacity: 4 }, timers);
    for (let i = 1; i <= 10; i++) b.push(i);
    assert.equal(b.pending, 4);
    timers.tick();
    assert.deepEqual(sent, [[[7, 8, 9, 10], 6]]);
  });

  it('host: clear forgets the queue and its timer (the webview went away)', () => {
    const timers = manualTimers();
    const sent: number[][] = [];
    const b = new RecordBatcher<number>((batch) => sent.push(batch), { maxBatch: 10, intervalMs: 50, capacity: 10 }, timers);
    b.pushAll([1, 2, 3]);
    b.clear();
    assert.equal(timers.pending(), 0);
    timers.tick();
    assert.deepEqual(sent, []);
    b.push(4);
    timers.tick();
    assert.deepEqual(sent, [[4]]);
  });

  it('host: a 100,000-record sync goes out in batches of 2,000 without growing the queue array forever', () => {
    const timers = manualTimers();
    let received = 0;
    let batches = 0;
    const b = new RecordBatcher<number>((batch) => ((received += batch.length), batches++), { maxBatch: 2000, intervalMs: 50, capacity: 100_000 }, timers);
    b.pushAll(Array.from({ length: 100_000 }, (_, i) => i));
    while (timers.pending() > 0) timers.tick();
    assert.equal(received, 100_000);
    assert.equal(batches, 50);
  });

  it('webview: the frame queue hands out records in order across message boundaries', () => {
    const q = new FrameQueue<number>();
    q.push([1, 2, 3]);
    q.push([]);
    q.push([4, 5]);
    assert.equal(q.size, 5);
    assert.deepEqual(q.take(2), [1, 2]);
    assert.deepEqual(q.take(2), [3, 4]);
    assert.deepEqual(q.take(10), [5]);
    assert.deepEqual(q.take(10), []);
    assert.equal(q.size, 0);
  });

  it('webview: a frame applies chunks while its time budget lasts, and at least one', () => {
    const q = new FrameQueue<number>();
    q.push(Array.from({ length: 10 }, (_, i) => i));
    let clock = 0;
    const chunks: number[][] = [];
    // Each chunk "costs" 5 ms; the budget is 8 ms: two chunks fit (0 -> 5 -> 10 >= 8).
    const applied = drain(q, (c) => ((clock += 5), chunks.push(c)), () => clock, 8, 3);
    assert.equal(applied, 6);
    assert.deepEqual(chunks, [[0, 1, 2], [3, 4, 5]]);
    clock = 0;
    assert.equal(drain(q, () => (clock += 100), () => clock, 8, 3), 3, 'an expensive chunk still makes progress');
  });
});
