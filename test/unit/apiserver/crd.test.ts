/**
 * CustomResourceDefinitions become APIs as in kube-apiserver's embedded apiextensions-apiserver:
 * names accepted and the CRD established, the resource served and stored, custom objects pruned,
 * defaulted and validated against the structural schema with kube-apiserver's texts, and the
 * resource gone again after the cleanup finalizer has deleted its instances.
 */
import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { namespace } from './fixtures';

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' } as const;
const widgets = (version = 'v1') => ({ group: 'example.com', version, resource: 'widgets', namespace: 'default' }) as const;

function widgetCrd(overrides: JsonObject = {}, scale = true): JsonObject {
  const subresources: JsonObject = { status: {} };
  if (scale) subresources.scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    replicas: { type: 'integer', minimum: 0, maximum: 10 },
                    size: { type: 'string', enum: ['S', 'M', 'L'] },
                    color: { type: 'string', default: 'blue', pattern: '^[a-z]+$', maxLength: 8 },
                    since: { type: 'string', format: 'date-time' },
                    port: { 'x-kubernetes-int-or-string': true },
                    note: { type: 'string', nullable: true },
                    tags: { type: 'array', items: { type: 'string' }, maxItems: 2, 'x-kubernetes-list-type': 'set' },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 }, selector: { type: 'string' } } },
              },
            },
          },
        },
      ],
    },
    ...overrides,
  };
}

const widget = (name: string, spec: JsonObject, apiVersion = 'example.com/v1'): JsonObject => ({ apiVersion, kind: 'Widget', metadata: { name }, spec });
const conditions = (crd: JsonObject) => ((crd.status as JsonObject).conditions as JsonObject[]).map((c) => [c.type, c.status, c.reason, c.message]);

describe('apiserver: CustomResourceDefinitions', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ compactionIntervalMs: 0 });
    await h.create(namespace('default'));
  });
  afterEach(() => h.close());

  const createCrd = async (crd: JsonObject = widgetCrd()): Promise<JsonObject> => {
    const res = await h.req({ ...CRDS, verb: 'create', body: { object: crd } });
    assert.equal(res.code, 201, JSON.stringify(res.body));
    await h.clock.settle();
    return (await h.req({ ...CRDS, verb: 'get', name: String((crd.metadata as JsonObject).name) })).body;
  };

  it('accepts the names and establishes the CRD, recording its storage version', async () => {
    const crd = await createCrd();
    assert.deepEqual(conditions(crd), [
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ]);
    const status = crd.status as JsonObject;
    assert.deepEqual(status.acceptedNames, { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] });
    assert.deepEqual(status.storedVersions, ['v1']);
    const info = h.server.registry.resolve('wd');
    assert.ok(info);
    assert.deepEqual([info.group, info.version, info.kind, info.resource, info.namespaced, info.storagePrefix], ['example.com', 'v1', 'Widget', 'widgets', true, 'example.com/widgets']);
    assert.deepEqual(info.subresources.map((s) => `${s.name} ${s.group}/${s.version} ${s.kind}`), ['status example.com/v1 Widget', 'scale autoscaling/v1 Scale']);
    assert.deepEqual(h.server.registry.category('all').map((r) => r.resource).slice(-1), ['widgets']);
  });

  it('does not accept names another CRD of the group has', async () => {
    await createCrd();
    const clash = widgetCrd({ metadata: { name: 'gadgets.example.com' } });
    (clash.spec as JsonObject).names = { plural: 'gadgets', kind: 'Widget' };
    const crd = await createCrd(clash);
    assert.deepEqual(conditions(crd), [
      // Each conflicting name overwrites the reason: the list kind (WidgetList, defaulted from the kind) is the last.
      ['NamesAccepted', 'False', 'ListKindConflict', '"WidgetList" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ]);
    assert.equal(h.server.registry.byGroupResource('example.com', 'gadgets'), undefined);
  });

  it('stores a custom object under /registry/<group>/<plural>, pruned and defaulted, with unknown field warnings', async () => {
    await createCrd();
    const res = await h.req({ ...widgets(), verb: 'create', body: { object: { ...widget('w1', { size: 'M', foo: 1, extra: { anything: [1] } }), bogus: true } } });
    assert.equal(res.code, 201, JSON.stringify(res.body));
    assert.deepEqual(res.warnings, ['unknown field "bogus"', 'unknown field "spec.foo"']);
    assert.deepEqual(res.body.spec, { color: 'blue', extra: { anything: [1] }, size: 'M' });
    assert.equal((res.body.metadata as JsonObject).generation, 1);
    const kv = (await h.store.range({ key: '/registry/example.com/widgets/default/w1' })).kvs[0];
    assert.ok(kv);
    const stored = JSON.parse(kv.value) as JsonObject;
    assert.deepEqual(Object.keys(stored), ['apiVersion', 'kind', 'metadata', 'spec'], 'unstructured: keys sorted');
    const strict = await h.req({ ...widgets(), verb: 'create', options: { fieldValidation: 'Strict' }, body: { object: widget('w2', { size: 'M', foo: 1 }) } });
    assert.equal(strict.code, 400);
    assert.equal(strict.body.message, 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.foo"');
  });

  it('validates against the structural schema with kube-apiserver texts', async () => {
    await createCrd(widgetCrd({}, false));
    const invalid = async (spec: JsonObject): Promise<string> => {
      const res = await h.req({ ...widgets(), verb: 'create', body: { object: widget('w', spec) } });
      assert.equal(res.code, 422, JSON.stringify(res.body));
      return String(res.body.message);
    };
    assert.equal(await invalid({ size: 'M', replicas: 'string' }), 'Widget.example.com "w" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"');
    assert.equal(await invalid({}), 'Widget.example.com "w" is invalid: spec.size: Required value');
    assert.equal(await invalid({ size: 'XL' }), 'Widget.example.com "w" is invalid: spec.size: Unsupported value: "XL": supported values: "S", "M", "L"');
    assert.equal(await invalid({ size: 'S', replicas: 11 }), 'Widget.example.com "w" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10');
    assert.equal(await invalid({ size: 'S', color: 'Blue' }), "Widget.example.com \"w\" is invalid: spec.color: Invalid value: \"Blue\": spec.color in body should match '^[a-z]+$'");
    assert.equal(await invalid({ size: 'S', color: 'turquoise' }), 'Widget.example.com "w" is invalid: spec.color: Too long: may not be more than 8 bytes');
    assert.equal(await invalid({ size: 'S', since: 'yesterday' }), 'Widget.example.com "w" is invalid: spec.since: Invalid value: "yesterday": spec.since in body must be of type date-time: "yesterday"');
    assert.equal(await invalid({ size: 'S', port: true }), 'Widget.example.com "w" is invalid: spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"');
    assert.equal(await invalid({ size: 'S', tags: ['a', 'b', 'c'] }), 'Widget.example.com "w" is invalid: spec.tags: Too many: 3: must have at most 2 items');
    assert.equal(await invalid({ size: 'S', tags: ['a', 'a'] }), 'Widget.example.com "w" is invalid: spec.tags[1]: Duplicate value: "a"');
    assert.equal(await invalid({ size: 'S', replicas: -1, color: 'Red' }), "Widget.example.com \"w\" is invalid: [spec.color: Invalid value: \"Red\": spec.color in body should match '^[a-z]+$', spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0]");
    const ok = await h.req({ ...widgets(), verb: 'create', body: { object: widget('w', { size: 'S', port: 'http', note: null, since: '2025-01-01T00:00:00Z' }) } });
    assert.equal(ok.code, 201, JSON.stringify(ok.body));
    const kind = await h.req({ ...widgets(), verb: 'create', body: { object: { ...widget('g', { size: 'S' }), kind: 'Gadget' } } });
    assert.equal(kind.body.message, 'Widget.example.com "g" is invalid: kind: Invalid value: "Gadget": must be Widget');
  });

  it('ratchets: an update keeping an invalid value the schema gained later is allowed', async () => {
    await createCrd();
    await h.create(widget('w', { size: 'S', color: 'red' }), 'default');
    const crd = structuredClone((await h.req({ ...CRDS, verb: 'get', name: 'widgets.example.com' })).body);
    const versions = (crd.spec as JsonObject).versions as JsonObject[];
    const spec = ((((versions[0]!.schema as JsonObject).openAPIV3Schema as JsonObject).properties as JsonObject).spec as JsonObject).properties as JsonObject;
    spec.color = { type: 'string', enum: ['blue'] };
    assert.equal((await h.req({ ...CRDS, verb: 'update', name: 'widgets.example.com', body: { object: crd } })).code, 200);
    await h.clock.settle();
    const current = (await h.req({ ...widgets(), verb: 'get', name: 'w' })).body;
    const kept = await h.req({ ...widgets(), verb: 'update', name: 'w', body: { object: { ...current, spec: { ...(current.spec as JsonObject), replicas: 2 } } } });
    assert.equal(kept.code, 200, JSON.stringify(kept.body));
    assert.equal((kept.body.metadata as JsonObject).generation, 2);
    const changed = await h.req({ ...widgets(), verb: 'update', name: 'w', body: { object: { ...kept.body, spec: { ...(kept.body.spec as JsonObject), color: 'green' } } } });
    assert.equal(changed.body.message, 'Widget.example.com "w" is invalid: spec.color: Unsupported value: "green": supported values: "blue"');
  });

  it('serves status and scale subresources', async () => {
    await createCrd();
    const created = await h.create({ ...widget('w', { size: 'S', replicas: 1 }), status: { replicas: 9 } }, 'default');
    assert.equal(created.status, undefined, 'status is written only through the subresource');
    const status = await h.req({ ...widgets(), verb: 'update', subresource: 'status', name: 'w', body: { object: { ...created, spec: { size: 'L' }, status: { replicas: 1, selector: 'app=w' } } } });
    assert.equal(status.code, 200, JSON.stringify(status.body));
    assert.deepEqual(status.body.spec, { color: 'blue', replicas: 1, size: 'S' });
    const badStatus = await h.req({ ...widgets(), verb: 'update', subresource: 'status', name: 'w', body: { object: { ...status.body, status: { replicas: -2 } } } });
    assert.equal(
      badStatus.body.message,
      'Widget.example.com "w" is invalid: [status.replicas: Invalid value: -2: replicas in body should be greater than or equal to 0, .status.replicas: Invalid value: -2: should be a non-negative integer]',
    );
    const badReplicas = await h.req({ ...widgets(), verb: 'create', body: { object: widget('x', { size: 'S', replicas: 'two' }) } });
    assert.equal(
      badReplicas.body.message,
      'Widget.example.com "x" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", .spec.replicas: Invalid value: 0: .spec.replicas accessor error: two is of the type string, expected int64]',
    );
    const scale = await h.req({ ...widgets(), verb: 'get', subresource: 'scale', name: 'w' });
    assert.deepEqual({ spec: scale.body.spec, status: scale.body.status }, { spec: { replicas: 1 }, status: { replicas: 1, selector: 'app=w' } });
    const scaled = await h.req({ ...widgets(), verb: 'patch', subresource: 'scale', name: 'w', patchType: 'merge', body: { object: { spec: { replicas: 3 } } } });
    assert.equal(scaled.code, 200, JSON.stringify(scaled.body));
    assert.equal(((await h.req({ ...widgets(), verb: 'get', name: 'w' })).body.spec as JsonObject).replicas, 3);
    await h.create(widget('none', { size: 'S' }), 'default');
    const missing = await h.req({ ...widgets(), verb: 'get', subresource: 'scale', name: 'none' });
    assert.equal(missing.code, 500);
    assert.equal(missing.body.message, 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist');
  });

  it('refuses strategic merge patches, as custom resources have no patch strategies', async () => {
    await createCrd();
    await h.create(widget('w', { size: 'S' }), 'default');
    const res = await h.req({ ...widgets(), verb: 'patch', name: 'w', patchType: 'strategic', body: { object: { spec: { size: 'M' } } } });
    assert.equal(res.code, 415);
    assert.equal(res.body.message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    const merged = await h.req({ ...widgets(), verb: 'patch', name: 'w', patchType: 'merge', body: { object: { spec: { size: 'M' } } } });
    assert.equal(merged.code, 200);
  });

  it('serves every served version from the storage version', async () => {
    const crd = widgetCrd();
    const v1 = ((crd.spec as JsonObject).versions as JsonObject[])[0]!;
    (crd.spec as JsonObject).versions = [v1, { ...v1, name: 'v2', storage: false }];
    await createCrd(crd);
    assert.deepEqual(h.server.registry.groupVersions('example.com'), ['v2', 'v1'], 'v2 is preferred');
    const res = await h.req({ ...widgets('v2'), verb: 'create', body: { object: widget('w', { size: 'S' }, 'example.com/v2') } });
    assert.equal(res.code, 201, JSON.stringify(res.body));
    assert.equal(res.body.apiVersion, 'example.com/v2');
    const kv = (await h.store.range({ key: '/registry/example.com/widgets/default/w' })).kvs[0]!;
    assert.equal((JSON.parse(kv.value) as JsonObject).apiVersion, 'example.com/v1');
    const viaV1 = await h.req({ ...widgets('v1'), verb: 'get', name: 'w' });
    assert.equal(viaV1.body.apiVersion, 'example.com/v1');
    const list = await h.req({ ...widgets('v2'), verb: 'list' });
    assert.deepEqual((list.body.items as JsonObject[]).map((i) => i.apiVersion), ['example.com/v2']);
    assert.equal(list.body.kind, 'WidgetList');
  });

  it('on deletion refuses new instances, deletes the existing ones, then the CRD and its API go', async () => {
    await createCrd();
    await h.create(widget('a', { size: 'S' }), 'default');
    const deleted = await h.req({ ...CRDS, verb: 'delete', name: 'widgets.example.com' });
    assert.equal(deleted.code, 200);
    assert.deepEqual((deleted.body.metadata as JsonObject).finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.deepEqual(conditions(deleted.body).at(-1), [
      'Terminating',
      'True',
      'InstanceDeletionPending',
      'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    ]);
    const refused = await h.req({ ...widgets(), verb: 'create', body: { object: widget('b', { size: 'S' }) } });
    assert.equal(refused.code, 403);
    assert.equal(refused.body.message, 'widgets.example.com "b" is forbidden: create not allowed while custom resource definition is terminating');
    await h.clock.settle();
    assert.equal((await h.req({ ...CRDS, verb: 'get', name: 'widgets.example.com' })).code, 404);
    assert.equal((await h.store.range({ key: '/registry/example.com/widgets/', rangeEnd: '/registry/example.com/widgets0' })).kvs.length, 0);
    assert.equal(h.server.registry.resolve('widgets'), undefined);
    assert.equal((await h.req({ ...widgets(), verb: 'list' })).code, 404);
  });

  it('waits for instances with finalizers before removing its own', async () => {
    await createCrd();
    await h.create({ ...widget('held', { size: 'S' }), metadata: { name: 'held', finalizers: ['example.com/hold'] } }, 'default');
    await h.req({ ...CRDS, verb: 'delete', name: 'widgets.example.com' });
    await h.clock.advance(30_000);
    const crd = (await h.req({ ...CRDS, verb: 'get', name: 'widgets.example.com' })).body;
    assert.deepEqual(conditions(crd).at(-1), ['Terminating', 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress']);
    const held = (await h.req({ ...widgets(), verb: 'get', name: 'held' })).body;
    assert.ok((held.metadata as JsonObject).deletionTimestamp);
    await h.req({ ...widgets(), verb: 'patch', name: 'held', patchType: 'merge', body: { object: { metadata: { finalizers: null } } } });
    await h.clock.advance(10_000);
    assert.equal((await h.req({ ...CRDS, verb: 'get', name: 'widgets.example.com' })).code, 404);
  });
});
