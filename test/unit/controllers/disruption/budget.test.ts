/**
 * disruption_test.go's cases over the budget arithmetic: each upstream dc.sync is the planners
 * composed as the controller composes them (expected pods from the controllers' scales, the
 * disruptedPods map, healthy pods, the status), checked with upstream's VerifyPdbStatus.
 */
import { strict as assert } from 'node:assert';
import type { IntOrString } from '../../../../src/engine/api/intstr';
import { ResourceRegistry } from '../../../../src/engine/api/registry';
import type { OwnerReference } from '../../../../src/engine/api/types';
import { Client } from '../../../../src/engine/client/client';
import { Indexer } from '../../../../src/engine/client/informer';
import {
  buildDisruptedPodMap,
  countHealthyPods,
  expectedPodCount,
  failSafeStatus,
  nextStatus,
  type ScaleFinder,
} from '../../../../src/engine/controllers/disruption/budget';
import { scaleFinders, type WorkloadCaches } from '../../../../src/engine/controllers/disruption/finders';
import { labelSelectorString } from '../../../../src/engine/controllers/disruption/selector-string';
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, Workload } from '../../../../src/engine/controllers/disruption/types';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const at = (offsetMs: number): string => new Date(NOW + offsetMs).toISOString().replace('.000Z', 'Z');
let uids = 0;
const uid = (): string => `uid-${++uids}`;

interface Fixture {
  pdb: PodDisruptionBudget;
  pods: Pod[];
  caches: WorkloadCaches;
  extraFinders: ScaleFinder[];
  events: string[];
}

function fixture(spec: { minAvailable?: IntOrString; maxUnavailable?: IntOrString }): Fixture {
  const caches: WorkloadCaches = { replicationControllers: new Indexer(), replicaSets: new Indexer(), deployments: new Indexer(), statefulSets: new Indexer() };
  const pdb: PodDisruptionBudget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'foobar', namespace: 'default', uid: uid(), generation: 1 }, spec: { ...spec, selector: { matchLabels: { foo: 'bar' } } } };
  return { pdb, pods: [], caches, extraFinders: [], events: [] };
}

function newPod(name: string, ready = true): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: uid(), labels: { foo: 'bar' } }, status: { conditions: ready ? [{ type: 'Ready', status: 'True' }] : [] } };
}

function workload(kind: string, replicas: number): Workload {
  return { apiVersion: kind === 'ReplicationController' ? 'v1' : 'apps/v1', kind, metadata: { name: 'foobar', namespace: 'default', uid: uid(), labels: { foo: 'bar' } }, spec: { replicas } };
}

function ownedBy(pod: Pod, owner: Workload): Pod {
  const ref: OwnerReference = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true };
  pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), ref];
  return pod;
}

const noScaleClient = new Client({ server: undefined as never, user: { username: 'test', uid: '', groups: [], extra: {} }, userAgent: 'test' });

/** dc.sync: computes and "writes" the status into f.pdb. */
async function sync(f: Fixture, now = NOW): Promise<void> {
  try {
    const finders = [...scaleFinders(f.caches, new ResourceRegistry(), noScaleClient).slice(0, 4), ...f.extraFinders];
    const expected = await expectedPodCount(f.pdb, f.pods, finders);
    if (expected.unmanagedPods.length > 0) f.events.push('UnmanagedPods');
    const disrupted = buildDisruptedPodMap(f.pods, f.pdb, now);
    const counts = { currentHealthy: countHealthyPods(f.pods, disrupted.disruptedPods, now), desiredHealthy: expected.desiredHealthy, expectedCount: expected.expectedCount };
    const status = nextStatus(f.pdb, counts, disrupted.disruptedPods, at(0));
    if (status) f.pdb = { ...f.pdb, status };
  } catch (err) {
    f.events.push('CalculateExpectedPodCountFailed');
    f.pdb = { ...f.pdb, status: failSafeStatus(f.pdb, (err as Error).message, at(0)) };
  }
}

/** A status before the first sync: Go writes the zero counts. */
const noCounts = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };

/** VerifyPdbStatus: the counts, the map, observedGeneration and the condition's status. */
function verify(f: Fixture, disruptionsAllowed: number, currentHealthy: number, desiredHealthy: number, expectedPods: number, disruptedPods: Record<string, string> = {}): void {
  const s: Partial<PodDisruptionBudgetStatus> = f.pdb.status ?? {};
  assert.deepEqual(
    { disruptionsAllowed: s.disruptionsAllowed, currentHealthy: s.currentHealthy, desiredHealthy: s.desiredHealthy, expectedPods: s.expectedPods, disruptedPods: s.disruptedPods ?? {}, observedGeneration: s.observedGeneration },
    { disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods, disruptedPods, observedGeneration: 1 },
  );
  const cond = s.conditions?.find((c) => c.type === 'DisruptionAllowed');
  assert.deepEqual(cond && [cond.status, cond.reason, cond.message, cond.observedGeneration], disruptionsAllowed > 0 ? ['True', 'SufficientPods', '', 1] : ['False', 'InsufficientPods', '', 1]);
}

type Counts = [number, number, number, number];

const allowed = (f: Fixture): number | undefined => f.pdb.status?.disruptionsAllowed;

describe('controllers/disruption budget', () => {
  it('TestNoSelector: an empty selector; an integer minAvailable expects the pods themselves', async () => {
    const f = fixture({ minAvailable: 3 });
    await sync(f);
    verify(f, 0, 0, 3, 0);
    f.pods.push(newPod('yo-yo-yo'));
    await sync(f);
    verify(f, 0, 1, 3, 1);
  });

  it('TestUnavailable: counts go up with pods and down with an unready pod', async () => {
    const f = fixture({ minAvailable: 3 });
    await sync(f);
    for (let i = 0; i < 4; i++) {
      verify(f, 0, i, 3, i);
      f.pods.push(newPod(`yo-yo-yo ${i}`));
      await sync(f);
    }
    verify(f, 1, 4, 3, 4);
    f.pods[0] = newPod('yo-yo-yo 0', false);
    await sync(f);
    verify(f, 0, 3, 3, 4);
  });

  it('TestIntegerMaxUnavailable and TestNakedPod: pods without a controller allow no disruption and warn', async () => {
    for (const spec of [{ maxUnavailable: 1 }, { minAvailable: '28%' }]) {
      const f = fixture(spec);
      await sync(f);
      assert.equal(allowed(f), 0, 'no pods: no disruptions');
      f.pods.push(newPod('naked'));
      await sync(f);
      assert.equal(allowed(f), 0);
      assert.deepEqual(f.events, ['UnmanagedPods']);
      assert.ok(!f.pdb.status?.conditions?.some((c) => c.reason === 'SyncFailed'), 'TestStatusForUnmanagedPod: no sync error');
    }
  });

  it('TestIntegerMaxUnavailableWithScaling and TestPercentageMaxUnavailableWithScaling: the scale of the pods\' controller', async () => {
    const cases: [IntOrString, Counts, Counts][] = [
      [2, [0, 1, 5, 7], [0, 1, 3, 5]],
      ['30%', [0, 1, 4, 7], [0, 1, 2, 3]],
    ];
    for (const [maxUnavailable, before, after] of cases) {
      const f = fixture({ maxUnavailable });
      const rs = workload('ReplicaSet', 7);
      f.caches.replicaSets.set(rs);
      f.pods.push(ownedBy(newPod('pod'), rs));
      await sync(f);
      verify(f, ...before);
      f.caches.replicaSets.set({ ...rs, spec: { replicas: maxUnavailable === 2 ? 5 : 3 } });
      await sync(f);
      verify(f, ...after);
    }
  });

  it('TestUnsupportedControllerPod: a controller nobody can find fails the computation (SyncFailed)', async () => {
    const f = fixture({ minAvailable: '28%' });
    await sync(f);
    assert.equal(allowed(f), 0);
    const pod = newPod('naked');
    pod.metadata.ownerReferences = [{ apiVersion: 'apps.test.io/v1', kind: 'TestWorkload', name: 'fake-controller', uid: 'b7329742-8daa-493a-8881-6ca07139172b', controller: true }];
    f.pods.push(pod);
    f.extraFinders.push(scaleFinders(f.caches, new ResourceRegistry(), noScaleClient)[4]!);
    await sync(f);
    assert.equal(allowed(f), 0);
    assert.deepEqual(f.events, ['CalculateExpectedPodCountFailed']);
    const cond = f.pdb.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
    assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['False', 'SyncFailed', 'no matches for kind "TestWorkload" in version "apps.test.io/v1"']);
  });

  it('found no controllers for pod: a controller reference to a workload that is gone', async () => {
    const f = fixture({ maxUnavailable: 1 });
    f.pods.push(ownedBy(newPod('orphan'), workload('ReplicaSet', 3)));
    await sync(f);
    assert.equal(f.pdb.status?.conditions?.[0]?.message, 'found no controllers for pod "orphan"');
  });

  it('TestReplicaSet: a ReplicaSet without a Deployment counts with its own scale', async () => {
    const f = fixture({ minAvailable: '20%' });
    const rs = workload('ReplicaSet', 10);
    f.caches.replicaSets.set(rs);
    f.pods.push(ownedBy(newPod('pod'), rs));
    await sync(f);
    verify(f, 0, 1, 2, 10);
  });

  it('TestScaleResource: a custom controller through its scale subresource', async () => {
    const f = fixture({ maxUnavailable: 5 });
    const custom: Workload = { apiVersion: 'custom.k8s.io/v1', kind: 'customresource', metadata: { name: 'c', namespace: 'default', uid: uid() } };
    f.extraFinders.push(async (ref) => (ref.uid === custom.metadata.uid ? { uid: ref.uid, scale: 10 } : undefined));
    for (let i = 0; i < 4; i++) f.pods.push(ownedBy(newPod(`pod-${i}`), custom));
    await sync(f);
    verify(f, 0, 4, 5, 10);
  });

  it('TestReplicationController and TestStatefulSetController: 34% rounds up to 2; a rogue pod is unmanaged but counted healthy', async () => {
    for (const kind of ['ReplicationController', 'StatefulSet']) {
      const f = fixture({ minAvailable: '34%' });
      const owner = workload(kind, 3);
      (kind === 'StatefulSet' ? f.caches.statefulSets : f.caches.replicationControllers).set(owner);
      await sync(f);
      verify(f, 0, 0, 0, 0);
      for (let i = 0; i < 3; i++) {
        f.pods.push(ownedBy(newPod(`foobar ${i}`), owner));
        await sync(f);
        if (i < 2) verify(f, 0, i + 1, 2, 3);
        else verify(f, 1, 3, 2, 3);
      }
      if (kind === 'StatefulSet') continue;
      f.pods.push(newPod('rogue'));
      await sync(f);
      assert.equal(allowed(f), 2);
    }
  });

  it('TestTwoControllers: a ReplicationController and a Deployment\'s ReplicaSet under one 28% budget', async () => {
    const collectionSize = 11;
    const minimumOne = 4;
    const minimumTwo = 7;
    const f = fixture({ minAvailable: '28%' });
    const rc = workload('ReplicationController', collectionSize);
    f.caches.replicationControllers.set(rc);
    await sync(f);
    verify(f, 0, 0, 0, 0);
    let unavailablePods = collectionSize - minimumOne - 1;
    for (let i = 1; i <= collectionSize; i++) {
      f.pods.push(ownedBy(newPod(`quux ${i}`, i > unavailablePods), rc));
      await sync(f);
      if (i <= unavailablePods) verify(f, 0, 0, minimumOne, collectionSize);
      else if (i - unavailablePods <= minimumOne) verify(f, 0, i - unavailablePods, minimumOne, collectionSize);
      else verify(f, 1, i - unavailablePods, minimumOne, collectionSize);
    }
    const d = workload('Deployment', collectionSize);
    f.caches.deployments.set(d);
    await sync(f);
    verify(f, 1, minimumOne + 1, minimumOne, collectionSize);
    const rs = ownedBy(workload('ReplicaSet', collectionSize) as Pod, d) as Workload;
    f.caches.replicaSets.set(rs);
    await sync(f);
    verify(f, 1, minimumOne + 1, minimumOne, collectionSize);
    unavailablePods = 2 * collectionSize - (minimumTwo + 2) - unavailablePods;
    for (let i = 1; i <= collectionSize; i++) {
      f.pods.push(ownedBy(newPod(`quuux ${i}`, i > unavailablePods), rs));
      await sync(f);
      if (i <= unavailablePods) verify(f, 0, minimumOne + 1, minimumTwo, 2 * collectionSize);
      else if (i - unavailablePods <= minimumTwo - (minimumOne + 1)) verify(f, 0, minimumOne + 1 + (i - unavailablePods), minimumTwo, 2 * collectionSize);
      else verify(f, i - unavailablePods - (minimumTwo - (minimumOne + 1)), minimumOne + 1 + (i - unavailablePods), minimumTwo, 2 * collectionSize);
    }
    verify(f, 2, 2 + minimumTwo, minimumTwo, 2 * collectionSize);
    const last = f.pods.length - 1;
    const readyAgain = f.pods[last]!;
    f.pods[last] = { ...readyAgain, status: { conditions: [] } };
    await sync(f);
    verify(f, 1, 1 + minimumTwo, minimumTwo, 2 * collectionSize);
    f.pods[last - 1] = { ...f.pods[last - 1]!, status: { conditions: [] } };
    await sync(f);
    verify(f, 0, minimumTwo, minimumTwo, 2 * collectionSize);
    f.pods[last] = readyAgain;
    await sync(f);
    verify(f, 1, 1 + minimumTwo, minimumTwo, 2 * collectionSize);
  });

  it('TestUpdateDisruptedPods: entries of deleting, deleted and expired pods go; a recent one stays', async () => {
    const f = fixture({ minAvailable: 1 });
    f.pdb.status = { ...noCounts, disruptedPods: { p1: at(0), p2: at(-3 * 60_000), p3: at(-60_000), notthere: at(0) } };
    const p1 = newPod('p1');
    p1.metadata.deletionTimestamp = at(0);
    f.pods.push(p1, newPod('p2'), newPod('p3'));
    await sync(f);
    verify(f, 0, 1, 1, 3, { p3: at(-60_000) });
    const disrupted = buildDisruptedPodMap(f.pods, { ...f.pdb, status: { ...noCounts, disruptedPods: { p2: at(-3 * 60_000), p3: at(-60_000) } } }, NOW);
    assert.deepEqual(disrupted.notDeleted.map((p) => p.metadata.name), ['p2'], 'p2 gets the NotDeleted event');
    assert.equal(disrupted.recheckAtMs, NOW + 60_000, 'synced again when p3 expires');
  });

  it('an evicted pod stops counting as healthy for 2 minutes, then counts again', () => {
    const pods = [newPod('a')];
    assert.equal(countHealthyPods(pods, { a: at(0) }, NOW), 0);
    assert.equal(countHealthyPods(pods, { a: at(0) }, NOW + 120_000), 1);
  });

  it('nextStatus: nothing to write when the status is up to date; the condition keeps its transition time', async () => {
    const f = fixture({ minAvailable: 1 });
    f.pods.push(newPod('a'), newPod('b'));
    await sync(f);
    verify(f, 1, 2, 1, 2);
    assert.equal(nextStatus(f.pdb, { currentHealthy: 2, desiredHealthy: 1, expectedCount: 2 }, {}, at(5000)), undefined);
    const fewer = nextStatus(f.pdb, { currentHealthy: 1, desiredHealthy: 1, expectedCount: 2 }, {}, at(5000));
    assert.deepEqual(fewer?.conditions, [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: at(5000), reason: 'InsufficientPods', message: '' }]);
    assert.deepEqual(Object.keys(fewer!), ['observedGeneration', 'disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods', 'conditions'], "Go's field order");
  });

  it('TestBasicFinderFunctions and TestDeploymentFinderFunction: kinds and groups each finder accepts', async () => {
    const caches: WorkloadCaches = { replicationControllers: new Indexer(), replicaSets: new Indexer(), deployments: new Indexer(), statefulSets: new Indexer() };
    const rs = workload('ReplicaSet', 10);
    const rc = workload('ReplicationController', 12);
    const ss = workload('StatefulSet', 14);
    caches.replicaSets.set(rs);
    caches.replicationControllers.set(rc);
    caches.statefulSets.set(ss);
    const [byRc, , byRs, bySs] = scaleFinders(caches, new ResourceRegistry(), noScaleClient);
    const ref = (apiVersion: string, kind: string, w: Workload): OwnerReference => ({ apiVersion, kind, name: 'foobar', uid: w.metadata.uid ?? '' });
    assert.deepEqual(await byRs!(ref('apps/v1', 'ReplicaSet', rs), 'default'), { uid: rs.metadata.uid, scale: 10 });
    assert.equal(await byRs!(ref('invalid/v1', 'ReplicaSet', rs), 'default'), undefined);
    assert.deepEqual(await byRc!(ref('/v1', 'ReplicationController', rc), 'default'), { uid: rc.metadata.uid, scale: 12 });
    assert.equal(await byRc!(ref('apps/v1', 'ReplicationController', rc), 'default'), undefined);
    assert.deepEqual(await bySs!(ref('apps/v1', 'StatefulSet', ss), 'default'), { uid: ss.metadata.uid, scale: 14 });
    assert.equal(await bySs!(ref('apps/v1', 'ReplicaSet', ss), 'default'), undefined);
    await assert.rejects(byRs!(ref('a/b/c', 'ReplicaSet', rs), 'default'), /^Error: unexpected GroupVersion string: a\/b\/c$/);

    for (const [rsApiVersion, rsKind, depApiVersion, depKind, finds] of [
      ['apps/v1', 'ReplicaSet', 'extensions/v1', 'Deployment', true],
      ['invalid/v1', 'ReplicaSet', 'apps/v1', 'Deployment', false],
      ['apps/v1', 'InvalidKind', 'apps/v1', 'Deployment', false],
      ['extensions/v1', 'ReplicaSet', 'deployment/v1', 'Deployment', false],
      ['apps/v1', 'ReplicaSet', 'extensions/v1', 'InvalidKind', false],
    ] as const) {
      const c: WorkloadCaches = { replicationControllers: new Indexer(), replicaSets: new Indexer(), deployments: new Indexer(), statefulSets: new Indexer() };
      const dep = workload('Deployment', 10);
      c.deployments.set(dep);
      const owned = workload('ReplicaSet', 5);
      owned.metadata.ownerReferences = [{ apiVersion: depApiVersion, kind: depKind, name: 'foobar', uid: dep.metadata.uid ?? '', controller: true }];
      c.replicaSets.set(owned);
      const byDeployment = scaleFinders(c, new ResourceRegistry(), noScaleClient)[1]!;
      const found = await byDeployment(ref(rsApiVersion, rsKind, owned), 'default');
      assert.deepEqual(found, finds ? { uid: dep.metadata.uid, scale: 10 } : undefined, `${rsApiVersion} ${rsKind} / ${depApiVersion} ${depKind}`);
    }
  });

  it("the UnmanagedPods event prints the selector as Go's %v does", () => {
    assert.equal(labelSelectorString({ matchLabels: { foo: 'bar', app: 'web' } }), '&LabelSelector{MatchLabels:map[string]string{app: web,foo: bar,},MatchExpressions:[]LabelSelectorRequirement{},}');
    assert.equal(
      labelSelectorString({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'Exists' }] }),
      '&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[a b],},LabelSelectorRequirement{Key:x,Operator:Exists,Values:[],},},}',
    );
  });
});
