import { strict as assert } from 'node:assert';
import { buildFlow, causalChain, causeIndex, isUserWrite, stepLabel } from '../../../webview/model/flow';
import { RecordStore } from '../../../webview/model/record-store';
import type { PanelRecord } from '../../../src/protocol/panel';
import { attempt, binding, kubelet, reconcile, request, revision } from './records';

/**
 * An apply as the engine links it: the user's request writes the Deployment; the deployment
 * controller's reconcile (caused by that revision) creates a ReplicaSet; the replicaset
 * controller creates a Pod; the scheduler binds it; the kubelet starts it and reports Ready; the
 * endpointslice controller updates the slice. A reconcile's id is reserved before its requests.
 */
function applyChain(): PanelRecord[] {
  return [
    request(10, { revision: 100 }),
    revision(11, { cause: 10, revision: 100 }),
    reconcile(12, { cause: 11, revision: 100, requests: [13] }),
    request(13, { user: 'system:serviceaccount:kube-system:deployment-controller', cause: 12, resource: 'replicasets', name: 'web-abc', revision: 101 }),
    revision(14, { cause: 13, revision: 101, resource: 'replicasets', key: '/registry/replicasets/default/web-abc', name: 'web-abc', actor: 'system:serviceaccount:kube-system:deployment-controller' }),
    reconcile(15, { cause: 14, component: 'replicaset-controller', controller: 'replicaset', key: 'default/web-abc', requests: [16] }),
    request(16, { cause: 15, group: '', resource: 'pods', name: 'web-1', revision: 102 }),
    revision(17, { cause: 16, revision: 102, group: '', resource: 'pods', key: '/registry/pods/default/web-1', name: 'web-1' }),
    attempt(18, { cause: 17 }),
    request(19, { cause: 18, user: 'system:kube-scheduler', group: '', resource: 'pods', subresource: 'binding', name: 'web-1', revision: 103 }),
    binding(20, { cause: 18 }),
    revision(21, { cause: 19, revision: 103, group: '', resource: 'pods', key: '/registry/pods/default/web-1', name: 'web-1', operation: 'update', change: 'spec.nodeName: set "node-2"' }),
    kubelet(22, { cause: 21, node: 'node-2', action: 'pod-admitted', container: undefined }),
    request(23, { cause: 22, user: 'system:node:node-2', verb: 'patch', group: '', resource: 'pods', subresource: 'status', name: 'web-1', revision: 104 }),
    revision(24, { cause: 23, revision: 104, group: '', resource: 'pods', key: '/registry/pods/default/web-1', name: 'web-1', operation: 'update', change: 'status.conditions[1].status: "False" → "True"' }),
    reconcile(25, { cause: 24, component: 'endpointslice-controller', controller: 'endpointslice', key: 'default/web', requests: [26] }),
    request(26, { cause: 25, group: 'discovery.k8s.io', resource: 'endpointslices', verb: 'update', name: 'web-x1', revision: 105 }),
    revision(27, { cause: 26, revision: 105, group: 'discovery.k8s.io', resource: 'endpointslices', key: '/registry/endpointslices/default/web-x1', name: 'web-x1', operation: 'update' }),
    // Unrelated: another user's request and what it caused.
    request(28, { name: 'other', revision: 106 }),
    revision(29, { cause: 28, revision: 106, name: 'other' }),
  ];
}

describe('panel flow: the causal chain of an apply, from cause links only', () => {
  it('follows cause links from the root down, in id order, and nothing else', () => {
    const records = applyChain();
    const chain = causalChain(records[0]!, causeIndex(records));
    assert.deepEqual(chain.map((r) => r.id), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]);
    assert.deepEqual(causalChain(records[18]!, causeIndex(records)).map((r) => r.id), [28, 29]);
  });

  it('lays lanes out as API server, etcd, controllers, scheduler, kubelets and draws an arrow from each cause', () => {
    const records = applyChain();
    const flow = buildFlow(records[0]!, causeIndex(records));
    assert.deepEqual(flow.lanes.map((l) => l.title), ['API server', 'etcd', 'deployment-controller', 'replicaset-controller', 'endpointslice-controller', 'kube-scheduler', 'kubelet node-2']);
    const lane = (id: number) => flow.steps.find((s) => s.record.id === id)!;
    assert.equal(lane(10).from, undefined, 'the root has no incoming arrow');
    assert.deepEqual([lane(11).from, lane(11).lane], [0, 1], 'API server -> etcd: the revision the request wrote');
    assert.deepEqual([lane(12).from, lane(12).lane], [1, 2], 'etcd -> deployment controller: the watch event');
    assert.deepEqual([lane(13).from, lane(13).lane], [2, 0], 'deployment controller -> API server: its request');
    assert.deepEqual([lane(18).from, lane(18).lane], [1, 5], 'etcd -> scheduler');
    assert.deepEqual([lane(20).from, lane(20).lane], [5, 5], 'the binding outcome stays on the scheduler lane');
    assert.deepEqual([lane(22).from, lane(22).lane], [1, 6], 'etcd -> kubelet');
    assert.equal(flow.steps.at(-1)!.label, 'rev 105 update /registry/endpointslices/default/web-x1', 'it ends at the EndpointSlice update');
    assert.equal(flow.omitted, 0);
  });

  it('bounds the drawing and says how much it left out', () => {
    const records = applyChain();
    const flow = buildFlow(records[0]!, causeIndex(records), { maxSteps: 5 });
    assert.equal(flow.steps.length, 5);
    assert.equal(flow.omitted, 13);
  });

  it('a cause that fell off the buffer is not followed (no invented links)', () => {
    const records = applyChain().filter((r) => r.id !== 17);
    const chain = causalChain(records[0]!, causeIndex(records)).map((r) => r.id);
    assert.deepEqual(chain, [10, 11, 12, 13, 14, 15, 16]);
  });

  it('the store keeps the cause index as records come and go', () => {
    const store = new RecordStore();
    store.reset(10, 1);
    const first = store.add(applyChain().slice(0, 8));
    assert.deepEqual([first.added.length, first.dropped.length], [8, 0]);
    assert.deepEqual(causalChain(store.get(10)!, store.causes).map((r) => r.id), [10, 11, 12, 13, 14, 15, 16, 17]);
    const second = store.add(applyChain().slice(8, 12));
    assert.deepEqual(second.dropped.map((r) => r.id), [10, 11]);
    assert.equal(store.size, 10);
    assert.equal(store.get(10), undefined, 'the oldest fell off');
    assert.equal(store.fellOff, 11, 'ids 1 to 11 are gone');
    assert.deepEqual(store.effectsOf(10), [], 'its effects went with it');
    assert.deepEqual(store.effectsOf(18).map((r) => r.id), [19, 20]);
    assert.deepEqual(store.add([request(5), request(18)]).added, [], 'neither a fallen-off id nor a duplicate comes back');
  });

  it('only users\' requests (no cause, not a control-plane identity), real writes, are apply roots', () => {
    assert.equal(isUserWrite(request(1)), true);
    assert.equal(isUserWrite(request(2, { cause: 1 })), false);
    assert.equal(isUserWrite(request(3, { verb: 'get' })), false);
    assert.equal(isUserWrite(request(4, { dryRun: true })), false);
    assert.equal(isUserWrite(revision(5)), false);
    assert.equal(isUserWrite(request(6, { user: 'system:node:node-1', verb: 'patch', resource: 'nodes', subresource: 'status' })), false, "a kubelet's heartbeat is not an apply");
    assert.equal(isUserWrite(request(7, { user: 'alice', verb: 'patch' })), true);
  });

  it('labels steps from the records alone', () => {
    assert.equal(stepLabel(request(1, { code: 201 })), 'create deployments.apps default/web → 201');
    assert.equal(stepLabel(reconcile(2, { requests: [3] })), 'sync default/web: done, 1 request');
    assert.equal(stepLabel(attempt(3)), 'schedule default/web-1: scheduled on node-2');
    assert.equal(stepLabel(binding(4)), 'bind default/web-1 → node-2: bound');
    assert.equal(stepLabel(kubelet(5)), 'container-started default/web-1 nginx');
  });
});
