/**
 * backoffLimitPerIndex of Indexed Jobs (pkg/controller/job): the per-index failure counts on
 * replacement pods (batch.kubernetes.io/job-index-failure-count), status.failedIndexes, the
 * FailIndex pod failure policy action, and the Job failing with FailedIndexes once every index is
 * done or MaxFailedIndexesExceeded past maxFailedIndexes, with upstream's reasons and messages.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/job/controller';
import { JOBS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Job, Pod } from '../../../../src/engine/controllers/util/types/job';

const INDEX = 'batch.kubernetes.io/job-completion-index';
const FAILURES = 'batch.kubernetes.io/job-index-failure-count';

describe('controllers/job backoffLimitPerIndex', function () {
  this.timeout(60_000);
  async function start(): Promise<ControllerHarness> {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    h.start(new JobController(h.deps(JOB_CONTROLLER_ACCOUNT)));
    return h;
  }
  const end = async (h: ControllerHarness, pod: Pod, phase: 'Succeeded' | 'Failed', exitCode: number): Promise<void> => {
    const pods = h.admin.resource<Pod>(PODS, 'default');
    const cur = deepCopy(await pods.get(pod.metadata.name ?? ''));
    cur.status = { ...cur.status, phase, containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, finishedAt: h.clock.rfc3339() } } }] };
    await pods.updateStatus(cur);
    await h.clock.settle({ maxDuration: 15 * 60_000 });
  };
  const all = async (h: ControllerHarness): Promise<Pod[]> => (await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[];
  const live = async (h: ControllerHarness, ix: string): Promise<Pod[]> => (await all(h)).filter((p) => (!p.status?.phase || p.status.phase === 'Pending') && p.metadata.annotations?.[INDEX] === ix);
  const job = (name: string, spec: object): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { completions: 3, parallelism: 3, completionMode: 'Indexed', ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  const get = (h: ControllerHarness, name: string): Promise<Job> => h.admin.resource<Job>(JOBS, 'default').get(name);

  it('counts failures per index on the replacement pods, fails an index past its limit and the Job with FailedIndexes', async () => {
    const h = await start();
    await h.admin.resource(JOBS, 'default').create(job('pi', { backoffLimitPerIndex: 1 }));
    await h.clock.settle();
    assert.deepEqual((await all(h)).map((p) => p.metadata.annotations?.[FAILURES]).sort(), ['0', '0', '0'], 'first pods start at 0 failures');
    const [first] = await live(h, '1');
    await end(h, first!, 'Failed', 1);
    const [second] = await live(h, '1');
    assert.ok(second && second.metadata.name !== first!.metadata.name, 'index 1 gets a replacement');
    assert.equal(second.metadata.annotations?.[FAILURES], '1', 'which carries the failure before it');
    let j = await get(h, 'pi');
    assert.equal(j.status?.failedIndexes, '', 'no index failed yet');
    await end(h, second, 'Failed', 1);
    assert.deepEqual(await live(h, '1'), [], 'a failed index gets no more pods');
    j = await get(h, 'pi');
    assert.equal(j.status?.failedIndexes, '1');
    assert.equal(j.status?.failed, 2);
    for (const ix of ['0', '2']) await end(h, (await live(h, ix))[0]!, 'Succeeded', 0);
    j = await get(h, 'pi');
    assert.equal(j.status?.completedIndexes, '0,2');
    assert.deepEqual(j.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes'],
      ['Failed', 'True', 'FailedIndexes', 'Job has failed indexes'],
    ]);
    await h.close();
  });

  it('fails an index at once on a FailIndex rule, and the Job past maxFailedIndexes', async () => {
    const h = await start();
    await h.admin.resource(JOBS, 'default').create(
      job('mf', { backoffLimitPerIndex: 3, maxFailedIndexes: 0, podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] } }),
    );
    await h.clock.settle();
    await end(h, (await live(h, '0'))[0]!, 'Failed', 42);
    const j = await get(h, 'mf');
    assert.equal(j.status?.failedIndexes, '0');
    assert.deepEqual(j.status?.conditions?.map((c) => [c.type, c.reason, c.message]), [
      ['FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
      ['Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes'],
    ]);
    assert.equal(j.status?.active, undefined, 'the other indexes\' pods are gone');
    await h.close();
  });
});
