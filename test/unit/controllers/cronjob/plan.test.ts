/**
 * The CronJob controller's planners, table-driven. The sync table follows upstream's
 * TestControllerV2SyncCronJob (pkg/controller/cronjob/cronjob_controllerv2_test.go): the same
 * cases, times and expectations, run through the planners the way controller.ts runs them (an
 * active Job the lister misses is found by the API read, as upstream's fake job control answers).
 */
import { strict as assert } from 'node:assert';
import { jobFromTemplate, jobsBeyondHistoryLimits, missingJobEvent, planSchedule, reconcileActive, recordStarted, removeActive, jobRef, type CronJobEvent } from '../../../../src/engine/controllers/cronjob/plan';
import { parseSchedule } from '../../../../src/engine/controllers/cronjob/schedule';
import { jobNameFor } from '../../../../src/engine/controllers/cronjob/times';
import type { CronJob } from '../../../../src/engine/controllers/cronjob/types';
import type { Job } from '../../../../src/engine/controllers/util/types/job';

const t = (s: string): number => Date.parse(s);
const topOfTheHour = t('2016-05-19T10:00:00Z');
const justAfterThePriorHour = t('2016-05-19T09:01:00Z');
const justBeforeThePriorHour = t('2016-05-19T08:59:00Z');
const justAfterTheHour = t('2016-05-19T10:01:00Z');
const justBeforeTheHour = t('2016-05-19T09:59:00Z');
const weekAfterTheHour = t('2016-05-26T10:00:00Z');

const shortDead = 10;
const mediumDead = 2 * 60 * 60;
const longDead = 1000000;
const noDead = undefined;
const errorSchedule = 'obvious error schedule';
const onTheHour = '0 * * * ?';

function cronJob(): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'mycronjob', namespace: 'snazzycats', uid: '1a2b3c', creationTimestamp: new Date(justBeforeTheHour).toISOString() },
    spec: {
      schedule: '* * * * ?',
      concurrencyPolicy: 'Allow',
      jobTemplate: {
        metadata: { labels: { a: 'b' }, annotations: { x: 'y' } },
        spec: { parallelism: 1, completions: 1, template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: '', image: 'foo/bar' }] } } },
      },
    },
    status: {},
  };
}

interface Case {
  policy: 'Allow' | 'Forbid' | 'Replace';
  suspend: boolean;
  schedule: string;
  deadline: number | undefined;
  ranPreviously: boolean;
  stillActive: boolean;
  jobCreationTime: number;
  now: number;
  expectCreate: boolean;
  expectDelete: boolean;
  expectActive: number;
  expectedWarnings: number;
  expectRequeueAfter: boolean;
  jobStillNotFoundInLister: boolean;
  jobPresentInCJActiveStatus: boolean;
}

const A = 'Allow';
const f = 'Forbid';
const R = 'Replace';
const T = true;
const F = false;
// Upstream's columns, minus expectErr (never set) and jobCreateError (used by one case whose
// sync never reaches the create).
type Row = [Case['policy'], boolean, string, number | undefined, boolean, boolean, number, number, boolean, boolean, number, number, boolean, boolean, boolean];
const rows: Record<string, Row> = {
  'never ran, not valid schedule, A': [A, F, errorSchedule, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 1, F, F, T],
  'never ran, not valid schedule, F': [f, F, errorSchedule, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 1, F, F, T],
  'never ran, not valid schedule, R': [f, F, errorSchedule, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 1, F, F, T],
  'never ran, not time, A': [A, F, onTheHour, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'never ran, not time, F': [f, F, onTheHour, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'never ran, not time, R': [R, F, onTheHour, noDead, F, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'never ran, is time, A': [A, F, onTheHour, noDead, F, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'never ran, is time, F': [f, F, onTheHour, noDead, F, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'never ran, is time, R': [R, F, onTheHour, noDead, F, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'never ran, is time, suspended': [A, T, onTheHour, noDead, F, F, justAfterThePriorHour, justAfterTheHour, F, F, 0, 0, F, F, T],
  'never ran, is time, past deadline': [A, F, onTheHour, shortDead, F, F, justAfterThePriorHour, justAfterTheHour + (shortDead + 1) * 60_000, F, F, 0, 0, T, F, T],
  'never ran, is time, not past deadline': [A, F, onTheHour, longDead, F, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],

  'prev ran but done, not time, A': [A, F, onTheHour, noDead, T, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'prev ran but done, not time, F': [f, F, onTheHour, noDead, T, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'prev ran but done, not time, R': [R, F, onTheHour, noDead, T, F, justAfterThePriorHour, justBeforeTheHour, F, F, 0, 0, T, F, T],
  'prev ran but done, is time, A': [A, F, onTheHour, noDead, T, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, is time, F': [f, F, onTheHour, noDead, T, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, is time, R': [R, F, onTheHour, noDead, T, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, is time, suspended': [A, T, onTheHour, noDead, T, F, justAfterThePriorHour, justAfterTheHour, F, F, 0, 0, F, F, T],
  'prev ran but done, is time, past deadline': [A, F, onTheHour, shortDead, T, F, justAfterThePriorHour, justAfterTheHour, F, F, 0, 0, T, F, T],
  'prev ran but done, is time, not past deadline': [A, F, onTheHour, longDead, T, F, justAfterThePriorHour, justAfterTheHour, T, F, 1, 0, T, F, T],

  'still active, not time, A': [A, F, onTheHour, noDead, T, T, justAfterThePriorHour, justBeforeTheHour, F, F, 1, 0, T, F, T],
  'still active, not time, F': [f, F, onTheHour, noDead, T, T, justAfterThePriorHour, justBeforeTheHour, F, F, 1, 0, T, F, T],
  'still active, not time, R': [R, F, onTheHour, noDead, T, T, justAfterThePriorHour, justBeforeTheHour, F, F, 1, 0, T, F, T],
  'still active, is time, A': [A, F, onTheHour, noDead, T, T, justAfterThePriorHour, justAfterTheHour, T, F, 2, 0, T, F, T],
  'still active, is time, F': [f, F, onTheHour, noDead, T, T, justAfterThePriorHour, justAfterTheHour, F, F, 1, 0, T, F, T],
  'still active, is time, R': [R, F, onTheHour, noDead, T, T, justAfterThePriorHour, justAfterTheHour, T, T, 1, 0, T, F, T],
  'still active, is time, suspended': [A, T, onTheHour, noDead, T, T, justAfterThePriorHour, justAfterTheHour, F, F, 1, 0, F, F, T],
  'still active, is time, past deadline': [A, F, onTheHour, shortDead, T, T, justAfterThePriorHour, justAfterTheHour, F, F, 1, 0, T, F, T],
  'still active, is time, not past deadline': [A, F, onTheHour, longDead, T, T, justAfterThePriorHour, justAfterTheHour, T, F, 2, 0, T, F, T],

  'prev ran but done, long overdue, not past deadline, A': [A, F, onTheHour, longDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],
  'prev ran but done, long overdue, not past deadline, R': [R, F, onTheHour, longDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],
  'prev ran but done, long overdue, not past deadline, F': [f, F, onTheHour, longDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],
  'prev ran but done, long overdue, no deadline, A': [A, F, onTheHour, noDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],
  'prev ran but done, long overdue, no deadline, R': [R, F, onTheHour, noDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],
  'prev ran but done, long overdue, no deadline, F': [f, F, onTheHour, noDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 1, T, F, T],

  'prev ran but done, long overdue, past medium deadline, A': [A, F, onTheHour, mediumDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, long overdue, past short deadline, A': [A, F, onTheHour, shortDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, long overdue, past medium deadline, R': [R, F, onTheHour, mediumDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, long overdue, past short deadline, R': [R, F, onTheHour, shortDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, long overdue, past medium deadline, F': [f, F, onTheHour, mediumDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],
  'prev ran but done, long overdue, past short deadline, F': [f, F, onTheHour, shortDead, T, F, justAfterThePriorHour, weekAfterTheHour, T, F, 1, 0, T, F, T],

  // Time skew: the controller sees the Job it created and does nothing.
  'this ran but done, time drifted back, F': [f, F, onTheHour, noDead, T, F, justAfterTheHour, justBeforeTheHour, F, F, 0, 0, T, F, F],

  // A slow Job lister: the active Job is read from the API.
  'this started but went missing, not past deadline, A': [A, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, T, T],
  'this started but went missing, not past deadline, f': [f, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, T, T],
  'this started but went missing, not past deadline, R': [R, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, T, T],

  // A slow CronJob lister: the Job is listed but not yet in status.active.
  'this started but is not present in cronjob active list, not past deadline, A': [A, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, F, F],
  'this started but is not present in cronjob active list, not past deadline, f': [f, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, F, F],
  'this started but is not present in cronjob active list, not past deadline, R': [R, F, onTheHour, longDead, T, T, topOfTheHour + 100, justAfterTheHour + 100, F, F, 1, 0, T, F, F],
};

/**
 * Upstream reads the CronJob again when it lists an unfinished Job missing from status.active and
 * takes the fresh copy if the Job is there; kubesim reports UnexpectedJob from the cached copy
 * (docs/deviations.md). In these cases the fresh copy would hold the Job.
 */
const NO_REREAD_OF_CRONJOB = new Set(Object.keys(rows).filter((name) => name.startsWith('this started but is not present')));

interface Outcome {
  events: CronJobEvent[];
  creates: Job[];
  deletes: string[];
  active: number;
  lastSuccessfulTime?: string;
  requeueAfterMs?: number;
}

/**
 * One sync as controller.ts performs it: every delete succeeds, every read of an active Job finds
 * it, and a create answers AlreadyExists when a listed Job has the name.
 */
function sync(cj: CronJob, jobs: readonly Job[], now: number): Outcome {
  const reconciled = reconcileActive(cj.status ?? {}, jobs);
  const status = reconciled.status;
  const events = [...reconciled.events];
  const creates: Job[] = [];
  const deletes: string[] = [];
  const decision = planSchedule(cj, status, now);
  events.push(...decision.events);
  let requeueAfterMs = decision.requeueAfterMs;
  if (decision.start) {
    for (const ref of decision.start.replace) {
      deletes.push(ref.name ?? '');
      removeActive(status, ref.uid ?? '');
      events.push({ eventType: 'Normal', reason: 'SuccessfulDelete', message: `Deleted job ${ref.name ?? ''}` });
    }
    // A Job of that name already there answers AlreadyExists; the sync reads it and takes it if it is its own.
    const existing = jobs.find((j) => j.metadata.name === decision.start?.job.metadata.name);
    if (!existing) {
      const created = { ...decision.start.job, metadata: { ...decision.start.job.metadata, uid: 'created' } };
      creates.push(created);
      events.push({ eventType: 'Normal', reason: 'SuccessfulCreate', message: `Created job ${created.metadata.name ?? ''}` });
      recordStarted(status, created, decision.start.scheduled);
      requeueAfterMs = decision.start.requeueAfterMs;
    } else if (!(status.active ?? []).some((r) => r.uid === existing.metadata.uid)) {
      recordStarted(status, existing, decision.start.scheduled);
      requeueAfterMs = decision.start.requeueAfterMs;
    }
  }
  const out: Outcome = { events, creates, deletes, active: (status.active ?? []).length };
  if (status.lastSuccessfulTime) out.lastSuccessfulTime = status.lastSuccessfulTime;
  if (requeueAfterMs !== undefined) out.requeueAfterMs = requeueAfterMs;
  return out;
}

describe('controllers/cronjob planners (TestControllerV2SyncCronJob)', () => {
  for (const [name, row] of Object.entries(rows)) {
    const [policy, suspend, schedule, deadline, ranPreviously, stillActive, jobCreationTime, now, expectCreate, expectDelete, expectActive, expectedWarnings, expectRequeueAfter, jobStillNotFoundInLister, jobPresentInCJActiveStatus] = row;
    it(name, () => {
      const cj = cronJob();
      cj.spec.concurrencyPolicy = policy;
      cj.spec.suspend = suspend;
      cj.spec.schedule = schedule;
      if (deadline !== undefined) cj.spec.startingDeadlineSeconds = deadline;
      const jobs: Job[] = [];
      if (ranPreviously) {
        cj.metadata.creationTimestamp = new Date(justBeforeThePriorHour).toISOString();
        cj.status = { lastScheduleTime: new Date(justAfterThePriorHour).toISOString() };
        const job = jobFromTemplate(cj, jobNameFor(cj.metadata.name ?? '', jobCreationTime), jobCreationTime);
        job.metadata.uid = '1234';
        job.metadata.creationTimestamp = new Date(jobCreationTime).toISOString();
        if (stillActive) {
          if (jobPresentInCJActiveStatus) cj.status.active = [jobRef(job)];
        } else {
          job.status = { completionTime: new Date(jobCreationTime + 10_000).toISOString(), conditions: [{ type: 'Complete', status: 'True' }] };
        }
        if (!jobStillNotFoundInLister) jobs.push(job);
      } else {
        assert.ok(!stillActive, 'test setup error: this case makes no sense');
      }

      const out = sync(cj, jobs, now);
      // What the lister missed, the API read found: nothing went missing.
      assert.ok(!out.events.some((e) => e.reason === missingJobEvent({}).reason));

      if (expectRequeueAfter) {
        const next = parseSchedule(schedule).next(now);
        assert.equal(out.requeueAfterMs, next! + 100 - now, 'requeueAfter');
      }
      if (ranPreviously && !stillActive) assert.equal(out.lastSuccessfulTime, new Date(jobCreationTime + 10_000).toISOString());
      assert.equal(out.creates.length, expectCreate ? 1 : 0, 'creates');
      for (const job of out.creates) {
        const ref = (job.metadata.ownerReferences ?? []).find((r) => r.controller);
        assert.deepEqual(ref && [ref.apiVersion, ref.kind, ref.name, ref.uid, ref.controller], ['batch/v1', 'CronJob', cj.metadata.name, cj.metadata.uid, true]);
      }
      assert.equal(out.deletes.length, expectDelete ? 1 : 0, 'deletes');
      const unexpected = NO_REREAD_OF_CRONJOB.has(name) ? 1 : 0;
      let expectedEvents = expectedWarnings + unexpected + (expectCreate ? 1 : 0) + (expectDelete ? 1 : 0);
      if (name === 'still active, is time, F') expectedEvents++;
      assert.equal(out.events.length, expectedEvents, `events ${JSON.stringify(out.events)}`);
      assert.equal(out.events.filter((e) => e.eventType === 'Warning').length, expectedWarnings + unexpected, 'warnings');
      assert.equal(out.active, expectActive, 'active');
    });
  }

  it('the planners leave the CronJob they are given alone (syncCronJob works on a copy)', () => {
    const cj = cronJob();
    cj.spec.schedule = onTheHour;
    cj.status = { active: [{ kind: 'Job', name: 'old', uid: 'old' }] };
    const before = structuredClone(cj);
    const reconciled = reconcileActive(cj.status, [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'old', uid: 'old' }, spec: { template: {} }, status: { conditions: [{ type: 'Failed', status: 'True' }] } }]);
    planSchedule(cj, reconciled.status, justAfterTheHour);
    assert.deepEqual(cj, before);
    assert.deepEqual(reconciled.status, {});
  });
});

describe('controllers/cronjob history limits (cleanupFinishedJobs)', () => {
  const job = (name: string, type: 'Complete' | 'Failed' | undefined, start?: string): Job => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, uid: name },
    spec: { template: {} },
    status: { ...(start ? { startTime: start } : {}), ...(type ? { conditions: [{ type, status: 'True' }] } : {}) },
  });
  const jobs = [job('c3', 'Complete', '2016-05-19T03:00:00Z'), job('c1', 'Complete', '2016-05-19T01:00:00Z'), job('f1', 'Failed', '2016-05-19T01:30:00Z'), job('c2', 'Complete', '2016-05-19T02:00:00Z'), job('run', undefined, '2016-05-19T00:00:00Z'), job('f0', 'Failed')];
  const cases: [string, number | undefined, number | undefined, string[]][] = [
    ['no limits: nothing is deleted', undefined, undefined, []],
    ['successful limit 1: the two oldest completed Jobs', 1, undefined, ['c1', 'c2']],
    ['failed limit 0: every failed Job, those without a start last (byJobStartTime)', undefined, 0, ['f1', 'f0']],
    ['both limits: completed ones first, then failed ones', 2, 1, ['c1', 'f1']],
    ['limits above the counts: nothing', 10, 10, []],
  ];
  for (const [name, ok, failed, want] of cases) {
    it(name, () => {
      const cj = cronJob();
      if (ok !== undefined) cj.spec.successfulJobsHistoryLimit = ok;
      if (failed !== undefined) cj.spec.failedJobsHistoryLimit = failed;
      assert.deepEqual(jobsBeyondHistoryLimits(cj, jobs).map((j) => j.metadata.name), want);
    });
  }
});
