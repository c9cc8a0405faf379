/** backoff_utils_test.go: the failure backoff of new pods, and condition updates. */
import { strict as assert } from 'node:assert';
import { nextBackoffRecord, remainingBackoffMs } from '../../../../src/engine/controllers/job/backoff';
import { ensureCondition } from '../../../../src/engine/controllers/job/conditions';
import type { Pod } from '../../../../src/engine/controllers/util/types/job';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const pod = (phase: string, finishedAt: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {},
  status: { phase, containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, finishedAt: new Date(finishedAt).toISOString() } } }] },
});

describe('controllers/job backoff and conditions', () => {
  it('failures after the last success count; the delay doubles from 10 s up to 10 min', () => {
    let r = nextBackoffRecord({ failuresAfterLastSuccess: 0 }, [], [pod('Failed', T0)], T0);
    assert.deepEqual(r, { failuresAfterLastSuccess: 1, lastFailureTime: T0 });
    assert.equal(remainingBackoffMs(r, T0 + 4000), 6000);
    r = nextBackoffRecord(r, [], [pod('Failed', T0 + 20_000)], T0);
    assert.equal(remainingBackoffMs(r, T0 + 20_000), 20_000);
    assert.equal(remainingBackoffMs({ failuresAfterLastSuccess: 10, lastFailureTime: T0 }, T0), 600_000);
    assert.deepEqual(nextBackoffRecord(r, [pod('Succeeded', T0 + 30_000)], [pod('Failed', T0 + 25_000), pod('Failed', T0 + 35_000)], T0), { failuresAfterLastSuccess: 1, lastFailureTime: T0 + 35_000 });
    assert.deepEqual(nextBackoffRecord(r, [pod('Succeeded', T0 + 30_000)], [], T0), { failuresAfterLastSuccess: 0 });
  });

  it('ensureJobConditionStatus: a new True condition is added, a False one is not; a status change moves both times', () => {
    const [added, changed] = ensureCondition([], 'Suspended', 'True', 'JobSuspended', 'Job suspended', 't1');
    assert.ok(changed);
    assert.deepEqual(added, [{ type: 'Suspended', status: 'True', lastProbeTime: 't1', lastTransitionTime: 't1', reason: 'JobSuspended', message: 'Job suspended' }]);
    assert.deepEqual(ensureCondition([], 'Suspended', 'False', 'JobResumed', 'Job resumed', 't1'), [[], false]);
    const [resumed] = ensureCondition(added, 'Suspended', 'False', 'JobResumed', 'Job resumed', 't2');
    assert.deepEqual(resumed, [{ type: 'Suspended', status: 'False', lastProbeTime: 't2', lastTransitionTime: 't2', reason: 'JobResumed', message: 'Job resumed' }]);
  });
});
