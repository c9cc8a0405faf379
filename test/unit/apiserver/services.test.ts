import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { namespace } from './fixtures';

const spec = (o: JsonObject): JsonObject => o.spec as JsonObject;
const svc = (name: string, s: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...s } });
const services = { resource: 'services', namespace: 'default' } as const;

describe('apiserver services', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
  });
  afterEach(() => h.close());

  it('allocates a ClusterIP from the service range, the same one for the same seed', async () => {
    const a = await h.req({ ...services, verb: 'create', body: { object: svc('a', {}) } });
    assert.equal(a.code, 201);
    const s = spec(a.body);
    assert.match(String(s.clusterIP), /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    assert.deepEqual(s.clusterIPs, [s.clusterIP]);
    assert.deepEqual(s.ipFamilies, ['IPv4']);
    assert.equal(s.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(a.body.status, { loadBalancer: {} });
    const again = await harness();
    await again.create(namespace('default'));
    const b = await again.req({ ...services, verb: 'create', body: { object: svc('a', {}) } });
    assert.equal(spec(b.body).clusterIP, s.clusterIP);
    await again.close();
  });

  it('refuses an address in use or out of range with the allocator texts', async () => {
    await h.req({ ...services, verb: 'create', body: { object: svc('a', { clusterIP: '10.96.0.10' }) } });
    const taken = await h.req({ ...services, verb: 'create', body: { object: svc('b', { clusterIP: '10.96.0.10' }) } });
    assert.equal(taken.code, 422);
    assert.equal(taken.body.message, 'Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated');
    const outside = await h.req({ ...services, verb: 'create', body: { object: svc('c', { clusterIP: '10.0.0.1' }) } });
    assert.equal(
      outside.body.message,
      'Service "c" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    await h.req({ ...services, verb: 'delete', name: 'a' });
    const freed = await h.req({ ...services, verb: 'create', body: { object: svc('d', { clusterIP: '10.96.0.10' }) } });
    assert.equal(freed.code, 201, 'deleting a service releases its address');
  });

  it('allocates node ports and refuses taken ones; a dry run takes nothing', async () => {
    const a = await h.req({ ...services, verb: 'create', body: { object: svc('a', { type: 'NodePort' }) } });
    const port = (spec(a.body).ports as JsonObject[])[0]!.nodePort as number;
    assert.ok(port >= 30000 && port <= 32767);
    const taken = await h.req({ ...services, verb: 'create', body: { object: svc('b', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }) } });
    assert.equal(taken.body.message, `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`);
    const dry = await h.req({ ...services, verb: 'create', options: { dryRun: true }, body: { object: svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30500 }] }) } });
    assert.equal(dry.code, 201);
    const real = await h.req({ ...services, verb: 'create', body: { object: svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30500 }] }) } });
    assert.equal(real.code, 201);
  });

  it('an update that leaves out the allocated values keeps them', async () => {
    const a = await h.req({ ...services, verb: 'create', body: { object: svc('a', { type: 'NodePort' }) } });
    const put = await h.req({ ...services, verb: 'update', name: 'a', body: { object: svc('a', { type: 'NodePort' }) } });
    assert.equal(put.code, 200);
    assert.equal(spec(put.body).clusterIP, spec(a.body).clusterIP);
    assert.deepEqual(spec(put.body).ports, spec(a.body).ports);
  });

  it('an update that changes clusterIP alone changes clusterIPs with it, and is refused as a change of the allocated address', async () => {
    const a = await h.req({ ...services, verb: 'create', body: { object: svc('a', { clusterIP: '10.96.0.20' }) } });
    assert.deepEqual(spec(a.body).clusterIPs, ['10.96.0.20']);
    const moved = { ...a.body, spec: { ...spec(a.body), clusterIP: '10.96.0.21' } };
    const res = await h.req({ ...services, verb: 'update', name: 'a', body: { object: moved } });
    assert.equal(res.code, 422);
    assert.equal(res.body.message, 'Service "a" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.21"]: may not change once set');
    const both = { ...a.body, spec: { ...spec(a.body), clusterIP: '10.96.0.21', clusterIPs: ['10.96.0.22'] } };
    const mismatch = await h.req({ ...services, verb: 'update', name: 'a', body: { object: both } });
    assert.match(String(mismatch.body.message), /first value must match `clusterIP`/, 'a client that sends both fields gets them checked as sent');
  });
});
