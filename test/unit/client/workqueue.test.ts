/**
 * client-go's workqueue tests (queue_test.go, delaying_queue_test.go, rate_limiting_queue_test.go,
 * default_rate_limiters_test.go) on the virtual clock.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import {
  BucketRateLimiter,
  DelayingQueue,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  RateLimitingQueue,
  runWorkers,
  WorkQueue,
} from '../../../src/engine/client/workqueue';
import { TokenBucket } from '../../../src/engine/client/flowcontrol/token-bucket';

/** Takes the next item: get() hands items out in a clock task. */
async function take<T extends NonNullable<unknown>>(clock: Clock, q: WorkQueue<T>): Promise<T | undefined> {
  const p = q.get();
  await clock.advance(0);
  return p;
}

describe('client/workqueue: queue', () => {
  it('deduplicates items waiting in the queue', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    q.add('foo');
    q.add('foo');
    q.add('bar');
    assert.equal(q.len(), 2);
    assert.equal(await take(clock, q), 'foo');
    assert.equal(await take(clock, q), 'bar');
    assert.equal(q.len(), 0);
  });

  it('re-adds an item added while processing only after done (TestAddWhileProcessing)', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    q.add('foo');
    const item = await take(clock, q);
    assert.equal(item, 'foo');
    q.add('foo');
    assert.equal(q.len(), 0, 'not queued while processing');
    assert.ok(q.isProcessing('foo'));
    q.done('foo');
    assert.equal(q.len(), 1);
    assert.equal(await take(clock, q), 'foo');
    q.done('foo');
    assert.equal(q.len(), 0);
  });

  it('TestReinsert: done without a re-add leaves the queue empty', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    q.add('foo');
    const i = await take(clock, q);
    q.done(i!);
    assert.equal(q.len(), 0);
  });

  it('drains queued items after shutDown, then returns undefined; adds are ignored', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    q.add('a');
    q.shutDown();
    q.add('b');
    assert.equal(await take(clock, q), 'a');
    assert.equal(await take(clock, q), undefined);
  });

  it('hands items to waiting workers in a clock task, which settle() runs', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    const got = q.get();
    assert.ok(clock.isQuiescent(), 'an idle worker is not pending work');
    q.add('x');
    assert.ok(!clock.isQuiescent());
    assert.deepEqual(clock.pending().map((t) => t.label), ['workqueue test']);
    await clock.settle();
    assert.equal(await got, 'x');
  });
});

describe('client/workqueue: workers', () => {
  it('never processes one key in two workers at once, and reprocesses a key added meanwhile', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'test', clock });
    const log: string[] = [];
    let active = 0;
    let maxActive = 0;
    let first = true;
    const stopped = runWorkers(q, 3, async (key) => {
      active++;
      maxActive = Math.max(maxActive, active);
      log.push(`start ${key}`);
      if (first) {
        first = false;
        q.add(key);
        q.add('other');
      }
      await new Promise<void>((resolve) => clock.setTimer(10, resolve));
      log.push(`end ${key}`);
      active--;
    });
    q.add('k');
    await clock.settle();
    assert.deepEqual(log, ['start k', 'start other', 'end k', 'end other', 'start k', 'end k']);
    assert.equal(maxActive, 2);
    q.shutDown();
    await clock.settle();
    await stopped;
  });

  it('surfaces a throwing processor to whoever drives the clock', async () => {
    const clock = new Clock();
    const q = new WorkQueue<string>({ name: 'broken', clock });
    void runWorkers(q, 1, async () => {
      throw new Error('boom');
    });
    q.add('k');
    await assert.rejects(clock.settle(), /clock: timer "workqueue broken: worker failed" failed: Error: boom/);
  });
});

describe('client/workqueue: delaying queue', () => {
  it('TestSimpleQueue: an item appears once its delay has passed', async () => {
    const clock = new Clock();
    const q = new DelayingQueue<string>({ name: 'test', clock });
    q.addAfter('foo', 50);
    assert.equal(q.len(), 0);
    assert.equal(q.waitingCount(), 1);
    await clock.advance(49);
    assert.equal(q.len(), 0);
    await clock.advance(11);
    assert.equal(q.len(), 1);
    assert.equal(await take(clock, q), 'foo');
    q.done('foo');
    await clock.advance(60_000);
    assert.equal(q.len(), 0);
  });

  it('TestDeduping: an item waiting keeps the earlier ready time', async () => {
    const clock = new Clock();
    const q = new DelayingQueue<string>({ name: 'test', clock });
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    assert.equal(q.waitingCount(), 1);
    await clock.advance(60);
    assert.equal(q.len(), 1);
    assert.equal(await take(clock, q), 'foo');
    q.done('foo');
    q.addAfter('foo', 70);
    q.addAfter('foo', 50);
    await clock.advance(60);
    assert.equal(q.len(), 1);
    assert.equal(await take(clock, q), 'foo');
    q.done('foo');
    await clock.advance(20);
    assert.equal(q.len(), 0);
  });

  it('TestAddTwoFireEarly and TestCopyShifting: items become ready in ready-time order', async () => {
    const clock = new Clock();
    const q = new DelayingQueue<string>({ name: 'test', clock });
    q.addAfter('first', 1000);
    q.addAfter('second', 500);
    q.addAfter('third', 250);
    await clock.advance(260);
    assert.equal(await take(clock, q), 'third');
    q.addAfter('fourth', 2000);
    await clock.advance(2000);
    assert.deepEqual([await take(clock, q), await take(clock, q), await take(clock, q)], ['second', 'first', 'fourth']);
  });

  it('a non-positive delay adds now; shutDown drops waiting items and their timers', async () => {
    const clock = new Clock();
    const q = new DelayingQueue<string>({ name: 'test', clock });
    q.addAfter('now', 0);
    assert.equal(q.len(), 1);
    q.addAfter('later', 1000);
    q.shutDown();
    assert.equal(q.waitingCount(), 0);
    assert.ok(!clock.pending().some((t) => t.label.includes('later')));
  });
});

describe('client/workqueue: rate limiters', () => {
  it('TestItemExponentialFailureRateLimiter', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => limiter.when('one')), [1, 2, 4, 8, 16]);
    assert.equal(limiter.numRequeues('one'), 5);
    assert.deepEqual([limiter.when('two'), limiter.when('two')], [1, 2]);
    assert.equal(limiter.numRequeues('two'), 2);
    limiter.forget('one');
    assert.equal(limiter.numRequeues('one'), 0);
    assert.equal(limiter.when('one'), 1);
  });

  it('TestItemExponentialFailureRateLimiterOverFlow: the delay stops at the maximum', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>(1, 1000 * 1000);
    for (let i = 0; i < 5; i++) limiter.when('one');
    assert.equal(limiter.when('one'), 32);
    for (let i = 0; i < 1000; i++) limiter.when('overflow1');
    assert.equal(limiter.when('overflow1'), 1000 * 1000);
  });

  it('the bucket allows a burst of 100, then one retry per 100 ms at 10 qps', async () => {
    const clock = new Clock();
    const limiter = new BucketRateLimiter<string>(new TokenBucket(10, 100, clock));
    for (let i = 0; i < 100; i++) assert.equal(limiter.when(`item${i}`), 0);
    assert.equal(limiter.when('a'), 100);
    assert.equal(limiter.when('b'), 200);
    await clock.advance(1000);
    assert.equal(limiter.when('c'), 0, '10 tokens refilled, 2 owed');
  });

  it('DefaultControllerRateLimiter: 5 ms doubling per item, bounded by the bucket', () => {
    const clock = new Clock();
    const limiter = defaultControllerRateLimiter<string>(clock);
    assert.deepEqual([0, 1, 2, 3].map(() => limiter.when('k')), [5, 10, 20, 40]);
    for (let i = 4; i < 100; i++) limiter.when(`item${i}`);
    assert.equal(limiter.when('fresh'), 100, 'bucket empty: 100 ms beats 5 ms');
    assert.equal(limiter.numRequeues('k'), 4);
    limiter.forget('k');
    assert.equal(limiter.numRequeues('k'), 0);
  });

  it('the token bucket refuses without taking when empty (tryAccept)', async () => {
    const clock = new Clock();
    const bucket = new TokenBucket(1 / 300, 2, clock);
    assert.ok(bucket.tryAccept());
    assert.ok(bucket.tryAccept());
    assert.ok(!bucket.tryAccept());
    await clock.advance(299_000);
    assert.ok(!bucket.tryAccept());
    await clock.advance(1000);
    assert.ok(bucket.tryAccept());
  });
});

describe('client/workqueue: rate-limiting queue', () => {
  it('TestRateLimitingQueue: addRateLimited waits the backoff, forget resets it', async () => {
    const clock = new Clock();
    const q = new RateLimitingQueue<string>({ name: 'test', clock, rateLimiter: new ItemExponentialFailureRateLimiter(1, 1000) });
    assert.equal(q.addRateLimited('one'), 1);
    assert.equal(q.addRateLimited('one'), 2);
    assert.equal(q.waitingCount(), 1);
    assert.equal(q.addRateLimited('two'), 1);
    assert.equal(q.numRequeues('one'), 2);
    q.forget('one');
    assert.equal(q.numRequeues('one'), 0);
    assert.equal(q.addRateLimited('one'), 1);
    await clock.advance(1);
    assert.equal(q.len(), 2);
  });

  it('uses DefaultControllerRateLimiter by default', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue<string>({ name: 'test', clock });
    assert.equal(q.addRateLimited('k'), 5);
    assert.equal(q.addRateLimited('k'), 10);
  });
});
