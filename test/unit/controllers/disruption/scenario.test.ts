/**
 * The disruption controller against the API server: a budget's status follows its pods'
 * readiness, an eviction's disruptedPods entry is dropped when the deletion shows or expires
 * after two minutes (NotDeleted), and the spared pod's DisruptionTarget condition is cleared.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { DisruptionController, DISRUPTION_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/disruption/controller';
import { EVENTS, PODDISRUPTIONBUDGETS, PODS, REPLICASETS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isConflict } from '../../../../src/engine/client/errors';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../../../src/engine/controllers/disruption/types';

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  h.start(new DisruptionController(h.deps(DISRUPTION_CONTROLLER_ACCOUNT), h.server.registry));
  return h;
}

async function createPod(h: ControllerHarness, name: string, owner?: KubeObject): Promise<void> {
  const metadata: KubeObject['metadata'] = { name, labels: { app: 'web' } };
  if (owner) metadata.ownerReferences = [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true }];
  await h.admin.resource(PODS, 'default').create({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } });
}

/** The kubelet's part: the pod runs, ready or not. */
async function setReady(h: ControllerHarness, name: string, ready: boolean): Promise<void> {
  const pods = h.admin.resource<Pod>(PODS, 'default');
  const pod = deepCopy(await pods.get(name));
  const others = (pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
  pod.status = { ...pod.status, phase: 'Running', conditions: [...others, { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: h.clock.rfc3339() }] };
  await pods.updateStatus(pod);
}

async function budget(h: ControllerHarness): Promise<PodDisruptionBudget> {
  return h.admin.resource<PodDisruptionBudget>(PODDISRUPTIONBUDGETS, 'default').get('web');
}

function counts(pdb: PodDisruptionBudget): unknown {
  const s: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  const c = s.conditions?.find((x) => x.type === 'DisruptionAllowed');
  return { allowed: s.disruptionsAllowed, healthy: s.currentHealthy, desired: s.desiredHealthy, expected: s.expectedPods, condition: `${c?.status} ${c?.reason}` };
}

async function events(h: ControllerHarness): Promise<string[]> {
  const list = (await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string; type: string; source: { component: string }; involvedObject: { kind: string; name: string } })[];
  return list.map((e) => `${e.involvedObject.kind}/${e.involvedObject.name} ${e.type} ${e.reason} (${e.source.component}): ${e.message}`);
}

const pdbObject = (spec: object): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { ...spec, selector: { matchLabels: { app: 'web' } } } });

describe('controllers/disruption scenario', () => {
  it("a budget's status follows its pods' readiness", async () => {
    const h = await setup();
    await h.admin.resource(PODDISRUPTIONBUDGETS, 'default').create(pdbObject({ minAvailable: 2 }));
    await h.clock.settle();
    let pdb = await budget(h);
    assert.deepEqual(counts(pdb), { allowed: 0, healthy: 0, desired: 2, expected: 0, condition: 'False InsufficientPods' });
    assert.equal(pdb.status?.observedGeneration, 1);
    assert.deepEqual(await events(h), ['PodDisruptionBudget/web Normal NoPods (controllermanager): No matching pods found']);

    for (const name of ['web-1', 'web-2', 'web-3']) await createPod(h, name);
    await h.clock.settle();
    assert.deepEqual(counts(await budget(h)), { allowed: 0, healthy: 0, desired: 2, expected: 3, condition: 'False InsufficientPods' });

    for (const name of ['web-1', 'web-2', 'web-3']) await setReady(h, name, true);
    await h.clock.settle();
    pdb = await budget(h);
    assert.deepEqual(counts(pdb), { allowed: 1, healthy: 3, desired: 2, expected: 3, condition: 'True SufficientPods' });
    const cond = pdb.status?.conditions?.[0];
    assert.deepEqual(Object.keys(cond ?? {}), ['type', 'status', 'observedGeneration', 'lastTransitionTime', 'reason', 'message']);

    await setReady(h, 'web-2', false);
    await h.clock.settle();
    assert.deepEqual(counts(await budget(h)), { allowed: 0, healthy: 2, desired: 2, expected: 3, condition: 'False InsufficientPods' });
    await h.close();
  });

  it('maxUnavailable as a percentage of the ReplicaSet scale; unmanaged pods warn', async () => {
    const h = await setup();
    const rs = await h.admin.resource(REPLICASETS, 'default').create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await h.admin.resource(PODDISRUPTIONBUDGETS, 'default').create(pdbObject({ maxUnavailable: '30%' }));
    for (const name of ['web-a', 'web-b']) {
      await createPod(h, name, rs);
      await setReady(h, name, true);
    }
    await h.clock.settle();
    assert.deepEqual(counts(await budget(h)), { allowed: 0, healthy: 2, desired: 2, expected: 4, condition: 'False InsufficientPods' });

    await createPod(h, 'stray');
    await setReady(h, 'stray', true);
    await h.clock.settle();
    assert.deepEqual(counts(await budget(h)), { allowed: 1, healthy: 3, desired: 2, expected: 4, condition: 'True SufficientPods' });
    assert.ok(
      (await events(h)).includes(
        'PodDisruptionBudget/web Warning UnmanagedPods (controllermanager): Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      ),
    );
    await h.close();
  });

  it("an eviction's disruptedPods entry: dropped once the deletion shows, or after 2 minutes with NotDeleted; the spared pod's DisruptionTarget goes False", async () => {
    const h = await setup();
    await h.admin.resource(PODDISRUPTIONBUDGETS, 'default').create(pdbObject({ minAvailable: 1 }));
    for (const name of ['web-1', 'web-2', 'web-3']) {
      await createPod(h, name);
      await setReady(h, name, true);
    }
    await h.clock.settle();
    assert.deepEqual(counts(await budget(h)), { allowed: 2, healthy: 3, desired: 1, expected: 3, condition: 'True SufficientPods' });

    const pods = h.admin.resource<Pod>(PODS, 'default');
    const eviction = (name: string, deleteOptions?: object): KubeObject => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, ...(deleteOptions ? { deleteOptions } : {}) });

    // An eviction that goes through: the pod is being deleted, so its entry is dropped at once.
    await pods.evict(eviction('web-1'));
    let pdb = await budget(h);
    const evictedAt = pdb.status?.disruptedPods?.['web-1'];
    assert.ok(evictedAt, 'the eviction subresource recorded the pod');
    await h.clock.settle();
    pdb = await budget(h);
    assert.equal(pdb.status?.disruptedPods, undefined);
    assert.deepEqual(counts(pdb), { allowed: 1, healthy: 2, desired: 1, expected: 3, condition: 'True SufficientPods' });

    // An eviction whose delete fails (a stale uid precondition): the budget took the disruption, the pod stays.
    const t0 = h.clock.now();
    await assert.rejects(pods.evict(eviction('web-2', { preconditions: { uid: 'not-the-uid' } })), (err) => isConflict(err));
    await h.clock.advance(1000);
    pdb = await budget(h);
    assert.deepEqual(Object.keys(pdb.status?.disruptedPods ?? {}), ['web-2']);
    assert.deepEqual(counts(pdb), { allowed: 0, healthy: 1, desired: 1, expected: 3, condition: 'False InsufficientPods' }, 'web-2 does not count while its deletion is expected');
    const marked = (await pods.get('web-2')).status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([marked?.status, marked?.reason], ['True', 'EvictionByEvictionAPI']);

    await h.clock.settle();
    assert.ok(h.clock.now() - t0 > 120_000 && h.clock.now() - t0 < 125_000, 'settled just after the 2-minute deadlines');
    pdb = await budget(h);
    assert.equal(pdb.status?.disruptedPods, undefined, 'the entry expired');
    assert.deepEqual(counts(pdb), { allowed: 1, healthy: 2, desired: 1, expected: 3, condition: 'True SufficientPods' });
    assert.ok((await events(h)).includes("Pod/web-2 Warning NotDeleted (controllermanager): Pod was expected by PDB default/default to be deleted but it wasn't"));
    const cleared = (await pods.get('web-2')).status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(cleared, { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: h.clock.rfc3339(t0 + 120_000) });
    await h.close();
  });
});
