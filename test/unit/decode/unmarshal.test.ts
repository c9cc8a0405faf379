import { strict as assert } from 'node:assert';
import { schemaForKind } from '../../../src/engine/api/openapi';
import { parseJson } from '../../../src/engine/apiserver/decode/json-parse';
import { unmarshal, type UnmarshalResult } from '../../../src/engine/apiserver/decode/unmarshal';

const strict = { disallowUnknownFields: true, disallowDuplicateFields: true };

function decode(group: string, version: string, kind: string, json: string, options = strict): UnmarshalResult {
  const schema = schemaForKind(group, version, kind);
  assert.ok(schema);
  const parsed = parseJson(json, 256);
  assert.ok(parsed.ok);
  return unmarshal(parsed.value.node, schema, options);
}

const deployment = (json: string) => decode('apps', 'v1', 'Deployment', json);
const pod = (json: string) => decode('', 'v1', 'Pod', json);

function error(r: UnmarshalResult): [string, string] {
  assert.ok(r.error, 'expected a decode error');
  return [r.error.message, r.error.path];
}

describe('decoding into the Go types', () => {
  it('names the struct, the JSON path and the Go type of a mismatch', () => {
    assert.deepEqual(error(deployment('{"spec":{"replicas":"three"}}')), [
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      'spec.replicas',
    ]);
    assert.deepEqual(error(deployment('{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":"80"}]}]}}}}')), [
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
      'spec.template.spec.containers[0].ports[0].containerPort',
    ]);
    assert.equal(error(deployment('{"spec":{"template":{"spec":{"containers":{"name":"a"}}}}}'))[0],
      'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container');
    assert.equal(error(deployment('{"spec":{"template":{"spec":{"containers":["a"]}}}}'))[0],
      'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container');
    assert.equal(error(deployment('{"spec":{"selector":"app=web"}}'))[0],
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector');
    assert.equal(error(deployment('{"metadata":{"labels":{"version":1}}}'))[0],
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    assert.equal(error(deployment('{"kind":5}'))[0], 'json: cannot unmarshal number into Go struct field Deployment.kind of type string');
    assert.equal(error(pod('{"spec":{"containers":[{"name":"a","imagePullPolicy":1}]}}'))[0],
      'json: cannot unmarshal number into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy');
    assert.equal(error(pod('{"spec":{"containers":[{"name":"a","env":[{"name":"X","value":true}]}]}}'))[0],
      'json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string');
    assert.equal(error(pod('{"spec":{"containers":[{"name":"a","resources":{"limits":"1"}}]}}'))[0],
      'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList');
    assert.equal(error(pod('[]'))[0], 'json: cannot unmarshal array into Go value of type v1.Pod');
  });

  it('reports the number itself when it does not fit the integer type', () => {
    assert.equal(error(deployment('{"spec":{"replicas":1.5}}'))[0], 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.equal(error(deployment('{"spec":{"replicas":3.0}}'))[0], 'json: cannot unmarshal number 3.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.equal(error(deployment('{"spec":{"replicas":2147483648}}'))[0], 'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.equal(deployment('{"spec":{"replicas":2147483647}}').error, undefined);
    assert.equal(error(deployment('{"metadata":{"generation":-9223372036854775809}}'))[0],
      'json: cannot unmarshal number -9223372036854775809 into Go struct field ObjectMeta.metadata.generation of type int64');
  });

  it('reports the first type mismatch, but an UnmarshalJSON error at once', () => {
    assert.equal(error(deployment('{"spec":{"replicas":"a","paused":"b"}}'))[0],
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.equal(error(deployment('{"spec":{"replicas":"a","strategy":{"rollingUpdate":{"maxSurge":true}}}}'))[0],
      'json: cannot unmarshal bool into Go value of type int32');
  });

  it('checks quantities, int-or-strings and times with their own parsers', () => {
    assert.deepEqual(error(pod('{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"one"}}}]}}')), [
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      'spec.containers[0].resources.limits.cpu',
    ]);
    assert.equal(error(pod('{"spec":{"containers":[{"name":"a","resources":{"limits":{"memory":"1kk"}}}]}}'))[0], "unable to parse quantity's suffix");
    assert.equal(error(pod('{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":true}}}]}}'))[0],
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    assert.equal(error(deployment('{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1.5}}}}'))[0], 'json: cannot unmarshal number 1.5 into Go value of type int32');
    assert.equal(error(deployment('{"spec":{"strategy":{"rollingUpdate":{"maxSurge":{}}}}}'))[0], 'json: cannot unmarshal object into Go value of type int32');
    assert.equal(error(deployment('{"metadata":{"creationTimestamp":"today"}}'))[0],
      'parsing time "today" as "2006-01-02T15:04:05Z07:00": cannot parse "today" as "2006"');
    assert.equal(error(deployment('{"metadata":{"creationTimestamp":5}}'))[0], 'json: cannot unmarshal number into Go value of type string');
  });

  it('holds what the Go struct holds: canonical quantities, UTC times, no unknown fields', () => {
    const r = pod(
      '{"metadata":{"name":"p","creationTimestamp":"2024-05-01T12:00:00+02:00","bogus":1},' +
        '"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1.5","memory":"1024Mi"}},"ports":[{"containerPort":80,"x":1}]}]}}',
    );
    assert.equal(r.error, undefined);
    assert.deepEqual(r.value, {
      metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z' },
      spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1500m', memory: '1Gi' } }, ports: [{ containerPort: 80 }] }] },
    });
  });

  it('lists unknown and duplicate fields with their full paths, case-sensitively', () => {
    const r = deployment(
      '{"spec":{"replicas":1,"Replicas":2,"replicas":3,"template":{"spec":{"containers":[{"name":"a"},{"name":"b","imagePullPolicyy":"Always"}]}}},"foo":{"bar":1}}',
    );
    assert.equal(r.error, undefined);
    assert.deepEqual(r.strict.map((s) => s.message), [
      'unknown field "spec.Replicas"',
      'duplicate field "spec.replicas"',
      'unknown field "spec.template.spec.containers[1].imagePullPolicyy"',
      'unknown field "foo"',
    ]);
    assert.deepEqual(r.value, { spec: { replicas: 3, template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } } });
    const labels = deployment('{"metadata":{"labels":{"a":"1","a":"2"}}}');
    assert.deepEqual(labels.strict.map((s) => s.message), ['duplicate field "metadata.labels.a"']);
    assert.deepEqual(deployment('{"spec":{"foo":1}}').strict.length, 1);
    assert.deepEqual(decode('apps', 'v1', 'Deployment', '{"spec":{"foo":1}}', { disallowUnknownFields: false, disallowDuplicateFields: false }).strict, []);
  });

  it('merges a repeated struct field into the earlier value, as Go decodes into the same struct', () => {
    const r = deployment('{"metadata":{"name":"a","labels":{"x":"1"}},"metadata":{"labels":{"y":"2"}}}');
    assert.deepEqual(r.value, { metadata: { name: 'a', labels: { x: '1', y: '2' } } });
    const lists = deployment('{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"i"}],"containers":[{"name":"b"}]}}}}');
    assert.deepEqual(lists.value, { spec: { template: { spec: { containers: [{ name: 'b', image: 'i' }] } } } });
  });

  it('treats null as Go does', () => {
    const r = deployment('{"metadata":{"name":null,"labels":{"a":null},"annotations":null},"spec":{"replicas":null}}');
    assert.deepEqual(r.value, { metadata: { labels: { a: '' } }, spec: {} });
  });

  it('decodes []byte from base64 and reports bad input without a field', () => {
    const r = decode('', 'v1', 'Secret', '{"data":{"a":"aGk=","b":"aG\\nk="}}');
    assert.deepEqual(r.value, { data: { a: 'aGk=', b: 'aGk=' } });
    assert.deepEqual(error(decode('', 'v1', 'Secret', '{"data":{"a":"hello world"}}')), ['illegal base64 data at input byte 5', 'data.a']);
    assert.equal(error(decode('', 'v1', 'Secret', '{"data":{"a":1}}'))[0], 'json: cannot unmarshal number into Go struct field Secret.data of type []uint8');
  });

  it('decodes CRD schemas through their own UnmarshalJSON, not strictly', () => {
    const crd = (schema: string) =>
      decode('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":${schema}}}]}}`);
    const ok = crd('{"type":"object","additionalProperties":{"type":"string","bogus":1},"properties":{"a":{"type":"integer","bogus":2}},"x-kubernetes-preserve-unknown-fields":true}');
    assert.equal(ok.error, undefined);
    // additionalProperties goes through JSONSchemaPropsOrBool's own (lenient) decoding; properties does not.
    assert.deepEqual(ok.strict.map((s) => s.message), ['unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.bogus"']);
    assert.deepEqual(ok.value, {
      spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', additionalProperties: { type: 'string' }, properties: { a: { type: 'integer' } }, 'x-kubernetes-preserve-unknown-fields': true } } }] },
    });
    assert.deepEqual(error(crd('{"additionalProperties":"yes"}')), ['boolean or JSON schema expected', 'spec.versions[0].schema.openAPIV3Schema.additionalProperties']);
    assert.deepEqual(error(crd('{"additionalProperties":{"properties":{"x":{"type":1}}}}')), [
      'json: cannot unmarshal number into Go struct field JSONSchemaProps.properties.type of type string',
      'spec.versions[0].schema.openAPIV3Schema.additionalProperties.properties.x.type',
    ]);
    assert.equal(crd('{"type":"object","bogus":1}').strict[0]?.message, 'unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"');
  });

  it('keeps raw extensions as written', () => {
    const r = decode('apps', 'v1', 'ControllerRevision', '{"revision":1,"data":{"spec":{"anything":[1,"x"]}}}');
    assert.deepEqual(r.value, { revision: 1, data: { spec: { anything: [1, 'x'] } } });
  });
});
