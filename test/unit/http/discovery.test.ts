import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { fields, type Field } from '../../../src/http/protobuf/wire';
import { serve, type Served } from './harness';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const KUBECTL_ACCEPT = `${AGGREGATED},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

type Obj = Record<string, unknown>;
const find = (list: unknown, key: string, value: string): Obj => (list as Obj[]).find((x) => x[key] === value)!;

describe('http: discovery and OpenAPI', () => {
  let s: Served;
  before(async () => (s = await serve()));
  after(() => s.close());

  it('serves legacy discovery: /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>', async () => {
    const api = (await s.send('GET', '/api')).json();
    assert.deepEqual(api.versions, ['v1']);
    assert.equal(api.kind, 'APIVersions');
    const v1 = (await s.send('GET', '/api/v1')).json();
    assert.equal(v1.apiVersion, undefined);
    assert.equal(v1.groupVersion, 'v1');
    assert.deepEqual(find(v1.resources, 'name', 'pods'), {
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
      storageVersionHash: 'xPOwRZ+Yhw8=',
    });
    assert.deepEqual(find(v1.resources, 'name', 'pods/eviction'), { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    const groups = (await s.send('GET', '/apis')).json();
    assert.deepEqual(find(groups.groups, 'name', 'autoscaling'), {
      name: 'autoscaling',
      versions: [
        { groupVersion: 'autoscaling/v2', version: 'v2' },
        { groupVersion: 'autoscaling/v1', version: 'v1' },
      ],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    });
    assert.equal((await s.send('GET', '/apis/apps')).json().kind, 'APIGroup');
    const apps = (await s.send('GET', '/apis/apps/v1')).json();
    assert.equal(find(apps.resources, 'name', 'deployments/scale').group, 'autoscaling');
    assert.equal((await s.send('GET', '/apis/nope/v1')).status, 404);
  });

  it('answers aggregated discovery with its content type when kubectl asks for it', async () => {
    const res = await s.send('GET', '/apis', { headers: { Accept: KUBECTL_ACCEPT } });
    assert.equal(res.headers['content-type'], AGGREGATED);
    const body = res.json();
    assert.equal(body.apiVersion, 'apidiscovery.k8s.io/v2');
    const appsGroup = (body.items as Obj[]).find((g) => (g.metadata as Obj).name === 'apps')!;
    const deployments = find(((appsGroup.versions as Obj[])[0]!).resources, 'resource', 'deployments');
    assert.deepEqual(deployments.responseKind, { group: '', version: '', kind: 'Deployment' });
    assert.equal(deployments.scope, 'Namespaced');
    assert.deepEqual(find(deployments.subresources, 'subresource', 'scale'), { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
    const core = (await s.send('GET', '/api', { headers: { Accept: KUBECTL_ACCEPT } })).json();
    assert.deepEqual((core.items as Obj[])[0]!.metadata, { creationTimestamp: null });
  });

  it('computes storageVersionHash as kube-apiserver does', async () => {
    const expected = createHash('sha256').update('apps/v1/Deployment').digest().subarray(0, 8).toString('base64');
    const apps = (await s.send('GET', '/apis/apps/v1')).json();
    assert.equal(find(apps.resources, 'name', 'deployments').storageVersionHash, expected);
  });

  it('refuses Accept headers without JSON with 406', async () => {
    const res = await s.send('GET', '/api/v1', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(res.status, 406);
    assert.equal(res.json().reason, 'NotAcceptable');
  });

  it('serves /openapi/v3 with hashes, documents byte for byte, immutable when the hash matches', async () => {
    const index = (await s.send('GET', '/openapi/v3')).json();
    const paths = index.paths as Record<string, { serverRelativeURL: string }>;
    const url = paths['apis/apps/v1']!.serverRelativeURL;
    const hash = url.split('hash=')[1]!;
    const doc = await s.send('GET', url);
    assert.equal(doc.status, 200);
    assert.equal(createHash('sha512').update(doc.text).digest('hex').toUpperCase(), hash);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
    assert.equal(doc.headers.etag, `"${hash}"`);
    const stale = await s.send('GET', '/openapi/v3/apis/apps/v1?hash=ABC');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.location, url);
    assert.equal((await s.send('GET', '/openapi/v3/apis/apps/v1')).headers['cache-control'], 'no-cache, private');
  });

  it('serves /openapi/v2 as Swagger 2.0 JSON built from the v3 documents', async () => {
    const v2 = (await s.send('GET', '/openapi/v2', { headers: { Accept: 'application/json' } })).json();
    assert.equal(v2.swagger, '2.0');
    const deployment = (v2.definitions as Obj)['io.k8s.api.apps.v1.Deployment'] as Obj;
    assert.deepEqual((deployment.properties as Obj).spec, { $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec', description: 'Specification of the desired behavior of the Deployment.' });
    const create = ((v2.paths as Obj)['/apis/apps/v1/namespaces/{namespace}/deployments'] as Obj).post as Obj;
    assert.deepEqual((create.parameters as Obj[])[0], { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } });
  });

  it('a property named like a keyword ("default") is a schema: its $ref points into #/definitions', async () => {
    const v2 = (await s.send('GET', '/openapi/v2', { headers: { Accept: 'application/json' } })).json();
    const item = (v2.definitions as Obj)['io.k8s.api.core.v1.LimitRangeItem'] as Obj;
    const defaults = (item.properties as Obj).default as Obj;
    assert.deepEqual(defaults.additionalProperties, { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' });
  });

  it('serves /openapi/v2 as gnostic protobuf to kubectl: PATCH operations carry their kind and fieldValidation', async () => {
    const res = await s.send('GET', '/openapi/v2', { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const text = (f: Field | undefined): string => Buffer.from(f?.bytes ?? []).toString('utf8');
    const sub = (bytes: Uint8Array | undefined, n: number): Field[] => fields(bytes ?? new Uint8Array()).filter((f) => f.number === n);
    const doc = fields(new Uint8Array(res.body));
    assert.equal(text(doc.find((f) => f.number === 1)), '2.0');
    const paths = sub(doc.find((f) => f.number === 8)?.bytes, 2);
    const named = paths.find((p) => text(sub(p.bytes, 1)[0]) === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}');
    const patch = sub(sub(named?.bytes, 2)[0]?.bytes, 8)[0]?.bytes;
    const gvk = sub(patch, 13).find((e) => text(sub(e.bytes, 1)[0]) === 'x-kubernetes-group-version-kind');
    assert.deepEqual(JSON.parse(text(sub(sub(gvk?.bytes, 2)[0]?.bytes, 2)[0])), { group: 'apps', kind: 'Deployment', version: 'v1' });
    // ParametersItem.parameter -> Parameter.non_body_parameter -> query_parameter_sub_schema -> name
    const queryNames = sub(patch, 8).map((p) => text(sub(sub(sub(sub(p.bytes, 1)[0]?.bytes, 2)[0]?.bytes, 3)[0]?.bytes, 4)[0]));
    assert.ok(queryNames.includes('fieldValidation'), queryNames.join(','));
    const definitions = sub(doc.find((f) => f.number === 9)?.bytes, 1).map((d) => text(sub(d.bytes, 1)[0]));
    assert.ok(definitions.includes('io.k8s.api.apps.v1.Deployment'));
  });
});
