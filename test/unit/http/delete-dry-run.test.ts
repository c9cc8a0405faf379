import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

const json = { 'Content-Type': 'application/json' };

describe('http: dryRun in a DELETE body (kubectl delete --dry-run=server, drain --dry-run=server)', () => {
  let s: Served;
  const cms = '/api/v1/namespaces/default/configmaps';
  const pods = '/api/v1/namespaces/default/pods';
  before(async () => {
    s = await serve();
    await s.send('POST', '/api/v1/namespaces/default/serviceaccounts', { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }) });
  });
  after(() => s.close());

  it('DeleteOptions {dryRun: ["All"]} answers as a delete and stores nothing', async () => {
    assert.equal((await s.send('POST', cms, { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' } }) })).status, 201);
    const res = await s.send('DELETE', `${cms}/keep`, { headers: json, body: JSON.stringify({ propagationPolicy: 'Background', dryRun: ['All'] }) });
    assert.equal(res.status, 200, res.text);
    assert.equal((await s.send('GET', `${cms}/keep`)).status, 200);
    const all = await s.send('DELETE', cms, { headers: json, body: JSON.stringify({ dryRun: ['All'] }) });
    assert.equal(all.status, 200, all.text);
    assert.equal((await s.send('GET', `${cms}/keep`)).status, 200);
  });

  it("an Eviction's deleteOptions.dryRun keeps the pod", async () => {
    const spec = { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] };
    assert.equal((await s.send('POST', pods, { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }) })).status, 201);
    const res = await s.send('POST', `${pods}/p/eviction`, { headers: json, body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' }, deleteOptions: { dryRun: ['All'] } }) });
    assert.equal(res.status, 201, res.text);
    const pod = await s.send('GET', `${pods}/p`);
    assert.equal(pod.status, 200);
    assert.equal((pod.json().metadata as Record<string, unknown>).deletionTimestamp, undefined);
  });
});
