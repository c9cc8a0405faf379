/**
 * The pod garbage collector against the API server: pods bound to a deleted node are marked
 * Failed with DisruptionTarget (DeletionByPodGC) and force-deleted once the node has been gone
 * through the 40 s quarantine; terminating pods on an out-of-service node and finished pods over
 * the threshold go too.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { PodGCController, POD_GC_ACCOUNT, type PodGCSettings } from '../../../../src/engine/controllers/podgc/controller';
import { NODES, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { JsonObject } from '../../../../src/engine/api/types';
import type { ReconcileRecord } from '../../../../src/engine/trace/reconcile';
import type { Taint } from '../../../../src/engine/scheduler/api';
import type { Node, Pod } from '../../../../src/engine/api/generated/core-v1';

async function setup(settings: Partial<PodGCSettings> = {}): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(new PodGCController(h.deps(POD_GC_ACCOUNT), settings));
  return h;
}

async function createNode(h: ControllerHarness, name: string, ready: boolean, taints: Taint[] = []): Promise<void> {
  const nodes = h.admin.resource<Node>(NODES);
  const node = deepCopy(await nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: { taints } }));
  node.status = { conditions: [{ type: 'Ready', status: ready ? 'True' : 'Unknown' }] };
  await nodes.updateStatus(node);
}

async function createPod(h: ControllerHarness, name: string, nodeName: string, phase: string): Promise<void> {
  const pods = h.admin.resource<Pod>(PODS, 'default');
  const pod = deepCopy(await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] } }));
  pod.status = { ...pod.status, phase };
  await pods.updateStatus(pod);
}

async function podNames(h: ControllerHarness): Promise<string[]> {
  return ((await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[]).map((p) => p.metadata.name ?? '').sort();
}

const gcRecords = (h: ControllerHarness): ReconcileRecord[] =>
  h.trace.records().filter((r): r is ReconcileRecord => r.type === 'controller.reconcile' && (r as ReconcileRecord).controller === 'podgc');

describe('controllers/podgc scenario', () => {
  it('deletes the pods of a deleted node after the quarantine, marking running ones Failed with DisruptionTarget', async () => {
    const h = await setup();
    await createNode(h, 'node-1', true);
    await createNode(h, 'node-2', true);
    await createPod(h, 'web-1', 'node-1', 'Running');
    await createPod(h, 'done-1', 'node-1', 'Succeeded');
    await createPod(h, 'web-2', 'node-2', 'Running');
    const seen: string[] = [];
    await h.admin.resource(PODS, 'default').watch({}, (e) => {
      const o = e.object as JsonObject & Pod;
      const cond = o.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
      seen.push(`${e.type} ${o.metadata.name ?? ''} ${o.status?.phase ?? ''}${cond ? ` ${cond.status} ${cond.reason ?? ''}: ${cond.message ?? ''}` : ''}`);
    });
    await h.clock.advance(5_000);
    seen.length = 0;
    const deletedAt = h.clock.now();
    await h.admin.resource(NODES).delete('node-1');
    await h.clock.advance(50_000);
    assert.deepEqual(await podNames(h), ['done-1', 'web-1', 'web-2'], 'still quarantined');
    await h.clock.advance(20_000);
    assert.deepEqual(await podNames(h), ['web-2']);
    assert.ok(h.clock.now() - deletedAt <= 75_000);
    // The two pods go at once; a delete with grace period 0 still writes the deletion timestamp first.
    assert.deepEqual(seen.filter((s) => s.includes('web-1')), [
      'MODIFIED web-1 Failed True DeletionByPodGC: PodGC: node no longer exists',
      'MODIFIED web-1 Failed True DeletionByPodGC: PodGC: node no longer exists',
      'DELETED web-1 Failed True DeletionByPodGC: PodGC: node no longer exists',
    ]);
    assert.deepEqual(seen.filter((s) => s.includes('done-1')), ['MODIFIED done-1 Succeeded', 'DELETED done-1 Succeeded'], 'a finished pod is not patched');
    const [record] = gcRecords(h);
    assert.equal(record?.key, 'orphaned');
    assert.equal(record?.observed, '2 pods bound to deleted nodes node-1');
    assert.equal(record?.outcome, 'done');
    assert.equal(record?.requests.length, 4, 'GET node, PATCH status, DELETE, DELETE');
    await h.close();
  });

  it('force-deletes terminating pods on an out-of-service node, and finished pods over the threshold', async () => {
    const h = await setup({ terminatedPodThreshold: 1 });
    await createNode(h, 'down', false, [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }]);
    await createPod(h, 'stuck', 'down', 'Running');
    await h.admin.resource(PODS, 'default').delete('stuck');
    const stuck = await h.admin.resource<Pod>(PODS, 'default').get('stuck');
    assert.ok(stuck.metadata.deletionTimestamp, 'a bound pod waits for its kubelet');
    await createPod(h, 'old', 'down', 'Succeeded');
    await h.clock.advance(1_000);
    await createPod(h, 'new', 'down', 'Failed');
    await h.clock.advance(21_000);
    assert.deepEqual(await podNames(h), ['new']);
    // The first pass (at 0 s) saw one finished pod, within the threshold; the next one two.
    assert.deepEqual(gcRecords(h).map((r) => [r.key, r.observed]), [
      ['terminating-out-of-service', '1 terminating pods on out-of-service nodes'],
      ['terminated', '1 finished pods over the threshold of 1'],
    ]);
    await h.close();
  });
});
