/** The legacy Endpoints controller against the API server. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import { EndpointsController, ENDPOINT_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/endpoints/controller';
import { ENDPOINTS, PODS, SERVICEACCOUNTS, SERVICES } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isNotFound } from '../../../../src/engine/client/errors';
import type { Endpoints } from '../../../../src/engine/controllers/endpoints/types';

describe('controllers/endpoints scenario', () => {
  it('lists ready and not-ready pod addresses, and goes away with its Service', async () => {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    await h.admin.resource(SERVICES, 'default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } });
    const pods = h.admin.resource(PODS, 'default');
    for (const [name, ip, ready] of [['web-1', '10.244.1.7', true], ['web-2', '10.244.2.3', false]] as const) {
      await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] } });
      const pod = deepCopy(await pods.get(name));
      pod.status = { ...(pod.status as object), phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
      await pods.updateStatus(pod);
    }
    const controller = new EndpointsController(h.deps(ENDPOINT_CONTROLLER_ACCOUNT));
    h.start(controller);
    await h.clock.settle();
    const ep = await h.admin.resource<Endpoints>(ENDPOINTS, 'default').get('web');
    const ref = (name: string) => ({ kind: 'Pod', namespace: 'default', name, uid: '' });
    const strip = (e: Endpoints) => e.subsets?.map((s) => ({ ...s, addresses: s.addresses?.map((a) => ({ ...a, targetRef: { ...a.targetRef!, uid: '' } })), notReadyAddresses: s.notReadyAddresses?.map((a) => ({ ...a, targetRef: { ...a.targetRef!, uid: '' } })) }));
    assert.deepEqual(strip(ep), [
      {
        addresses: [{ ip: '10.244.1.7', nodeName: 'node-1', targetRef: ref('web-1') }],
        notReadyAddresses: [{ ip: '10.244.2.3', nodeName: 'node-1', targetRef: ref('web-2') }],
        // EndpointPort.name is omitempty: an unnamed port is stored without it.
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ]);
    assert.equal(ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'], '2025-01-01T00:00:00Z');

    await h.admin.resource(SERVICES, 'default').delete('web');
    await h.clock.settle();
    await assert.rejects(h.admin.resource(ENDPOINTS, 'default').get('web'), isNotFound);
    await h.close();
  });
});
