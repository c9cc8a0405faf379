/** Jobs against the API server: completions one pod at a time, and the backoff limit. */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/job/controller';
import { EVENTS, JOBS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Job, Pod } from '../../../../src/engine/controllers/util/types/job';

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(new JobController(h.deps(JOB_CONTROLLER_ACCOUNT)));
  return h;
}

const job = (name: string, spec: object): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
});

async function livePods(h: ControllerHarness): Promise<Pod[]> {
  return ((await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[]).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** The kubelet's part: the pod's container ran and exited. */
async function finish(h: ControllerHarness, pod: Pod, phase: 'Succeeded' | 'Failed'): Promise<void> {
  const pods = h.admin.resource<Pod>(PODS, 'default');
  const p = deepCopy(await pods.get(pod.metadata.name ?? ''));
  p.status = { ...p.status, phase, containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, finishedAt: h.clock.rfc3339() } } }] };
  await pods.updateStatus(p);
}

async function events(h: ControllerHarness, name: string): Promise<string[]> {
  const list = (await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string; type: string; involvedObject: { name: string } })[];
  return list.filter((e) => e.involvedObject.name === name).map((e) => `${e.type} ${e.reason}: ${e.message.replace(/-[a-z0-9]{5}$/, '-xxxxx')}`);
}

describe('controllers/job scenario', () => {
  it('runs completions one pod at a time and completes: SuccessCriteriaMet, then Complete, "Job completed"', async () => {
    const h = await setup();
    await h.admin.resource(JOBS, 'default').create(job('pi', { completions: 2, parallelism: 1 }));
    await h.clock.settle();
    let pods = await livePods(h);
    assert.equal(pods.length, 1);
    assert.match(pods[0]!.metadata.name ?? '', /^pi-[a-z0-9]{5}$/);
    assert.deepEqual(pods[0]!.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.equal(pods[0]!.metadata.labels?.['batch.kubernetes.io/job-name'], 'pi');
    let status = (await h.admin.resource<Job>(JOBS, 'default').get('pi')).status!;
    assert.equal(status.active, 1);
    assert.deepEqual(status.uncountedTerminatedPods, {});

    await finish(h, pods[0]!, 'Succeeded');
    await h.clock.settle();
    pods = await livePods(h);
    assert.equal(pods.length, 1, 'the second completion gets its pod');
    status = (await h.admin.resource<Job>(JOBS, 'default').get('pi')).status!;
    assert.equal(status.succeeded, 1);
    await finish(h, pods[0]!, 'Succeeded');
    await h.clock.settle();

    const done = await h.admin.resource<Job>(JOBS, 'default').get('pi');
    status = done.status!;
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
        ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ],
    );
    assert.equal(status.succeeded, 2);
    assert.equal(status.active, undefined);
    assert.equal(status.ready, 0);
    assert.equal(status.terminating, 0);
    assert.deepEqual(status.uncountedTerminatedPods, {});
    assert.ok(status.completionTime && status.startTime);
    const all = (await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[];
    assert.ok(all.every((p) => (p.metadata.finalizers ?? []).length === 0), 'finalizers released');
    assert.deepEqual(await events(h, 'pi'), ['Normal SuccessfulCreate: Created pod: pi-xxxxx', 'Normal SuccessfulCreate: Created pod: pi-xxxxx', 'Normal Completed: Job completed']);
    await h.close();
  });

  it('backoffLimit: failures past the limit fail the Job; replacements wait out the backoff', async () => {
    const h = await setup();
    await h.admin.resource(JOBS, 'default').create(job('flaky', { backoffLimit: 1 }));
    await h.clock.settle();
    const first = (await livePods(h))[0]!;
    const t0 = h.clock.now();
    await finish(h, first, 'Failed');
    await h.clock.settle();
    const second = (await livePods(h))[0]!;
    assert.ok(second, 'a replacement');
    assert.ok(h.clock.now() - t0 >= 10_000, 'created after the 10 s backoff');
    await finish(h, second, 'Failed');
    await h.clock.settle();
    const failed = await h.admin.resource<Job>(JOBS, 'default').get('flaky');
    assert.deepEqual(
      failed.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
        ['Failed', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ],
    );
    assert.equal(failed.status?.failed, 2);
    assert.equal(failed.status?.completionTime, undefined);
    assert.deepEqual((await events(h, 'flaky')).at(-1), 'Warning BackoffLimitExceeded: Job has reached the specified backoff limit');
    assert.equal((await livePods(h)).length, 0);
    await h.close();
  });
});
