import { strict as assert } from 'node:assert';
import { ResourceRegistry } from '../../../src/engine/api/registry/registry';
import { mirroredResources } from '../../../src/extension/mirror-feed';

describe('language server mirror feed', () => {
  it('mirrors every stored resource once, without Events and Leases', () => {
    const names = mirroredResources(new ResourceRegistry().all()).map((r) => `${r.group}/${r.version}/${r.resource}`);
    for (const r of ['/v1/namespaces', '/v1/pods', '/v1/serviceaccounts', 'apps/v1/deployments', 'rbac.authorization.k8s.io/v1/rolebindings', 'discovery.k8s.io/v1/endpointslices']) assert.ok(names.includes(r), r);
    for (const r of ['/v1/events', 'events.k8s.io/v1/events', 'coordination.k8s.io/v1/leases', '/v1/bindings']) assert.ok(!names.includes(r), r);
    assert.equal(names.filter((n) => n.endsWith('/horizontalpodautoscalers')).length, 1, 'one version per stored resource');
  });
});
