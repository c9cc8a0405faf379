/**
 * A finished Job deleted once its TTL runs out, on the virtual clock, with foreground
 * propagation (the garbage collector removes its pods, then the Job).
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { TTLAfterFinishedController, TTL_AFTER_FINISHED_ACCOUNT } from '../../../../src/engine/controllers/ttlafterfinished/controller';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/job/controller';
import { GarbageCollector, GARBAGE_COLLECTOR_ACCOUNT } from '../../../../src/engine/controllers/garbagecollector/collector';
import { JOBS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isNotFound } from '../../../../src/engine/client/errors';
import type { JsonObject } from '../../../../src/engine/api/types';
import type { Job, Pod } from '../../../../src/engine/controllers/util/types/job';

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(
    new JobController(h.deps(JOB_CONTROLLER_ACCOUNT)),
    new GarbageCollector(h.deps(GARBAGE_COLLECTOR_ACCOUNT), h.server.registry),
    new TTLAfterFinishedController(h.deps(TTL_AFTER_FINISHED_ACCOUNT)),
  );
  return h;
}

/** The kubelet's part: the Job's pod ran to completion. */
async function completePod(h: ControllerHarness): Promise<void> {
  const pods = h.admin.resource<Pod>(PODS, 'default');
  const pod = deepCopy(((await pods.list()).items as Pod[])[0]!);
  pod.status = { ...pod.status, phase: 'Succeeded', containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, finishedAt: h.clock.rfc3339() } } }] };
  await pods.updateStatus(pod);
}

describe('controllers/ttlafterfinished scenario', () => {
  it('deletes a finished Job ttlSecondsAfterFinished after it finished, pods first', async () => {
    const h = await setup();
    await h.admin.resource(JOBS, 'default').create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: { ttlSecondsAfterFinished: 100, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    await h.clock.settle();
    await completePod(h);
    // Not settle(): that would run on through the TTL.
    await h.clock.advance(1000);
    const done = await h.admin.resource<Job>(JOBS, 'default').get('pi');
    const complete = done.status?.conditions?.find((c) => c.type === 'Complete');
    assert.equal(complete?.status, 'True');
    const finishedAt = Date.parse(complete?.lastTransitionTime ?? '');

    const seen: string[] = [];
    await h.admin.resource(JOBS, 'default').watch({}, (e) => {
      const meta = (e.object as JsonObject & Job).metadata;
      if (e.type !== 'ADDED') seen.push(`+${(h.clock.now() - finishedAt) / 1000}s ${e.type} ${meta.deletionTimestamp ? `deleting ${(meta.finalizers ?? []).join(',')}` : ''}`.trim());
    });
    await h.clock.advance(finishedAt + 99_000 - h.clock.now());
    assert.ok(await h.admin.resource(JOBS, 'default').get('pi'), 'still there a second before its TTL');
    await h.clock.settle();
    await assert.rejects(h.admin.resource(JOBS, 'default').get('pi'), (err) => isNotFound(err));
    assert.deepEqual((await h.admin.resource(PODS, 'default').list()).items, []);
    assert.equal(seen[0], '+100s MODIFIED deleting foregroundDeletion', 'deleted in the foreground when the TTL ran out');
    assert.equal(seen.at(-1), '+100s DELETED deleting', 'gone once the garbage collector removed the pods and the finalizer');
    await h.close();
  });
});
