/** The EndpointSlice controller against the API server: endpoints follow pod readiness and deletion. */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { EndpointSliceController, ENDPOINTSLICE_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/endpointslice/controller';
import { ENDPOINTSLICES, NODES, PODS, SERVICEACCOUNTS, SERVICES } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { EndpointSlice } from '../../../../src/engine/controllers/util/types/endpoint';
import type { ReconcileRecord } from '../../../../src/engine/trace/reconcile';

async function setup(): Promise<ControllerHarness> {
  const h = await controllerHarness();
  await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  await h.admin.resource(NODES).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } });
  await h.admin.resource(SERVICES, 'default').create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  });
  return h;
}

async function createPod(h: ControllerHarness, name: string, ip: string): Promise<void> {
  await h.admin.resource(PODS, 'default').create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
  });
  await setPodStatus(h, name, ip, false);
}

async function setPodStatus(h: ControllerHarness, name: string, ip: string, ready: boolean): Promise<void> {
  const pods = h.admin.resource(PODS, 'default');
  const pod = deepCopy(await pods.get(name));
  pod.status = {
    ...(pod.status as object),
    phase: 'Running',
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: h.clock.rfc3339() }],
  };
  await pods.updateStatus(pod);
}

async function slices(h: ControllerHarness): Promise<EndpointSlice[]> {
  return (await h.admin.resource<EndpointSlice>(ENDPOINTSLICES, 'default').list({ labelSelector: 'kubernetes.io/service-name=web' })).items;
}

const conditions = (s: EndpointSlice): unknown => (s.endpoints ?? []).map((e) => [e.targetRef?.name, e.addresses[0], e.conditions]);

describe('controllers/endpointslice scenario', () => {
  it('a placeholder slice, then endpoints that follow readiness and deletion', async () => {
    const h = await setup();
    const controller = new EndpointSliceController(h.deps(ENDPOINTSLICE_CONTROLLER_ACCOUNT));
    h.start(controller);
    await h.clock.settle();

    let [slice, ...rest] = await slices(h);
    assert.equal(rest.length, 0);
    assert.match(slice!.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
    assert.equal((slice!.endpoints ?? []).length, 0);
    assert.deepEqual(slice!.metadata.labels, { app: 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'kubernetes.io/service-name': 'web' });
    assert.equal(slice!.metadata.ownerReferences?.[0]?.kind, 'Service');
    assert.equal(slice!.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'], h.clock.rfc3339());
    const placeholder = slice!.metadata.name;

    await createPod(h, 'web-1', '10.244.1.5');
    await h.clock.settle();
    [slice] = await slices(h);
    assert.equal(slice!.metadata.name, placeholder, 'the placeholder is recycled');
    assert.deepEqual(slice!.ports, [{ name: 'http', protocol: 'TCP', port: 8080 }]);
    assert.deepEqual(conditions(slice!), [['web-1', '10.244.1.5', { ready: false, serving: false, terminating: false }]]);
    assert.equal(slice!.endpoints![0]!.zone, 'zone-a');
    assert.equal(slice!.endpoints![0]!.nodeName, 'node-1');

    await h.clock.advance(5000);
    await setPodStatus(h, 'web-1', '10.244.1.5', true);
    await h.clock.settle();
    [slice] = await slices(h);
    assert.deepEqual(conditions(slice!), [['web-1', '10.244.1.5', { ready: true, serving: true, terminating: false }]]);
    assert.equal(slice!.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'], h.clock.rfc3339());

    await h.admin.resource(PODS, 'default').delete('web-1');
    await h.clock.settle();
    [slice] = await slices(h);
    assert.deepEqual(conditions(slice!), [['web-1', '10.244.1.5', { ready: false, serving: true, terminating: true }]]);

    await h.admin.resource(PODS, 'default').delete('web-1', { gracePeriodSeconds: 0 });
    await h.clock.settle();
    [slice, ...rest] = await slices(h);
    assert.equal(rest.length, 0);
    assert.equal((slice!.endpoints ?? []).length, 0);

    const records = h.trace.records().filter((r): r is ReconcileRecord => r.type === 'controller.reconcile' && r.controller === 'endpointslice');
    assert.ok(records.length > 0 && records.every((r) => r.outcome === 'done'), JSON.stringify(records.filter((r) => r.outcome !== 'done')));
    const writes = h.trace.records().filter((r) => r.type === 'api.request' && r.resource === 'endpointslices' && r.verb !== 'list' && r.verb !== 'watch');
    assert.ok(writes.every((r) => r.type === 'api.request' && r.user === 'system:serviceaccount:kube-system:endpointslice-controller' && r.code < 300));
    await h.close();
  });

  it('a slice edited by someone else is put back after a second', async () => {
    const h = await setup();
    const controller = new EndpointSliceController(h.deps(ENDPOINTSLICE_CONTROLLER_ACCOUNT));
    h.start(controller);
    await createPod(h, 'web-1', '10.244.1.5');
    await h.clock.settle();
    const [slice] = await slices(h);
    const edited = deepCopy(slice!) as KubeObject & EndpointSlice;
    edited.endpoints = [];
    await h.admin.resource(ENDPOINTSLICES, 'default').update(edited);
    await h.clock.settle();
    const [restored] = await slices(h);
    assert.deepEqual(conditions(restored!), [['web-1', '10.244.1.5', { ready: false, serving: false, terminating: false }]]);
    await h.close();
  });
});
