import { strict as assert } from 'node:assert';
import { Clock } from '../../src/engine/clock';
import { Random } from '../../src/engine/random';

describe('Clock', () => {
  it('fires timers in time order, then insertion order', async () => {
    const clock = new Clock(0);
    const seen: string[] = [];
    clock.setTimer(20, () => void seen.push('b@20'));
    clock.setTimer(10, () => void seen.push('a@10'));
    clock.setTimer(20, () => void seen.push('c@20'));
    clock.setTimer(30, () => void seen.push('d@30'));
    await clock.advance(25);
    assert.deepEqual(seen, ['a@10', 'b@20', 'c@20']);
    assert.equal(clock.now(), 25);
    await clock.advance(5);
    assert.deepEqual(seen, ['a@10', 'b@20', 'c@20', 'd@30']);
  });

  it('lets async work finish at its own instant before time moves on', async () => {
    const clock = new Clock(0);
    const times: number[] = [];
    clock.setTimer(10, async () => {
      for (let i = 0; i < 50; i++) await Promise.resolve();
      times.push(clock.now());
      clock.setTimer(0, () => void times.push(clock.now()));
    });
    clock.setTimer(11, () => void times.push(clock.now()));
    await clock.settle();
    assert.deepEqual(times, [10, 10, 11]);
  });

  it('settles when only daemon timers remain, passing through the ones due on the way', async () => {
    const clock = new Clock(0);
    let renewals = 0;
    const renew = (): void => {
      renewals++;
      clock.setTimer(10_000, renew, { daemon: true, label: 'lease renew' });
    };
    clock.setTimer(10_000, renew, { daemon: true, label: 'lease renew' });
    clock.setTimer(35_000, () => undefined, { label: 'image pull' });
    const result = await clock.settle();
    assert.equal(result.settled, true);
    assert.equal(clock.now(), 35_000);
    assert.equal(renewals, 3);
  });

  it('reports what keeps it from settling', async () => {
    const clock = new Clock(0);
    const loop = (): void => void clock.setTimer(1000, loop, { label: 'crash loop' });
    loop();
    const result = await clock.settle({ maxDuration: 5000 });
    assert.equal(result.settled, false);
    assert.deepEqual(result.pending, ['crash loop']);
    assert.equal(clock.now(), 5000);
  });

  it('cancels timers', async () => {
    const clock = new Clock(0);
    let fired = false;
    const t = clock.setTimer(5, () => void (fired = true));
    clock.clearTimer(t);
    assert.equal(clock.isQuiescent(), true);
    await clock.advance(10);
    assert.equal(fired, false);
  });

  it('keeps the order of live timers when it drops many cancelled ones (a request timeout per write)', async () => {
    const clock = new Clock(0);
    const fired: [number, number][] = [];
    const seen: number[] = [];
    const rnd = new Random('heap');
    const live: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const at = rnd.int(50);
      const t = clock.setTimer(at, () => void fired.push([clock.now(), i]));
      // Most timers are cancelled soon after they are set, as etcd's 7 s request timeout is.
      if (i % 10 !== 0) clock.clearTimer(t);
      else live.push(i);
      if (i % 100 === 99) await clock.advance(1);
    }
    await clock.settle();
    // Every live timer ran once, in (time, insertion) order.
    assert.deepEqual(fired.map(([, i]) => i).sort((a, b) => a - b), live);
    for (let k = 1; k < fired.length; k++) {
      const [t0, i0] = fired[k - 1]!;
      const [t1, i1] = fired[k]!;
      assert.ok(t0 < t1 || (t0 === t1 && i0 < i1), `timer ${i1} at ${t1} ran after ${i0} at ${t0}`);
    }
    assert.deepEqual(clock.pending(), []);
    // Cancelling a timer that already ran, or twice, changes nothing.
    const t = clock.setTimer(1, () => void seen.push(-1));
    await clock.advance(1);
    clock.clearTimer(t);
    clock.clearTimer(t);
    assert.equal(seen.at(-1), -1);
    assert.equal(clock.nextTimerAt(), undefined);
  });

  it('keeps the (time, sequence) order when a picked timer is taken from inside the heap', async () => {
    // A timer the clock picked is no longer the top when work that ran between the pick and the
    // run set an earlier one (under the latency model, a Raft message a fraction of a ms away).
    const clock = new Clock(0);
    const internals = clock as unknown as { heap: { label: string }[]; remove(entry: unknown): void };
    const rnd = new Random('heap-remove');
    const fired: number[] = [];
    const all: { at: number; i: number }[] = [];
    const entries: unknown[] = [];
    for (let i = 0; i < 600; i++) {
      const at = rnd.int(40);
      all.push({ at, i });
      entries.push(clock.setTimer(at, () => void fired.push(i)));
    }
    // Take every third timer out from wherever it sits in the heap, as a run would.
    const removed = new Set<number>();
    for (let i = 0; i < 600; i += 3) {
      clock.clearTimer(entries[i] as Parameters<Clock['clearTimer']>[0]);
      internals.remove(entries[i]);
      removed.add(i);
      assert.equal(internals.heap.length, 600 - removed.size);
    }
    await clock.advance(100);
    const expected = all
      .filter(({ i }) => !removed.has(i))
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map(({ i }) => i);
    assert.deepEqual(fired, expected);
  });

  it('surfaces a failing timer to the caller that drives time', async () => {
    const clock = new Clock(0);
    clock.setTimer(1, () => {
      throw new Error('boom');
    }, { label: 'bad' });
    await assert.rejects(clock.settle(), /timer "bad" failed: Error: boom/);
  });

  it('waits for held I/O before settling', async () => {
    const clock = new Clock(0);
    const release = clock.hold();
    let done = false;
    setTimeout(() => {
      done = true;
      release();
    }, 5);
    const result = await clock.settle();
    assert.equal(result.settled, true);
    assert.equal(done, true);
  });

  it('formats Kubernetes timestamps', () => {
    const clock = new Clock(Date.UTC(2025, 0, 1, 12, 30, 15, 250));
    assert.equal(clock.rfc3339(), '2025-01-01T12:30:15Z');
    assert.equal(clock.rfc3339Micro(), '2025-01-01T12:30:15.250000Z');
  });
});

describe('Random', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = new Random('seed-1');
    const b = new Random('seed-1');
    const c = new Random('seed-2');
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    const seqB = Array.from({ length: 5 }, () => b.nextUint32());
    const seqC = Array.from({ length: 5 }, () => c.nextUint32());
    assert.deepEqual(seqA, seqB);
    assert.notDeepEqual(seqA, seqC);
  });

  it('generates names from the apimachinery alphabet and v4 UUIDs', () => {
    const r = new Random(1);
    assert.match(r.string(5), /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.match(r.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps integers in range', () => {
    const r = new Random(7);
    for (let i = 0; i < 1000; i++) {
      const v = r.int(3);
      assert.ok(v >= 0 && v < 3);
    }
  });
});
