/**
 * The reconciler's placement, from k8s.io/endpointslice reconciler_test.go: how many writes of
 * which kind a sync takes and how full the resulting slices are.
 */
import { strict as assert } from 'node:assert';
import { reconcileSlices, type ReconcileInput, type SliceAction } from '../../../../src/engine/controllers/endpointslice/reconciler';
import { CONTROLLER_NAME, type EndpointSlice, type Pod, type Service } from '../../../../src/engine/controllers/util/types/endpoint';
import { endpointOf, newEmptySlice, newPod, newService, NODE_1, pods } from './fixtures';

function reconcile(service: Service, podList: readonly Pod[], existing: readonly EndpointSlice[], extra: Partial<ReconcileInput> = {}): { actions: SliceAction[]; errors: string[] } {
  return reconcileSlices({
    service,
    pods: podList,
    existing,
    node: (name) => (name === 'node-1' ? NODE_1 : undefined),
    maxEndpointsPerSlice: 100,
    controllerName: CONTROLLER_NAME,
    ...extra,
  });
}

const verbs = (actions: SliceAction[]): string[] => actions.map((a) => a.verb);
const lengths = (slices: EndpointSlice[]): number[] => slices.map((s) => (s.endpoints ?? []).length).sort((a, b) => a - b);

/** The slices after applying the actions to the existing ones (by name; creates get fresh names). */
function after(existing: readonly EndpointSlice[], actions: SliceAction[]): EndpointSlice[] {
  const byName = new Map(existing.map((s) => [s.metadata.name ?? '', s]));
  let n = 0;
  for (const { verb, slice } of actions) {
    if (verb === 'delete') byName.delete(slice.metadata.name ?? '');
    else byName.set(slice.metadata.name ?? `created-${n++}`, slice);
  }
  return [...byName.values()];
}

describe('controllers/endpointslice reconciler', () => {
  it('TestReconcileEmpty: a Service without pods gets one placeholder slice', () => {
    const svc = newService('foo', 'test');
    const { actions } = reconcile(svc, [], []);
    assert.deepEqual(verbs(actions), ['create']);
    const slice = actions[0]!.slice;
    assert.equal(slice.metadata.generateName, 'foo-');
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.endpoints, []);
    assert.equal(slice.ports, undefined);
    assert.deepEqual(slice.metadata.labels, { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'kubernetes.io/service-name': 'foo' });
    assert.deepEqual(slice.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'foo', uid: 'test-foo', controller: true, blockOwnerDeletion: true }]);
    // The placeholder is kept as it is on the next sync.
    const again = reconcile(svc, [], [{ ...slice, metadata: { ...slice.metadata, name: 'foo-abcde' } }]);
    assert.deepEqual(again.actions, []);
  });

  it('TestReconcile1Pod: one endpoint with conditions, node and target', () => {
    const svc = newService('foo', 'test');
    const pod = newPod(1, 'test', true);
    const { actions } = reconcile(svc, [pod], [], { triggerTime: '2025-01-01T00:00:05Z' });
    assert.deepEqual(verbs(actions), ['create']);
    const slice = actions[0]!.slice;
    assert.deepEqual(slice.ports, [{ name: 'foo', protocol: 'TCP', port: 80 }]);
    assert.deepEqual(slice.endpoints, [
      {
        addresses: ['10.0.0.5'],
        conditions: { ready: true, serving: true, terminating: false },
        targetRef: { kind: 'Pod', namespace: 'test', name: 'pod1', uid: 'uid-1' },
        nodeName: 'node-1',
      },
    ]);
    assert.deepEqual(slice.metadata.annotations, { 'endpoints.kubernetes.io/last-change-trigger-time': '2025-01-01T00:00:05Z' });
  });

  it('TestReconcileManyPods: 250 pods take three creates, 100/100/50', () => {
    const { actions } = reconcile(newService('foo', 'test'), pods(250), []);
    assert.deepEqual(verbs(actions), ['create', 'create', 'create']);
    assert.deepEqual(lengths(after([], actions)), [50, 100, 100]);
  });

  it('TestReconcileEndpointSlicesSomePreexisting: 127 to add go into one new slice and the slice that ends closest to full', () => {
    const svc = newService('foo', 'test');
    const all = pods(250);
    const s1 = newEmptySlice(1, svc);
    const s2 = newEmptySlice(2, svc);
    for (let i = 1; i < all.length - 4; i += 4) s1.endpoints!.push(endpointOf(all[i]!, svc));
    for (let i = 3; i < all.length - 4; i += 4) s2.endpoints!.push(endpointOf(all[i]!, svc));
    assert.deepEqual([s1.endpoints!.length, s2.endpoints!.length], [62, 61]);
    const { actions } = reconcile(svc, all, [s1, s2]);
    assert.deepEqual(verbs(actions), ['create', 'update']);
    assert.equal(actions[1]!.slice.metadata.name, 'foo-1');
    assert.deepEqual(lengths(after([s1, s2], actions)), [61, 89, 100]);
  });

  it('TestReconcileEndpointSlicesSomePreexistingWorseAllocation: 152 to add take two creates rather than two updates and a create', () => {
    const svc = newService('foo', 'test');
    const all = pods(300);
    const s1 = newEmptySlice(1, svc);
    const s2 = newEmptySlice(2, svc);
    for (let i = 1; i < all.length - 4; i += 4) s1.endpoints!.push(endpointOf(all[i]!, svc));
    for (let i = 3; i < all.length - 4; i += 4) s2.endpoints!.push(endpointOf(all[i]!, svc));
    const { actions } = reconcile(svc, all, [s1, s2]);
    assert.deepEqual(verbs(actions), ['create', 'create']);
    assert.deepEqual(lengths(after([s1, s2], actions)), [52, 74, 74, 100]);
  });

  it('TestReconcileEndpointSlicesUpdating: a target port change updates every slice in place', () => {
    const svc = newService('foo', 'test');
    const all = pods(250);
    const created = after([], reconcile(svc, all, []).actions).map((s, i) => ({ ...s, metadata: { ...s.metadata, name: `foo-${i}`, uid: `u${i}` } }));
    svc.spec!.ports![0]!.targetPort = 81;
    const { actions } = reconcile(svc, all, created);
    assert.deepEqual(verbs(actions), ['update', 'update', 'update']);
    assert.deepEqual(lengths(after(created, actions)), [50, 100, 100]);
    assert.ok(actions.every((a) => a.slice.ports?.[0]?.port === 81));
  });

  it('TestReconcileEndpointSlicesServicesLabelsUpdating and ReservedLabels: Service labels are mirrored, reserved ones ignored', () => {
    const svc = newService('foo', 'test');
    const all = pods(250);
    const created = after([], reconcile(svc, all, []).actions).map((s, i) => ({ ...s, metadata: { ...s.metadata, name: `foo-${i}` } }));
    const reserved = { ...svc, metadata: { ...svc.metadata, labels: { 'kubernetes.io/service-name': 'bad', 'endpointslice.kubernetes.io/managed-by': 'actor', 'service.kubernetes.io/headless': 'invalid' } } };
    assert.deepEqual(reconcile(reserved, all, created).actions, []);
    const labelled = { ...svc, metadata: { ...svc.metadata, labels: { foo: 'bar' } } };
    const { actions } = reconcile(labelled, all, created);
    assert.deepEqual(verbs(actions), ['update', 'update', 'update']);
    assert.ok(actions.every((a) => a.slice.metadata.labels?.foo === 'bar'));
  });

  it('TestReconcileEndpointSlicesRecycling: ten slices of 30 repack into three full ones: 3 updates, 7 deletes', () => {
    const svc = newService('foo', 'test');
    const all = pods(300);
    const existing: EndpointSlice[] = [];
    all.forEach((pod, i) => {
      if (i % 30 === 0) existing.push(newEmptySlice(i / 30, svc));
      existing[Math.floor(i / 30)]!.endpoints!.push(endpointOf(pod, svc));
    });
    assert.deepEqual(reconcile(svc, all, existing).actions, []);
    svc.spec!.ports![0]!.targetPort = 81;
    const { actions } = reconcile(svc, all, existing);
    assert.deepEqual(verbs(actions), ['update', 'update', 'update', 'delete', 'delete', 'delete', 'delete', 'delete', 'delete', 'delete']);
    assert.deepEqual(lengths(after(existing, actions)), [100, 100, 100]);
  });

  it('TestReconcileEndpointSlicesUpdatePacking: new endpoints go to the fuller slice being updated', () => {
    const svc = newService('foo', 'test');
    const list: Pod[] = [];
    const s1 = newEmptySlice(1, svc);
    for (let i = 0; i < 80; i++) {
      const pod = newPod(i, 'test', true);
      s1.endpoints!.push(endpointOf(pod, svc));
      list.push(pod);
    }
    const s2 = newEmptySlice(2, svc);
    for (let i = 100; i < 120; i++) {
      const pod = newPod(i, 'test', true);
      s2.endpoints!.push(endpointOf(pod, svc));
      list.push(pod);
    }
    list.forEach((pod, i) => {
      if (i % 10 === 0) pod.status!.conditions = [{ type: 'Ready', status: 'False' }];
    });
    for (let i = 200; i < 215; i++) list.push(newPod(i, 'test', true));
    const { actions } = reconcile(svc, list, [s1, s2]);
    assert.deepEqual(verbs(actions), ['update', 'update']);
    assert.deepEqual(lengths(after([s1, s2], actions)), [20, 95]);
  });

  it('TestReconcileEndpointSlicesReplaceDeprecated: slices of the old "IP" address type are replaced, packed anew', () => {
    const svc = newService('foo', 'test');
    const list: Pod[] = [];
    const s1 = newEmptySlice(1, svc, undefined, 'IP');
    for (let i = 0; i < 80; i++) {
      const pod = newPod(i, 'test', true);
      s1.endpoints!.push(endpointOf(pod, svc));
      list.push(pod);
    }
    const s2 = newEmptySlice(2, svc, undefined, 'IP');
    for (let i = 100; i < 150; i++) {
      const pod = newPod(i, 'test', true);
      s2.endpoints!.push(endpointOf(pod, svc));
      list.push(pod);
    }
    const { actions } = reconcile(svc, list, [s1, s2]);
    assert.deepEqual(verbs(actions), ['create', 'create', 'delete', 'delete']);
    const result = after([s1, s2], actions);
    assert.deepEqual(lengths(result), [30, 100]);
    assert.ok(result.every((s) => s.addressType === 'IPv4'));
  });

  it('TestReconcileEndpointSlicesRecreation: a slice owned by an older Service of the same name is replaced, not updated', () => {
    const svc = newService('foo', 'test');
    const stale = newEmptySlice(1, { ...svc, metadata: { ...svc.metadata, uid: 'other-uid' } });
    stale.endpoints!.push(endpointOf(newPod(1, 'test', true), svc));
    const { actions } = reconcile(svc, [newPod(1, 'test', true)], [stale]);
    assert.deepEqual(verbs(actions), ['create', 'delete']);
    const owned = newEmptySlice(1, svc);
    owned.endpoints!.push(endpointOf(newPod(1, 'test', true), svc));
    assert.deepEqual(verbs(reconcile(svc, [newPod(1, 'test', false)], [owned]).actions), ['update']);
  });

  it('TestReconcileEndpointSlicesNamedPorts: pods resolving a named port differently get slices of their own', () => {
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'named-port-example', namespace: 'test', uid: 'u' },
      spec: { ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }], selector: { foo: 'bar' }, ipFamilies: ['IPv4'] },
    };
    const list = pods(300).map((pod, i) => {
      pod.spec!.containers![0]!.ports = [{ name: 'http', containerPort: 8080 + (i % 5), protocol: 'TCP' }];
      return pod;
    });
    const { actions } = reconcile(svc, list, []);
    assert.deepEqual(verbs(actions), ['create', 'create', 'create', 'create', 'create']);
    assert.deepEqual(lengths(after([], actions)), [60, 60, 60, 60, 60]);
    assert.deepEqual(actions.map((a) => a.slice.ports).sort((a, b) => a![0]!.port! - b![0]!.port!), [8080, 8081, 8082, 8083, 8084].map((port) => [{ name: '', protocol: 'TCP', port }]));
  });

  for (const [max, expected] of [
    [50, [50, 50, 50, 50, 50]],
    [80, [10, 80, 80, 80]],
    [150, [100, 150]],
    [250, [250]],
    [500, [250]],
  ] as const) {
    it(`TestReconcileMaxEndpointsPerSlice: ${max}`, () => {
      const { actions } = reconcile(newService('foo', 'test'), pods(250), [], { maxEndpointsPerSlice: max });
      assert.deepEqual(lengths(after([], actions)), expected);
    });
  }

  it('TestReconcilerFinalizeSvcDeletionTimestamp: a Service being deleted gets no new slices, updates and deletes still happen', () => {
    const svc = newService('foo', 'test');
    svc.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
    assert.deepEqual(reconcile(svc, pods(3), []).actions, []);
    const existing = newEmptySlice(1, svc);
    existing.endpoints!.push(endpointOf(newPod(0, 'test', false), svc));
    assert.deepEqual(verbs(reconcile(svc, pods(1), [existing]).actions), []);
    assert.deepEqual(verbs(reconcile(svc, pods(2), [existing]).actions), ['update']);
  });

  describe('TestReconcilerPodMissingNode', () => {
    const svc = newService('foo', 'test');
    const onMissing = newPod(1, 'test', true);
    onMissing.spec!.nodeName = 'node-2';
    it('leaves the pod out and reports the error, unless publishNotReadyAddresses', () => {
      const plan = reconcile(svc, [onMissing], []);
      assert.deepEqual(plan.errors, ['skipping Pod pod1 for Service test/foo: Node node-2 Not Found']);
      assert.deepEqual(verbs(plan.actions), ['create']);
      assert.deepEqual(plan.actions[0]!.slice.endpoints, []);
      const publishing = { ...svc, spec: { ...svc.spec, publishNotReadyAddresses: true } };
      const published = reconcile(publishing, [onMissing], []);
      assert.deepEqual(published.errors, []);
      assert.equal(published.actions[0]!.slice.endpoints!.length, 1);
      assert.equal(published.actions[0]!.slice.endpoints![0]!.zone, undefined);
    });
  });

  it('terminating pods stay as not ready, serving endpoints; finished pods and pods without an IP are left out', () => {
    const svc = newService('foo', 'test');
    const terminating = newPod(1, 'test', true, true);
    const done = newPod(2, 'test', true);
    done.status!.phase = 'Succeeded';
    const noIP = newPod(3, 'test', false);
    noIP.status = { conditions: [] };
    const { actions } = reconcile(svc, [terminating, done, noIP], []);
    assert.deepEqual(actions[0]!.slice.endpoints!.map((e) => [e.targetRef?.name, e.conditions]), [['pod1', { ready: false, serving: true, terminating: true }]]);
  });

  it('a headless Service is labelled headless and may have no ports', () => {
    const svc = newService('db', 'test');
    svc.spec = { ...svc.spec, clusterIP: 'None', ports: [] };
    const pod = newPod(1, 'test', true);
    pod.spec!.hostname = 'db-0';
    pod.spec!.subdomain = 'db';
    const { actions } = reconcile(svc, [pod], []);
    const slice = actions[0]!.slice;
    assert.equal(slice.metadata.labels?.['service.kubernetes.io/headless'], '');
    assert.equal(slice.ports, undefined);
    assert.equal(slice.endpoints![0]!.hostname, 'db-0');
  });
});
