/**
 * Indexed Jobs (indexed_job_utils.go, indexed_job_utils_test.go): the interval arithmetic of
 * status.completedIndexes, and a Job against the API server whose pods carry their index.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/job/controller';
import { JOBS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Job, Pod } from '../../../../src/engine/controllers/util/types/job';
import { firstPendingIndexes, formatIntervals, parseIntervals, withIndexes } from '../../../../src/engine/controllers/job/indexed';

const pod = (ix: number): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { annotations: { 'batch.kubernetes.io/job-completion-index': String(ix) } } });

describe('controllers/job Indexed', function () {
  this.timeout(20_000);
  it('keeps succeeded indexes as intervals, as upstream writes them', () => {
    // TestCalculateSucceededIndexes / TestIntervalsString cases.
    assert.equal(formatIntervals(withIndexes([], [0, 1, 2, 4, 5, 7])), '0-2,4,5,7');
    assert.equal(formatIntervals(withIndexes(parseIntervals('1,3-5', 10), [2, 8])), '1-5,8');
    assert.equal(formatIntervals(parseIntervals('0-2,4,5-9', 6)), '0-2,4,5');
    assert.equal(formatIntervals(parseIntervals('x,1,3', 10)), '1,3');
    assert.equal(formatIntervals(withIndexes([], [3, 4])), '3,4');
    // TestFirstPendingIndexes.
    assert.deepEqual(firstPendingIndexes([pod(1), pod(3)], parseIntervals('0,5-6', 10), 4, 10), [2, 4, 7, 8]);
    assert.deepEqual(firstPendingIndexes([], [], 3, 2), [0, 1]);
  });

  it('creates one pod per pending index with its annotation, label, hostname and JOB_COMPLETION_INDEX, and completes on the indexes', async () => {
    const h: ControllerHarness = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    h.start(new JobController(h.deps(JOB_CONTROLLER_ACCOUNT)));
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'idx' },
      spec: { completions: 3, parallelism: 2, completionMode: 'Indexed', template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    };
    await h.admin.resource(JOBS, 'default').create(job);
    await h.clock.settle();
    const pods = h.admin.resource<Pod>(PODS, 'default');
    const live = async () => ((await pods.list()).items as Pod[]).filter((p) => p.status?.phase !== 'Succeeded').sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    let running = await live();
    assert.deepEqual(running.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']), ['0', '1']);
    const first = running[0]!;
    assert.match(first.metadata.name ?? '', /^idx-0-[a-z0-9]{5}$/);
    assert.equal(first.metadata.labels?.['batch.kubernetes.io/job-completion-index'], '0');
    const spec = first.spec as { hostname?: string; containers: { env?: unknown[] }[] };
    assert.equal(spec.hostname, 'idx-0');
    assert.deepEqual(spec.containers[0]!.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);

    const finish = async (p: Pod) => {
      const cur = deepCopy(await pods.get(p.metadata.name ?? ''));
      cur.status = { ...cur.status, phase: 'Succeeded', containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, finishedAt: h.clock.rfc3339() } } }] };
      await pods.updateStatus(cur);
      await h.clock.settle();
    };
    await finish(running[1]!);
    let status = (await h.admin.resource<Job>(JOBS, 'default').get('idx')).status!;
    assert.equal(status.completedIndexes, '1');
    assert.equal(status.succeeded, 1);
    running = await live();
    assert.deepEqual(running.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']), ['0', '2'], 'the next pending index gets a pod');
    for (const p of running) await finish(p);
    const done = await h.admin.resource<Job>(JOBS, 'default').get('idx');
    status = done.status!;
    assert.equal(status.completedIndexes, '0-2');
    assert.equal(status.succeeded, 3);
    assert.deepEqual(status.conditions?.map((c) => c.type), ['SuccessCriteriaMet', 'Complete']);
    await h.close();
  });
});
