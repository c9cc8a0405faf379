/**
 * The Job controller's planners (plan.ts), table-driven after upstream's TestControllerSyncJob
 * (pkg/controller/job/job_controller_test.go): the rows whose outcome manageJob decides (pods to
 * create or delete, indexes created), and the rows that finish the Job. The rows about
 * expectations, controller errors or a Job being deleted are the control loop's (it does not
 * call planManage then) and are covered by scenario.test.ts.
 */
import { strict as assert } from 'node:assert';
import { planFinish, planManage, type ManageDecision } from '../../../../src/engine/controllers/job/plan';
import { COMPLETION_INDEX_ANNOTATION, completionIndex, isIndexedJob, parseIntervals, total, withIndexes } from '../../../../src/engine/controllers/job/indexed';
import { isActive } from '../../../../src/engine/controllers/job/pods';
import type { Job, Pod } from '../../../../src/engine/controllers/util/types/job';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const NOW_TIME = '2025-01-01T00:10:00Z';

function newJob(parallelism: number, completions: number, backoffLimit: number, completionMode?: 'Indexed'): Job {
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'foobar', namespace: 'default', uid: 'job-uid' },
    spec: { parallelism, backoffLimit, template: { metadata: { labels: { foo: 'bar' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    status: { startTime: '2025-01-01T00:00:00Z' },
  };
  // completions -1: a work-queue Job (completions unset).
  if (completions >= 0) job.spec.completions = completions;
  if (completionMode) job.spec.completionMode = completionMode;
  return job;
}

let seq = 0;
function pod(phase: string, index?: string): Pod {
  seq++;
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${seq}`, namespace: 'default', uid: `uid-${seq}`, creationTimestamp: new Date(Date.parse('2025-01-01T00:00:00Z') + seq * 1000).toISOString(), finalizers: ['batch.kubernetes.io/job-tracking'] },
    status: { phase },
  };
  if (index !== undefined) p.metadata.annotations = { [COMPLETION_INDEX_ANNOTATION]: index };
  return p;
}

interface Row {
  parallelism: number;
  completions: number;
  completionMode?: 'Indexed';
  suspend?: boolean;
  pendingPods?: number;
  activePods?: number;
  succeededPods?: number;
  failedPods?: number;
  podsWithIndexes?: [string, string][];
  expectedCreations?: number;
  expectedDeletions?: number;
  expectedCreatedIndexes?: number[];
}

const rows: Record<string, Row> = {
  'job start': { parallelism: 2, completions: 5, expectedCreations: 2 },
  'WQ job start': { parallelism: 2, completions: -1, expectedCreations: 2 },
  'pending pods': { parallelism: 2, completions: 5, pendingPods: 2 },
  'correct # of pods': { parallelism: 2, completions: 5, activePods: 2 },
  'WQ job: correct # of pods': { parallelism: 2, completions: -1, activePods: 2 },
  'too few active pods': { parallelism: 2, completions: 5, activePods: 1, succeededPods: 1, expectedCreations: 1 },
  'too few active pods with a dynamic job': { parallelism: 2, completions: -1, activePods: 1, expectedCreations: 1 },
  'too many active pods': { parallelism: 2, completions: 5, activePods: 3, expectedDeletions: 1 },
  'new failed pod': { parallelism: 2, completions: 5, activePods: 1, failedPods: 1, expectedCreations: 1 },
  'WQ job finishing': { parallelism: 2, completions: -1, activePods: 1, succeededPods: 1 },
  'more active pods than parallelism': { parallelism: 2, completions: 5, activePods: 10, expectedDeletions: 8 },
  'more active pods than remaining completions': { parallelism: 3, completions: 4, activePods: 3, succeededPods: 2, expectedDeletions: 1 },
  'status change': { parallelism: 2, completions: 5, activePods: 2, succeededPods: 2 },
  'indexed job start': { parallelism: 2, completions: 5, completionMode: 'Indexed', expectedCreations: 2, expectedCreatedIndexes: [0, 1] },
  'indexed job repeated completed index': {
    parallelism: 2,
    completions: 3,
    completionMode: 'Indexed',
    podsWithIndexes: [['0', 'Succeeded'], ['1', 'Succeeded'], ['1', 'Succeeded']],
    expectedCreations: 1,
    expectedCreatedIndexes: [2],
  },
  'indexed job some running and completed pods': {
    parallelism: 8,
    completions: 20,
    completionMode: 'Indexed',
    podsWithIndexes: [['0', 'Running'], ['2', 'Succeeded'], ['3', 'Pending'], ['4', 'Succeeded'], ['5', 'Succeeded'], ['7', 'Succeeded'], ['8', 'Succeeded'], ['9', 'Succeeded']],
    expectedCreations: 6,
    expectedCreatedIndexes: [1, 6, 10, 11, 12, 13],
  },
  'indexed job some failed pods': {
    parallelism: 3,
    completions: 4,
    completionMode: 'Indexed',
    podsWithIndexes: [['0', 'Failed'], ['1', 'Pending'], ['2', 'Failed']],
    expectedCreations: 2,
    expectedCreatedIndexes: [0, 2],
  },
  'indexed job some pods without index': {
    parallelism: 2,
    completions: 5,
    completionMode: 'Indexed',
    activePods: 1,
    succeededPods: 1,
    failedPods: 1,
    podsWithIndexes: [['invalid', 'Running'], ['invalid', 'Succeeded'], ['invalid', 'Failed'], ['invalid', 'Pending'], ['0', 'Succeeded'], ['1', 'Running'], ['2', 'Running']],
    expectedDeletions: 3,
  },
  'indexed job repeated indexes': {
    parallelism: 5,
    completions: 5,
    completionMode: 'Indexed',
    succeededPods: 1,
    failedPods: 1,
    podsWithIndexes: [['invalid', 'Running'], ['0', 'Succeeded'], ['1', 'Running'], ['2', 'Running'], ['2', 'Pending']],
    expectedDeletions: 2,
  },
  'indexed job with indexes outside of range': {
    parallelism: 2,
    completions: 5,
    completionMode: 'Indexed',
    podsWithIndexes: [['0', 'Succeeded'], ['5', 'Running'], ['6', 'Succeeded'], ['7', 'Pending'], ['8', 'Failed']],
    expectedDeletions: 2,
  },
  'suspending a job with satisfied expectations': { parallelism: 2, completions: 4, suspend: true, activePods: 2, expectedDeletions: 2 },
  'resuming a suspended job': { parallelism: 2, completions: 4, expectedCreations: 2 },
};

/** setPodsStatuses and setPodsStatusesWithIndexes, then what syncJob hands manageJob. */
function manage(row: Row): { decision: ManageDecision; job: Job } {
  const job = newJob(row.parallelism, row.completions, 6, row.completionMode);
  if (row.suspend) job.spec.suspend = true;
  const pods: Pod[] = [];
  for (let i = 0; i < (row.pendingPods ?? 0); i++) pods.push(pod('Pending'));
  for (let i = 0; i < (row.activePods ?? 0); i++) pods.push(pod('Running'));
  for (let i = 0; i < (row.succeededPods ?? 0); i++) pods.push(pod('Succeeded'));
  for (let i = 0; i < (row.failedPods ?? 0); i++) pods.push(pod('Failed'));
  for (const [ix, phase] of row.podsWithIndexes ?? []) pods.push(pod(phase, ix));
  const completions = job.spec.completions ?? 0;
  const indexed = isIndexedJob(job);
  const succeededIndexes = indexed
    ? withIndexes(
        parseIntervals(job.status?.completedIndexes, completions),
        [...new Set(pods.filter((p) => p.status?.phase === 'Succeeded').map(completionIndex).filter((ix) => ix >= 0 && ix < completions))].sort((a, b) => a - b),
      )
    : [];
  const succeeded = indexed ? total(succeededIndexes) : pods.filter((p) => p.status?.phase === 'Succeeded').length;
  // The failure backoff is backoff.test.ts's: here no failure is recent enough to hold pods back.
  const decision = planManage({ job, activePods: pods.filter(isActive), succeeded, backoff: { failuresAfterLastSuccess: 0 }, now: NOW, succeededIndexes, failedIndexes: undefined });
  return { decision, job };
}

describe('controllers/job planManage (TestControllerSyncJob)', () => {
  for (const [name, row] of Object.entries(rows)) {
    it(name, () => {
      const { decision } = manage(row);
      assert.equal(decision.kind === 'create' ? decision.count : 0, row.expectedCreations ?? 0, `creations: ${JSON.stringify(decision)}`);
      assert.equal(decision.kind === 'delete' ? decision.pods.length : 0, row.expectedDeletions ?? 0, 'deletions');
      if (row.expectedCreatedIndexes) assert.deepEqual(decision.kind === 'create' ? decision.indexes : [], row.expectedCreatedIndexes);
    });
  }

  it('limited pods: at most 500 pods a sync (MaxPodCreateDeletePerSync)', () => {
    assert.deepEqual(manage({ parallelism: 1000, completions: 2000 }).decision, { kind: 'create', count: 500, indexes: [] });
    const many = manage({ parallelism: 1, completions: 2, activePods: 700 }).decision;
    assert.equal(many.kind === 'delete' ? many.pods.length : 0, 500);
  });

  it('deletions prefer pods not ready, then the newest (activePodsForRemoval)', () => {
    const job = newJob(1, 5, 6);
    const old = pod('Running');
    old.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    const older = pod('Running');
    const newest = pod('Running');
    const decision = planManage({ job, activePods: [old, older, newest], succeeded: 0, backoff: { failuresAfterLastSuccess: 0 }, now: NOW, succeededIndexes: [], failedIndexes: undefined });
    assert.deepEqual(decision.kind === 'delete' ? decision.pods.map((p) => p.metadata.name) : [], [newest.metadata.name, older.metadata.name]);
  });

  it('a recent failure holds new pods back for the rest of the backoff (at least the batch period)', () => {
    const job = newJob(2, 5, 6);
    const backoff = { failuresAfterLastSuccess: 2, lastFailureTime: NOW - 5000 };
    assert.deepEqual(planManage({ job, activePods: [], succeeded: 0, backoff, now: NOW, succeededIndexes: [], failedIndexes: undefined }), { kind: 'wait', requeueAfterMs: 15_000 });
    const almost = { failuresAfterLastSuccess: 1, lastFailureTime: NOW - 9800 };
    assert.deepEqual(planManage({ job, activePods: [], succeeded: 0, backoff: almost, now: NOW, succeededIndexes: [], failedIndexes: undefined }), { kind: 'wait', requeueAfterMs: 1000 });
  });
});

describe('controllers/job planFinish (TestControllerSyncJob, TestSyncJobPastDeadline)', () => {
  const finish = (job: Job, pods: Pod[], failed: number) => planFinish({ job, pods, failed, succeededIndexes: [], failedIndexes: undefined, completions: job.spec.completions ?? 0, now: NOW, nowTime: NOW_TIME });

  it('too many job failures: more failures than backoffLimit is FailureTarget BackoffLimitExceeded', () => {
    const job = newJob(2, 5, 0);
    const out = finish(job, [pod('Failed')], 1);
    assert.deepEqual([out.finished?.type, out.finished?.reason, out.finished?.message], ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
    assert.equal(finish(newJob(2, 5, 6), [pod('Failed')], 1).finished, undefined);
  });

  // TestSyncJobPastDeadline: [activeDeadlineSeconds, seconds since start, suspended] -> DeadlineExceeded or the wait left.
  const deadlines: [string, number, number, boolean, string | undefined, number | undefined][] = [
    ['activeDeadlineSeconds less than single pod execution', 1, 10, false, 'DeadlineExceeded', undefined],
    ['activeDeadlineSeconds bigger than single pod execution', 15, 10, false, undefined, 5000],
    ['activeDeadlineSeconds times-out before any pod starts', 1, 10, false, 'DeadlineExceeded', undefined],
    ['activeDeadlineSeconds exceeded, but the Job is suspended', 1, 10, true, undefined, undefined],
  ];
  for (const [name, deadline, since, suspended, reason, requeue] of deadlines) {
    it(name, () => {
      const job = newJob(1, 1, 6);
      job.spec.activeDeadlineSeconds = deadline;
      if (suspended) job.spec.suspend = true;
      job.status = { startTime: new Date(NOW - since * 1000).toISOString() };
      const out = finish(job, [], 0);
      assert.equal(out.finished?.reason, reason);
      if (reason) assert.equal(out.finished?.message, 'Job was active longer than specified deadline');
      assert.equal(out.requeueAfterMs, requeue);
    });
  }

  it('a FailureTarget from an earlier sync becomes Failed with its reason; SuccessCriteriaMet stays', () => {
    const job = newJob(1, 1, 6);
    job.status = { conditions: [{ type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }] };
    assert.deepEqual([finish(job, [], 0).finished?.type, finish(job, [], 0).finished?.reason], ['Failed', 'BackoffLimitExceeded']);
    job.status = { conditions: [{ type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }] };
    assert.equal(finish(job, [], 0).finished?.type, 'SuccessCriteriaMet');
  });
});
