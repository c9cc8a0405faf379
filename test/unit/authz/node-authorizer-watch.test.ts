import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { nodeUser } from '../../../src/engine/apiserver/authn/user';

describe('kubelet identity through the API server', () => {
  it('may list and watch its own Node by fieldSelector metadata.name, not another node', async () => {
    const cluster = await createCluster();
    const admin = cluster.client();
    await admin.resource({ group: '', version: 'v1', resource: 'nodes' }).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    const kubelet = cluster.client(nodeUser('node-1'), 'kubelet/v1.35.0');
    const own = await kubelet.request({ verb: 'list', group: '', version: 'v1', resource: 'nodes', options: { fieldSelector: 'metadata.name=node-1' } });
    assert.equal(own.code, 200);
    const other = await kubelet.request({ verb: 'list', group: '', version: 'v1', resource: 'nodes', options: { fieldSelector: 'metadata.name=node-2' } });
    assert.equal(other.code, 403);
    assert.match(String(other.body.message), /^nodes "node-2" is forbidden: User "system:node:node-1" cannot list resource "nodes" in API group "" at the cluster scope/);
    await cluster.close();
  });
});
