import { strict as assert } from 'node:assert';
import { formatGoDuration } from '../../../src/engine/api/duration';
import { Backoff, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS } from '../../../src/engine/kubelet/backoff';

describe('kubelet/duration', () => {
  it("formats as Go's time.Duration.String", () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [313, '313ms'],
      [1000, '1s'],
      [1200, '1.2s'],
      [5419, '5.419s'],
      [10_000, '10s'],
      [80_000, '1m20s'],
      [160_000, '2m40s'],
      [300_000, '5m0s'],
      [3_600_000, '1h0m0s'],
      [3_723_500, '1h2m3.5s'],
    ];
    for (const [ms, text] of cases) assert.equal(formatGoDuration(ms), text, String(ms));
  });
});

describe('kubelet/backoff (flowcontrol.Backoff)', () => {
  it('gives CrashLoopBackOff its sequence: no wait after the first exit, then 10s doubling to 5m', () => {
    const b = new Backoff();
    const waits: number[] = [];
    let now = 0;
    for (let exit = 0; exit < 9; exit++) {
      now += 5000; // each instance runs 5 s
      const finishedAt = now;
      if (b.isInBackOffSince('c', finishedAt, now)) {
        waits.push(b.get('c'));
        now = finishedAt + b.get('c');
        assert.equal(b.isInBackOffSince('c', finishedAt, now - 1), true);
        assert.equal(b.isInBackOffSince('c', finishedAt, now), false);
      } else waits.push(0);
      b.next('c', finishedAt, now);
    }
    assert.deepEqual(waits, [0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    assert.equal(INITIAL_BACKOFF_MS, 10_000);
    assert.equal(MAX_BACKOFF_MS, 300_000);
  });

  it('starts over after a container ran for more than 10 minutes', () => {
    const b = new Backoff();
    b.next('c', 0, 0);
    b.next('c', 5000, 5000);
    assert.equal(b.get('c'), 20_000);
    // Restarted at 5 s, exited 10 min + 1 ms later: expired.
    assert.equal(b.isInBackOffSince('c', 605_001, 605_001), false);
    b.next('c', 605_001, 605_001);
    assert.equal(b.get('c'), 10_000);
    // Exactly 10 minutes is not yet expired.
    const c = new Backoff();
    c.next('k', 0, 0);
    c.next('k', 600_000, 600_000);
    assert.equal(c.get('k'), 20_000);
  });

  it('counts image pull back-off from the last failed pull', () => {
    const b = new Backoff();
    b.next('uid_nginx:bad', 2000, 2000);
    assert.equal(b.isInBackOffSinceUpdate('uid_nginx:bad', 11_999), true);
    assert.equal(b.isInBackOffSinceUpdate('uid_nginx:bad', 12_000), false);
    assert.equal(b.endSinceUpdate('uid_nginx:bad'), 12_000);
    b.deletePrefix('uid_');
    assert.equal(b.get('uid_nginx:bad'), 0);
  });
});
