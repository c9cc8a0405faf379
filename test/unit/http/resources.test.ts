import { strict as assert } from 'node:assert';
import { serve, type Served } from './harness';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const cm = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, ...extra });
const json = { 'Content-Type': 'application/json' };

describe('http: resources', () => {
  let s: Served;
  before(async () => (s = await serve()));
  after(() => s.close());

  it('creates, gets, lists with selectors and pages, patches, deletes', async () => {
    const created = await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('one'), headers: json });
    assert.equal(created.status, 201);
    assert.equal((created.json().metadata as Record<string, unknown>).name, 'one');
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('two', { metadata: { name: 'two', labels: { tier: 'b' } } }), headers: json });
    assert.equal((await s.send('GET', '/api/v1/namespaces/default/configmaps/one')).json().kind, 'ConfigMap');
    const selected = (await s.send('GET', '/api/v1/namespaces/default/configmaps?labelSelector=tier%3Db')).json();
    assert.deepEqual((selected.items as { metadata: { name: string } }[]).map((i) => i.metadata.name), ['two']);
    const page = (await s.send('GET', '/api/v1/namespaces/default/configmaps?limit=1')).json();
    const meta = page.metadata as Record<string, unknown>;
    assert.equal((page.items as unknown[]).length, 1);
    assert.equal(typeof meta.continue, 'string');
    const next = (await s.send('GET', `/api/v1/namespaces/default/configmaps?limit=1&continue=${encodeURIComponent(String(meta.continue))}`)).json();
    assert.equal((next.items as unknown[]).length, 1);
    const patched = await s.send('PATCH', '/api/v1/namespaces/default/configmaps/one', { body: '{"data":{"b":"2"}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.deepEqual(patched.json().data, { a: '1', b: '2' });
    const applied = await s.send('PATCH', '/api/v1/namespaces/default/configmaps/three?fieldManager=test', { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: three\ndata:\n  x: "y"\n', headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    assert.equal(applied.status, 201);
    const deleted = await s.send('DELETE', '/api/v1/namespaces/default/configmaps/two', { body: '{"propagationPolicy":"Background"}', headers: json });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal((await s.send('GET', '/api/v1/namespaces/default/configmaps/two')).json().message, 'configmaps "two" not found');
  });

  it('answers a Table when Accept asks for one, with the object as includeObject says', async () => {
    const res = await s.send('GET', '/api/v1/namespaces/default/configmaps/one', { headers: { Accept: TABLE } });
    assert.equal(res.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = res.json() as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: { kind: string } }[] };
    assert.equal(table.kind, 'Table');
    assert.deepEqual(table.columnDefinitions.map((c) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(table.rows[0]!.cells.slice(0, 2), ['one', 2]);
    assert.equal(table.rows[0]!.object.kind, 'PartialObjectMetadata');
    const withObject = (await s.send('GET', '/api/v1/namespaces/default/configmaps?includeObject=Object', { headers: { Accept: TABLE } })).json() as typeof table;
    assert.equal(withObject.rows[0]!.object.kind, 'ConfigMap');
    const bad = await s.send('GET', '/api/v1/namespaces/default/configmaps?includeObject=All', { headers: { Accept: TABLE } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, `Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`);
  });

  it('takes impersonation headers', async () => {
    const review = await s.send('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
      headers: { ...json, 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs', 'Impersonate-Extra-Scopes': 'view' },
    });
    assert.equal(review.status, 201);
    assert.deepEqual((review.json().status as Record<string, unknown>).userInfo, { username: 'jane', groups: ['devs', 'system:authenticated'], extra: { scopes: ['view'] } });
  });

  it('answers exec, attach and port-forward at once with a clear Status', async () => {
    const res = await s.send('POST', '/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true');
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'exec is not available in kubesim: simulated containers run no processes, so there is nothing to exec into');
  });

  it('gives malformed and unserved requests the right Status and keeps serving', async () => {
    const cases: [string, string, Record<string, string>, string | Buffer | undefined, number, string][] = [
      ['POST', '/api/v1/namespaces/default/configmaps', json, '{"apiVersion":"v1",', 400, 'BadRequest'],
      ['POST', '/api/v1/namespaces/default/configmaps', { 'Content-Type': 'text/plain' }, cm('x'), 415, 'UnsupportedMediaType'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/one', json, '{}', 415, 'UnsupportedMediaType'],
      ['POST', '/api/v1/namespaces/default/configmaps', json, Buffer.alloc(3 * 1024 * 1024 + 10, 0x20), 413, 'RequestEntityTooLarge'],
      ['GET', '/api/v1/namespaces/default/widgets', {}, undefined, 404, 'NotFound'],
      ['GET', '/api/v1/namespaces/default/pods?labelSelector=app+in+(', {}, undefined, 400, 'BadRequest'],
      ['GET', '/api/v1/namespaces/default/pods?limit=ten', {}, undefined, 400, 'BadRequest'],
      ['GET', '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=abc', {}, undefined, 400, 'BadRequest'],
    ];
    for (const [method, path, headers, body, status, reason] of cases) {
      const res = await s.send(method, path, { headers, body });
      assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
      assert.equal(res.json().reason, reason);
    }
    assert.equal((await s.send('GET', '/api/v1/namespaces/default/configmaps/one')).status, 200);
    const tooLarge = await s.send('POST', '/api/v1/namespaces/default/configmaps', { headers: json, body: Buffer.alloc(3 * 1024 * 1024 + 10, 0x20) });
    assert.equal(tooLarge.json().message, 'Request entity too large: limit is 3145728');
    const unsupported = await s.send('PATCH', '/api/v1/namespaces/default/configmaps/one', { headers: json, body: '{}' });
    assert.equal(unsupported.json().message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');
  });

  it('leaves a trace record for every request, also those refused before the API server', async () => {
    const first = s.cluster.trace.next;
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { headers: { 'Content-Type': 'text/plain' }, body: cm('x') });
    await s.send('GET', '/api/v1/namespaces/default/configmaps/one');
    const records = s.cluster.trace.since(first).filter((r) => r.type === 'api.request') as unknown as { user: string; verb: string; resource: string; code: number; message?: string }[];
    assert.deepEqual(
      records.map((r) => [r.user, r.verb, r.resource, r.code]),
      [
        ['kubernetes-admin', 'create', 'configmaps', 415],
        ['kubernetes-admin', 'get', 'configmaps', 200],
      ],
    );
  });
});
