/**
 * Numbers Go cannot hold fail as kube-apiserver's decoder (sigs.k8s.io/json) and kubectl fail on
 * them, and are never stored as another value: integers out of a field's range, numbers beyond
 * float64 (1e400, 1e309) wherever they would become an interface{}, and in YAML, where go-yaml
 * reads a float it cannot hold as a string.
 */
import { strict as assert } from 'node:assert';
import { parseManifest } from '../../../src/engine/apiserver/decode';
import { decodeRequestBody } from '../../../src/engine/apiserver/decode/body';
import { bodyValue } from '../../../src/engine/apiserver/body';
import { StatusError } from '../../../src/engine/api/status';

const deployment = (replicas: string, deadline = '1') =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":${replicas},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"activeDeadlineSeconds":${deadline},"containers":[{"name":"c","image":"i"}]}}}}`;

function decodeError(body: string, contentType: 'application/json' | 'application/yaml' = 'application/json', custom?: (o: object) => string[]): string {
  const expected = custom ? { group: 'example.com', version: 'v1', kind: 'Widget' } : { group: 'apps', version: 'v1', kind: 'Deployment' };
  const r = decodeRequestBody({ body, contentType, expected, ...(custom ? { custom } : {}) });
  assert.ok(r instanceof StatusError, `decoded: ${JSON.stringify(r)}`);
  assert.equal(r.code, 400);
  return r.message;
}

const cannot = (what: string) => `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal ${what}`;

describe('decode: numbers that Go cannot hold', () => {
  it('an int32 field: exponents, 2^31, 2^63 and beyond are type errors naming the number as written', () => {
    for (const n of ['1e400', '1e309', '1e3', '2147483648', '-2147483649', '9223372036854775808', '-9223372036854775809', '18446744073709551616', '1' + '0'.repeat(400)]) {
      assert.equal(decodeError(deployment(n)), cannot(`number ${n} into Go struct field DeploymentSpec.spec.replicas of type int32`), n);
    }
  });

  it('an int32 field: 2^31-1 and -2^31 decode as themselves, -0 as 0, at every length around 15 digits', () => {
    const decoded = (replicas: string, deadline = '1'): unknown => {
      const r = decodeRequestBody({ body: deployment(replicas, deadline), contentType: 'application/json', expected: { group: 'apps', version: 'v1', kind: 'Deployment' } });
      assert.ok(!(r instanceof StatusError), `${replicas} ${deadline}: ${r instanceof StatusError ? r.message : ''}`);
      const spec = r.object.spec as { replicas: number; template: { spec: { activeDeadlineSeconds: number } } };
      return [spec.replicas, spec.template.spec.activeDeadlineSeconds];
    };
    assert.deepEqual(decoded('2147483647'), [2147483647, 1]);
    assert.deepEqual(decoded('-2147483648'), [-2147483648, 1]);
    assert.ok(Object.is((decoded('-0') as number[])[0], 0));
    for (const n of ['999999999999999', '-999999999999999', '1000000000000000', '-1000000000000000', '9007199254740993']) {
      assert.deepEqual(decoded('1', n), [1, Number(BigInt(n))], n);
      assert.equal(decodeError(deployment(n)), cannot(`number ${n} into Go struct field DeploymentSpec.spec.replicas of type int32`), n);
    }
  });

  it('an int64 field: 2^63 and -2^63-1 are out of range; -2^63 and 2^63-1 are not', () => {
    const field = 'Go struct field PodSpec.spec.template.spec.activeDeadlineSeconds of type int64';
    assert.equal(decodeError(deployment('1', '9223372036854775808')), cannot(`number 9223372036854775808 into ${field}`));
    assert.equal(decodeError(deployment('1', '-9223372036854775809')), cannot(`number -9223372036854775809 into ${field}`));
    assert.equal(decodeError(deployment('1', '1e400')), cannot(`number 1e400 into ${field}`));
    for (const ok of ['9223372036854775807', '-9223372036854775808']) {
      assert.ok(!(decodeRequestBody({ body: deployment('1', ok), contentType: 'application/json', expected: { group: 'apps', version: 'v1', kind: 'Deployment' } }) instanceof StatusError), ok);
    }
  });

  it('YAML: go-yaml reads a float it cannot hold as a string, an integer beyond uint64 as a float', () => {
    const yaml = (replicas: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: ${replicas}\n`;
    assert.equal(decodeError(yaml('1e400'), 'application/yaml'), cannot('string into Go struct field DeploymentSpec.spec.replicas of type int32'));
    assert.equal(decodeError(yaml('1.0e+400'), 'application/yaml'), cannot('string into Go struct field DeploymentSpec.spec.replicas of type int32'));
    assert.equal(decodeError(yaml('9223372036854775808'), 'application/yaml'), cannot('number 9223372036854775808 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    assert.equal(decodeError(yaml('18446744073709551616'), 'application/yaml'), cannot('number 18446744073709552000 into Go struct field DeploymentSpec.spec.replicas of type int32'));
  });

  it('a custom resource (map[string]interface{}): a number beyond float64 does not decode', () => {
    const cr = (v: string) => `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":${v}}}`;
    assert.equal(decodeError(cr('1e400'), 'application/json', () => []), 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number 1e400 into Go value of type float64');
    assert.equal(decodeError(cr('-1e309'), 'application/json', () => []), 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number -1e309 into Go value of type float64');
    // A whole number beyond int64 is a float64, not an error.
    const big = decodeRequestBody({ body: cr('9223372036854775808'), contentType: 'application/json', expected: { group: 'example.com', version: 'v1', kind: 'Widget' }, custom: () => [] });
    assert.ok(!(big instanceof StatusError));
    assert.equal(JSON.stringify((big.object.spec as { size: number }).size), '9223372036854776000');
  });

  it('free-form fields of built-in kinds (RawExtension, JSON) refuse them too, never storing null', () => {
    const revision = `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"revision":1,"data":{"x":1e400}}`;
    const r = decodeRequestBody({ body: revision, contentType: 'application/json', expected: { group: 'apps', version: 'v1', kind: 'ControllerRevision' } });
    assert.ok(r instanceof StatusError);
    assert.equal(r.message, 'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: json: cannot unmarshal number 1e400 into Go struct field ControllerRevision.data of type float64');
  });

  it('patch bodies: read into interface{} values, a number beyond float64 is a bad request', () => {
    assert.throws(() => bodyValue({ text: '{"spec":{"replicas":1e400}}', contentType: 'application/json' }), (e: StatusError) => e.code === 400 && e.message === 'json: cannot unmarshal number 1e400 into Go value of type float64');
  });

  it('kubectl: a JSON manifest with such a number fails its own validation (or decoding, with --validate=false)', () => {
    const [doc] = parseManifest(deployment('1e400'), 'd.json');
    assert.equal(doc!.errors[0]!.kubectl, 'error validating "d.json": error validating data: json: cannot unmarshal number 1e400 into Go value of type float64; if you choose to ignore these errors, turn validation off with --validate=false');
    assert.deepEqual([doc!.errors[0]!.range.column, doc!.errors[0]!.range.endColumn], [deployment('1e400').indexOf('1e400') + 1, deployment('1e400').indexOf('1e400') + 6]);
    const [raw] = parseManifest(deployment('1e400'), 'd.json', { validate: false });
    assert.equal(raw!.errors[0]!.kubectl, 'unable to decode "d.json": json: cannot unmarshal number 1e400 into Go value of type float64');
    // From YAML it is a string, which the API server refuses for an int32.
    const [yaml] = parseManifest('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1e400}\n', 'd.yaml');
    assert.deepEqual(yaml!.errors, []);
    assert.equal((yaml!.object!.spec as { replicas: unknown }).replicas, '1e400');
  });
});
