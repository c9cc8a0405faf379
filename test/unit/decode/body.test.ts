import { strict as assert } from 'node:assert';
import { StatusError } from '../../../src/engine/api/status';
import { decodeRequestBody, type BodyRequest, type DecodedBody } from '../../../src/engine/apiserver/decode';

const deployments = { group: 'apps', version: 'v1', kind: 'Deployment' };

function request(body: string, extra: Partial<BodyRequest> = {}): DecodedBody | StatusError {
  return decodeRequestBody({ body, contentType: 'application/json', expected: deployments, ...extra });
}

function rejected(r: DecodedBody | StatusError): [number, string, string] {
  assert.ok(r instanceof StatusError, 'expected a rejection');
  return [r.code, r.reason, r.message];
}

function accepted(r: DecodedBody | StatusError): DecodedBody {
  assert.ok(!(r instanceof StatusError), r instanceof StatusError ? r.message : '');
  return r;
}

const withExtras = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,"foo":true,"replicas":2}}';

describe('request body decoding', () => {
  it('fails Strict requests on unknown and duplicate fields', () => {
    assert.deepEqual(rejected(request(withExtras, { fieldValidation: 'Strict' })), [
      400,
      'BadRequest',
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo", duplicate field "spec.replicas"',
    ]);
  });

  it('warns about them by default (Warn) and drops them', () => {
    for (const fieldValidation of [undefined, '', 'Warn'] as const) {
      const r = accepted(request(withExtras, fieldValidation === undefined ? {} : { fieldValidation }));
      assert.deepEqual(r.warnings, ['unknown field "spec.foo"', 'duplicate field "spec.replicas"']);
      assert.deepEqual(r.object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } });
      assert.deepEqual(r.strict.map((s) => s.path), ['spec.foo', 'spec.replicas']);
    }
  });

  it('drops them silently with Ignore', () => {
    const r = accepted(request(withExtras, { fieldValidation: 'Ignore' }));
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.object.spec, { replicas: 2 });
  });

  it('fails type errors whatever the field validation', () => {
    for (const fieldValidation of ['Strict', 'Warn', 'Ignore'] as const) {
      assert.deepEqual(rejected(request('{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":"three","foo":1}}', { fieldValidation })), [
        400,
        'BadRequest',
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      ]);
    }
  });

  it('takes apiVersion and kind from the endpoint when the body has none', () => {
    const r = accepted(request('{"metadata":{"name":"web"}}'));
    assert.deepEqual(r.object, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
    assert.deepEqual(accepted(request('null')).object, { apiVersion: 'apps/v1', kind: 'Deployment' });
  });

  it('names bodies it cannot read, with the start of the body', () => {
    assert.deepEqual(rejected(request('{"apiVersion":"apps/v1","kind":"Deployment",')), [
      400,
      'BadRequest',
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"apps/v1","kind" ...)',
    ]);
    assert.equal(
      rejected(request(''))[2],
      "the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    );
    assert.equal(
      rejected(request('[1]'))[2],
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)',
    );
    assert.equal(
      rejected(request('{"kind":["Deployment"]}'))[2],
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go struct field .kind of type string ({"kind":["Deployment"]})',
    );
    assert.equal(
      rejected(request('{"apiVersion":"apps/v1/x"}'))[2],
      'the object provided is unrecognized (must be of type Deployment): unexpected GroupVersion string: apps/v1/x ({"apiVersion":"apps/v1/x"})',
    );
  });

  it('rejects bodies of another version or kind', () => {
    assert.deepEqual(rejected(request('{"apiVersion":"apps/v1beta2","kind":"Deployment"}')), [
      400,
      'BadRequest',
      'the API version in the data (apps/v1beta2) does not match the expected API version (apps/v1)',
    ]);
    assert.equal(rejected(request('{"apiVersion":"v1","kind":"Pod"}'))[2], 'the API version in the data (v1) does not match the expected API version (apps/v1)');
    assert.equal(
      rejected(request('{"apiVersion":"example.com/v1","kind":"Foo"}'))[2],
      'Foo in version "v1" cannot be handled as a Deployment: no kind "Foo" is registered for version "example.com/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    assert.equal(
      rejected(request('{"apiVersion":"apps/v1","kind":"StatefulSet"}'))[2],
      'StatefulSet in version "v1" cannot be handled as a Deployment: converting (v1.StatefulSet) to (apps.Deployment): unknown conversion',
    );
  });

  it('decodes YAML bodies with go-yaml and reports repeated keys its way', () => {
    const yaml = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  zeta: 1\n  replicas: 2\n  replicas: 3\n';
    assert.equal(
      rejected(request(yaml, { contentType: 'application/yaml', fieldValidation: 'Strict' }))[2],
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  line 8: key "replicas" already set in map, unknown field "spec.zeta"',
    );
    const warned = accepted(request(yaml, { contentType: 'application/yaml' }));
    assert.deepEqual(warned.warnings, ['line 8: key "replicas" already set in map', 'unknown field "spec.zeta"']);
    assert.deepEqual(warned.object.spec, { replicas: 3 });
    const ignored = accepted(request(yaml, { contentType: 'application/yaml', fieldValidation: 'Ignore' }));
    assert.deepEqual(ignored.warnings, []);
  });

  it('reads YAML scalars as go-yaml v2 does before the Go types see them', () => {
    const yaml = 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    env:\n    - name: DEBUG\n      value: yes\n';
    const r = decodeRequestBody({ body: yaml, contentType: 'application/yaml', expected: { group: '', version: 'v1', kind: 'Pod' } });
    assert.ok(r instanceof StatusError);
    assert.equal(r.message, 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string');
  });

  it('reports YAML syntax errors with their line', () => {
    assert.match(
      rejected(request('apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n   x: 1\n', { contentType: 'application/yaml' }))[2],
      /^the object provided is unrecognized \(must be of type Deployment\): yaml: line 4: .* \(61706956657273696f6e3a20617070732f76310a6b696e643a204465706c \.\.\.\)$/,
    );
  });

  it('refuses bodies over the request size limit and nesting over the depth bound', () => {
    assert.deepEqual(rejected(request('{"a":"' + 'x'.repeat(3 * 1024 * 1024) + '"}')), [413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728']);
    assert.equal(
      rejected(request('{"metadata":{"annotations":' + '['.repeat(300) + ']'.repeat(300) + '}}'))[2],
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: invalid character \'[\' exceeded max depth ({"metadata":{"annotations":[[[ ...)',
    );
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 8; i++) bomb.push(`a${i}: &a${i} [${Array(10).fill(i === 1 ? '*a' : `*a${i - 1}`).join(',')}]`);
    assert.equal(
      rejected(request(bomb.join('\n'), { contentType: 'application/yaml' }))[2].replace(/ \([0-9a-f]+ \.\.\.\)$/, ''),
      'the object provided is unrecognized (must be of type Deployment): yaml: document contains excessive aliasing',
    );
  });

  it('decodes subresource kinds too', () => {
    const r = decodeRequestBody({
      body: '{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":"5"}}',
      contentType: 'application/json',
      expected: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    });
    assert.ok(r instanceof StatusError);
    assert.equal(r.message, 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
  });
});
