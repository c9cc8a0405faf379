/** ttlafterfinished_controller_test.go TestTimeLeft: when a finished Job expires. */
import { strict as assert } from 'node:assert';
import { needsCleanup, ttlLeftMs, type Job } from '../../../../src/engine/controllers/ttlafterfinished/ttl';

const NOW = Date.parse('2025-01-01T00:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

function job(ttl: number | undefined, finished?: { type: 'Complete' | 'Failed'; agoMs: number } | { type: 'Complete'; noTime: true }): Job {
  const j: Job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'test', namespace: 'default' }, spec: { template: {} }, status: {} };
  if (ttl !== undefined) j.spec!.ttlSecondsAfterFinished = ttl;
  if (finished && 'noTime' in finished) j.status!.conditions = [{ type: finished.type, status: 'True' }];
  else if (finished) j.status!.conditions = [{ type: finished.type, status: 'True', lastTransitionTime: iso(NOW - finished.agoMs) }];
  return j;
}

describe('controllers/ttlafterfinished ttl', () => {
  const cases: { name: string; job: Job; want: number | undefined | string }[] = [
    { name: 'Job unfinished', job: job(10), want: undefined },
    { name: 'Job completed now, no TTL', job: job(undefined, { type: 'Complete', agoMs: 0 }), want: undefined },
    { name: 'Job completed now, 0s TTL', job: job(0, { type: 'Complete', agoMs: 0 }), want: 0 },
    { name: 'Job completed now, 10s TTL', job: job(10, { type: 'Complete', agoMs: 0 }), want: 10_000 },
    { name: 'Job completed 10s ago, 15s TTL', job: job(15, { type: 'Complete', agoMs: 10_000 }), want: 5_000 },
    { name: 'Job failed now, no TTL', job: job(undefined, { type: 'Failed', agoMs: 0 }), want: undefined },
    { name: 'Job failed now, 0s TTL', job: job(0, { type: 'Failed', agoMs: 0 }), want: 0 },
    { name: 'Job failed now, 10s TTL', job: job(10, { type: 'Failed', agoMs: 0 }), want: 10_000 },
    { name: 'Job failed 10s ago, 15s TTL', job: job(15, { type: 'Failed', agoMs: 10_000 }), want: 5_000 },
    { name: 'Job finished 20s ago, 10s TTL: overdue', job: job(10, { type: 'Complete', agoMs: 20_000 }), want: -10_000 },
    { name: 'Error case: no finish time', job: job(10, { type: 'Complete', noTime: true }), want: 'unable to find the time when the Job default/test finished' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = ttlLeftMs(c.job, NOW);
      assert.deepEqual(got instanceof Error ? got.message : got, c.want);
    });
  }

  it('a Job being deleted or not finished needs no cleanup', () => {
    const deleting = job(0, { type: 'Complete', agoMs: 0 });
    deleting.metadata.deletionTimestamp = iso(NOW);
    assert.equal(ttlLeftMs(deleting, NOW), undefined);
    assert.equal(needsCleanup(job(0)), false);
    assert.equal(needsCleanup(job(0, { type: 'Failed', agoMs: 0 })), true);
    const falseCondition = job(0);
    falseCondition.status!.conditions = [{ type: 'Complete', status: 'False', lastTransitionTime: iso(NOW) }];
    assert.equal(needsCleanup(falseCondition), false);
  });
});
