import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

const json = { 'Content-Type': 'application/json' };
type Obj = Record<string, unknown>;

describe('http: pods/eviction with PodDisruptionBudgets', () => {
  let s: Served;
  const pods = '/api/v1/namespaces/default/pods';
  const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

  async function readyPod(name: string, phase = 'Running'): Promise<void> {
    const spec = { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] };
    const created = await s.send('POST', pods, { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec }) });
    assert.equal(created.status, 201, created.text);
    const pod = created.json();
    pod.status = { ...(pod.status as Obj), phase, conditions: [{ type: 'Ready', status: phase === 'Running' ? 'True' : 'False' }] };
    const updated = await s.send('PUT', `${pods}/${name}/status`, { headers: json, body: JSON.stringify(pod) });
    assert.equal(updated.status, 200, updated.text);
  }

  async function budget(status: Obj, observed = true): Promise<void> {
    const current = await s.send('GET', `${pdbs}/web`);
    let pdb: Obj;
    if (current.status === 404) {
      const created = await s.send('POST', pdbs, { headers: json, body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } }) });
      pdb = created.json();
    } else pdb = current.json();
    const generation = (pdb.metadata as Obj).generation as number;
    pdb.status = { observedGeneration: observed ? generation : generation - 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, ...status };
    const res = await s.send('PUT', `${pdbs}/web/status`, { headers: json, body: JSON.stringify(pdb) });
    assert.equal(res.status, 200, res.text);
  }

  const evict = (name: string, as = name) => s.send('POST', `${pods}/${name}/eviction`, { headers: json, body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: as } }) });

  before(async () => {
    s = await serve();
    await s.send('POST', '/api/v1/namespaces/default/serviceaccounts', { headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }) });
  });
  after(() => s.close());

  it('refuses with 429 when the budget allows no disruption', async () => {
    await readyPod('web-1');
    await budget({ disruptionsAllowed: 0 });
    const res = await evict('web-1');
    assert.equal(res.status, 429);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }] },
      code: 429,
    });
  });

  it('asks to retry while the budget controller has not seen the latest budget', async () => {
    await budget({ disruptionsAllowed: 1 }, false);
    const body = (await evict('web-1')).json();
    assert.deepEqual(body.details, { retryAfterSeconds: 10, causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }] });
  });

  it('evicts when the budget allows it: the pod is marked and deleted, the budget takes one disruption', async () => {
    await budget({ disruptionsAllowed: 1 });
    const res = await evict('web-1');
    assert.equal(res.status, 201, res.text);
    assert.equal(res.text, '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}\n');
    const pod = (await s.send('GET', `${pods}/web-1`)).json();
    assert.ok((pod.metadata as Obj).deletionTimestamp, 'the pod is being deleted');
    const conditions = (pod.status as { conditions: Obj[] }).conditions;
    const target = conditions.find((c) => c.type === 'DisruptionTarget')!;
    assert.deepEqual([target.status, target.reason, target.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
    const status = (await s.send('GET', `${pdbs}/web`)).json().status as Obj;
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(status.disruptedPods as Obj), ['web-1']);
    const allowed = (status.conditions as Obj[]).find((c) => c.type === 'DisruptionAllowed')!;
    assert.deepEqual([allowed.status, allowed.reason], ['False', 'InsufficientPods']);
  });

  it('deletes pending pods without asking the budget', async () => {
    await readyPod('web-2', 'Pending');
    await budget({ disruptionsAllowed: 0 });
    assert.equal((await evict('web-2')).status, 201);
  });

  it('checks the Eviction names the pod of the URL', async () => {
    const res = await evict('web-1', 'other');
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'name in URL does not match name in Eviction object');
    assert.equal((await evict('ghost')).json().message, 'pods "ghost" not found');
  });
});
