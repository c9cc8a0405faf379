import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { SCHEDULER_USER } from '../../../src/engine/apiserver/authn/user';
import { harness, type Harness } from './harness';
import { configMap, namespace, pod, serviceAccount } from './fixtures';

const pods = { resource: 'pods', namespace: 'default' } as const;
const binding = (name: string, node: string): JsonObject => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } });

describe('apiserver pods and collections', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
    await h.create(serviceAccount('default'), 'default');
  });
  afterEach(() => h.close());

  it('binds a pod once, marking it PodScheduled', async () => {
    await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    const res = await h.req({ ...pods, verb: 'create', user: SCHEDULER_USER, name: 'p', subresource: 'binding', body: { object: binding('p', 'node-1') } });
    assert.equal(res.code, 201);
    assert.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const got = await h.req({ ...pods, verb: 'get', name: 'p' });
    assert.equal((got.body.spec as JsonObject).nodeName, 'node-1');
    assert.deepEqual((got.body.status as JsonObject).conditions, [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' },
    ]);
    const again = await h.req({ ...pods, verb: 'create', name: 'p', subresource: 'binding', body: { object: binding('p', 'node-2') } });
    assert.equal(again.code, 409);
    assert.equal(again.body.message, 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-1"');
  });

  it('fieldValidation Warn answers with warnings; Strict refuses', async () => {
    const body = { object: { ...pod('p'), spec: { containers: [{ name: 'c', image: 'nginx', bogus: 1 }] } } };
    const warn = await h.req({ ...pods, verb: 'create', body });
    assert.equal(warn.code, 201);
    assert.deepEqual(warn.warnings, ['unknown field "spec.containers[0].bogus"']);
    const strict = await h.req({ ...pods, verb: 'create', options: { fieldValidation: 'Strict' }, body: { object: { ...body.object, metadata: { name: 'q' } } } });
    assert.equal(strict.code, 400);
    assert.equal(strict.body.message, 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"');
  });

  it('a patch whose result does not decode is the patch handler\'s kindless 422', async () => {
    await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap('c') } });
    const cm = { verb: 'patch' as const, resource: 'configmaps', namespace: 'default', name: 'c', options: { fieldValidation: 'Strict' as const } };
    const merge = await h.req({ ...cm, patchType: 'merge', body: { object: { bogus: 1 } } });
    assert.equal(merge.code, 422);
    assert.match(String(merge.body.message), /^ "" is invalid: patch: Invalid value: "\{.*\\"bogus\\":1.*\}": strict decoding error: unknown field "bogus"$/);
    const smp = await h.req({ ...cm, patchType: 'strategic', body: { object: { bogus: 1, data: { k: 'v' } } } });
    assert.equal(smp.body.message, ' "" is invalid: patch: Invalid value: "map[bogus:1 data:map[k:v]]": strict decoding error: unknown field "bogus"');
    const warn = await h.req({ ...cm, options: {}, patchType: 'merge', body: { object: { bogus: 1 } } });
    assert.equal(warn.code, 200);
    assert.deepEqual(warn.warnings, ['unknown field "bogus"']);
  });

  it('deletecollection deletes what the selector matches', async () => {
    for (const [n, l] of [['a', 'x'], ['b', 'y'], ['c', 'x']] as const) {
      await h.req({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { object: configMap(n, {}, { l }) } });
    }
    const res = await h.req({ verb: 'deletecollection', resource: 'configmaps', namespace: 'default', options: { labelSelector: 'l=x' } });
    assert.equal(res.code, 200);
    assert.deepEqual((res.body.items as JsonObject[]).map((i) => (i.metadata as JsonObject).name), ['a', 'c']);
    const left = await h.req({ verb: 'list', resource: 'configmaps', namespace: 'default' });
    assert.deepEqual((left.body.items as JsonObject[]).map((i) => (i.metadata as JsonObject).name), ['b']);
  });
});
