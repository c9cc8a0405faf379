import assert from 'node:assert/strict';
import type { JsonObject, JsonValue } from '../../../src/engine/api/types';
import { StatusError } from '../../../src/engine/api/status';
import { patchObject } from '../../../src/engine/apiserver/patch';
import { lookupForStruct } from '../../../src/engine/apiserver/patch/strategic/meta';
import { schemaForKind } from '../../../src/engine/api/openapi';

const deployment = schemaForKind('apps', 'v1', 'Deployment')!;
const objectMeta = deployment.properties!.metadata!;

const live: JsonObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] },
          { name: 'sidecar', image: 'busybox', args: ['sleep', '3600'] },
        ],
      },
    },
  },
};

const patch = (p: JsonValue): JsonValue => patchObject({ type: 'strategic', current: live, patch: p, schema: deployment });

function statusOf(p: JsonValue): StatusError {
  try {
    patch(p);
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('patch applied');
}

const containers = (obj: JsonValue): JsonValue => ((obj as any).spec.template.spec.containers as JsonValue);

describe('strategic merge patch on a Deployment', () => {
  it('merges containers by name and keeps the others', () => {
    const out = patch({ spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } });
    assert.deepStrictEqual(containers(out), [
      { name: 'nginx', image: 'nginx:1.28', ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'sidecar', image: 'busybox', args: ['sleep', '3600'] },
    ]);
  });

  it('orders by $setElementOrder and deletes with $patch: delete (kubectl apply)', () => {
    const out = patch({
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'init' }, { name: 'nginx' }],
            containers: [{ name: 'init', image: 'alpine' }, { $patch: 'delete', name: 'sidecar' }],
          },
        },
      },
    });
    assert.deepStrictEqual(containers(out), [
      { name: 'init', image: 'alpine' },
      { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] },
    ]);
  });

  it('replaces atomic lists and switches strategy with $retainKeys', () => {
    const out = patch({
      spec: {
        strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null },
        template: { spec: { containers: [{ name: 'sidecar', args: ['sleep', '1'] }] } },
      },
    }) as any;
    assert.deepStrictEqual(out.spec.strategy, { type: 'Recreate' });
    assert.deepStrictEqual(out.spec.template.spec.containers[1].args, ['sleep', '1']);
  });

  it('merges and deletes set items', () => {
    const out = patch({ metadata: { finalizers: ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } }) as any;
    assert.deepStrictEqual(out.metadata.finalizers, ['c', 'a']);
    assert.deepStrictEqual((patch({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as any).metadata.finalizers, ['b']);
  });

  it('removes a field with null and replaces a map with $patch: replace', () => {
    const out = patch({ metadata: { labels: { $patch: 'replace', tier: 'front' } }, spec: { replicas: null } }) as any;
    assert.deepStrictEqual(out.metadata.labels, { tier: 'front' });
    assert.equal(out.spec.replicas, undefined);
  });

  it('does not touch the current object', () => {
    const before = JSON.stringify(live);
    patch({ spec: { template: { spec: { containers: [{ name: 'nginx', image: 'x' }] } } } });
    assert.equal(JSON.stringify(live), before);
  });
});

describe('strategic merge patch: errors as the patch handler answers', () => {
  const table: Array<[string, JsonValue, number, string]> = [
    ['a body that is not an object', ['x'], 400, 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a bad $retainKeys', { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 1 } } } }, 400, 'invalid patch format of retainKeys'],
    ['$retainKeys that is not a list', { spec: { strategy: { $retainKeys: 'type' } } }, 400, 'invalid patch format of retainKeys'],
    ['a deletion list without a field', { metadata: { $deleteFromPrimitiveList: ['a'] } }, 400, 'invalid patch format of primitive list'],
    ['an order list without a field', { metadata: { $setElementOrderfinalizers: ['a'] } }, 400, 'invalid patch format of setElementOrder list'],
    [
      'an item without its merge key',
      { spec: { template: { spec: { containers: [{ image: 'nginx' }] } } } },
      500,
      'map: map[image:nginx] does not contain declared merge key: name',
    ],
    [
      '$patch: merge in a list',
      { spec: { template: { spec: { containers: [{ $patch: 'merge', name: 'nginx' }] } } } },
      500,
      'merging lists cannot yet be specified in the patch',
    ],
    [
      'an unknown $patch in a list',
      { spec: { template: { spec: { containers: [{ $patch: 'foo', name: 'nginx' }] } } } },
      500,
      'unknown patch type: foo in map: map[$patch:foo name:nginx]',
    ],
    ['an unknown $patch on a map', { metadata: { labels: { $patch: 1 } } }, 500, 'unknown patch type: %!s(int64=1) in map: map[$patch:1]'],
    ['an order list that is not a list', { metadata: { '$setElementOrder/finalizers': 'a' } }, 500, 'expected a []interface {}, but received a string'],
    [
      'mixed element types',
      { metadata: { finalizers: [1] } },
      500,
      'list element types are not identical: [[a b] [1]]',
    ],
    [
      'an order that contradicts the patch',
      { metadata: { '$setElementOrder/finalizers': ['b', 'a'], finalizers: ['a', 'b'] } },
      500,
      "The order in patch list:\n[a b]\n doesn't match $setElementOrder list:\n[b a]\n",
    ],
  ];
  for (const [name, p, code, message] of table) {
    it(name, () => {
      const err = statusOf(p);
      assert.equal(err.status.message, message);
      assert.equal(err.code, code);
      assert.equal(err.reason, code === 400 ? 'BadRequest' : code === 422 ? 'Invalid' : '');
    });
  }

  it('rejects lists of lists with the generic 422', () => {
    const current = { ...live, metadata: { name: 'web', finalizers: [] } };
    try {
      patchObject({ type: 'strategic', current, patch: { metadata: { finalizers: [['x']] } }, schema: deployment });
      assert.fail('patch applied');
    } catch (err) {
      assert.equal((err as StatusError).code, 422);
      assert.equal((err as StatusError).status.message, 'the server rejected our request due to an error in our request');
    }
  });

  it('fails lookups the way reflection over the Go type does', () => {
    assert.throws(() => lookupForStruct(objectMeta, 'bogus'), { message: 'unable to find api field in struct ObjectMeta for the json field "bogus"' });
    assert.throws(() => lookupForStruct(objectMeta.properties!.labels, 'app'), {
      message: 'merging an object in json but data type is not struct, instead is: map',
    });
    assert.equal(lookupForStruct(objectMeta, 'Labels').schema, objectMeta.properties!.labels);
  });
});
