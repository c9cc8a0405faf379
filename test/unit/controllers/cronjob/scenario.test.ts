/** CronJobs against the API server: a Job per activation, Forbid, history limits. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import { CronJobController, CRONJOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/cronjob/controller';
import { EVENTS, JOBS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { CronJob } from '../../../../src/engine/controllers/cronjob/types';
import type { Job } from '../../../../src/engine/controllers/util/types/job';

const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' };

describe('controllers/cronjob scenario', () => {
  it('creates a Job each minute; Forbid waits for the running one; finished Jobs beyond the limit go', async () => {
    const h = await controllerHarness();
    h.start(new CronJobController(h.deps(CRONJOB_CONTROLLER_ACCOUNT)));
    await h.admin.resource(CRONJOBS, 'default').create({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'hello' },
      spec: {
        schedule: '*/1 * * * *',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } },
      },
    } as KubeObject);
    await h.clock.advance(61_000);
    let jobs = (await h.admin.resource<Job>(JOBS, 'default').list()).items;
    assert.deepEqual(jobs.map((j) => j.metadata.name), ['hello-28928161']);
    assert.equal(jobs[0]!.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2025-01-01T00:01:00Z');
    assert.equal(jobs[0]!.metadata.ownerReferences?.[0]?.kind, 'CronJob');
    let cj = await h.admin.resource<CronJob>(CRONJOBS, 'default').get('hello');
    assert.equal(cj.status?.lastScheduleTime, '2025-01-01T00:01:00Z');
    assert.deepEqual(cj.status?.active?.map((r) => r.name), ['hello-28928161']);

    await h.clock.advance(60_000);
    assert.equal((await h.admin.resource<Job>(JOBS, 'default').list()).items.length, 1, 'Forbid: the first Job still runs');

    // The first Job completes; the 00:02 activation it held back starts late (no startingDeadlineSeconds).
    const first = deepCopy(jobs[0]!);
    first.status = { conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: h.clock.rfc3339(), lastTransitionTime: h.clock.rfc3339() }, { type: 'Complete', status: 'True', lastProbeTime: h.clock.rfc3339(), lastTransitionTime: h.clock.rfc3339() }], completionTime: h.clock.rfc3339(), startTime: '2025-01-01T00:01:00Z', succeeded: 1 };
    await h.admin.resource<Job>(JOBS, 'default').updateStatus(first);
    await h.clock.advance(60_000);
    jobs = (await h.admin.resource<Job>(JOBS, 'default').list()).items;
    assert.deepEqual(jobs.map((j) => j.metadata.name).sort(), ['hello-28928161', 'hello-28928162']);
    cj = await h.admin.resource<CronJob>(CRONJOBS, 'default').get('hello');
    assert.equal(cj.status?.lastSuccessfulTime, '2025-01-01T00:02:01Z');

    // The second completes too: with successfulJobsHistoryLimit 1 the older one goes.
    const second = deepCopy(jobs.find((j) => j.metadata.name === 'hello-28928162')!);
    second.status = { conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: h.clock.rfc3339(), lastTransitionTime: h.clock.rfc3339() }, { type: 'Complete', status: 'True', lastProbeTime: h.clock.rfc3339(), lastTransitionTime: h.clock.rfc3339() }], completionTime: h.clock.rfc3339(), startTime: h.clock.rfc3339(), succeeded: 1 };
    await h.admin.resource<Job>(JOBS, 'default').updateStatus(second);
    await h.clock.settle({ maxDuration: 1000 });
    jobs = (await h.admin.resource<Job>(JOBS, 'default').list()).items;
    assert.ok(!jobs.some((j) => j.metadata.name === 'hello-28928161' && !j.metadata.deletionTimestamp), 'the oldest successful Job is deleted');

    const events = ((await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string })[]).map((e) => `${e.reason}: ${e.message}`);
    assert.deepEqual(events, [
      'SuccessfulCreate: Created job hello-28928161',
      'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid',
      'SawCompletedJob: Saw completed job: hello-28928161, status: Complete',
      'SuccessfulCreate: Created job hello-28928162',
      'SuccessfulDelete: Deleted job hello-28928161',
      'SawCompletedJob: Saw completed job: hello-28928162, status: Complete',
      'SuccessfulCreate: Created job hello-28928163',
    ]);
    await h.close();
  });
});
