import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

describe('http: componentstatuses (kubectl get cs)', () => {
  let s: Served;
  before(async () => (s = await serve()));
  after(() => s.close());

  it('lists the control plane components as healthy, with the deprecation warning', async () => {
    const res = await s.send('GET', '/api/v1/componentstatuses');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.warning, '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    const list = res.json();
    assert.equal(list.kind, 'ComponentStatusList');
    assert.deepEqual(
      (list.items as Record<string, unknown>[]).map((i) => [(i.metadata as Record<string, unknown>).name, i.conditions]),
      ['controller-manager', 'scheduler', 'etcd-0'].map((n) => [n, [{ type: 'Healthy', status: 'True', message: 'ok' }]]),
    );
  });

  it('gets one by name; an unknown name is NotFound', async () => {
    assert.equal((await s.send('GET', '/api/v1/componentstatuses/scheduler')).json().kind, 'ComponentStatus');
    const missing = await s.send('GET', '/api/v1/componentstatuses/nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'componentstatuses "nope" not found');
  });
});
