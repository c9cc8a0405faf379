// Cases from kubernetes/kubernetes test/integration/apiserver/field_validation_test.go
// (testFieldValidationPost): the bodies and the exact error and warning texts kube-apiserver gives.
import { strict as assert } from 'node:assert';
import { StatusError } from '../../../src/engine/api/status';
import { decodeRequestBody, type FieldValidation } from '../../../src/engine/apiserver/decode';

const invalidBodyJSON = `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "test-deployment",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;

const invalidBodyYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: test-deployment
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

const jsonWarnings = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const yamlWarnings = [
  'line 5: key "name" already set in map',
  'line 12: key "unknownDupe" already set in map',
  'line 14: key "paused" already set in map',
  'line 28: key "imagePullPolicy" already set in map',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

function post(body: string, contentType: 'application/json' | 'application/yaml', fieldValidation?: FieldValidation) {
  return decodeRequestBody({ body, contentType, expected: { group: 'apps', version: 'v1', kind: 'Deployment' }, fieldValidation: fieldValidation ?? '' });
}

describe('field validation as kube-apiserver’s integration tests expect it', () => {
  it('post-strict-validation', () => {
    const r = post(invalidBodyJSON, 'application/json', 'Strict');
    assert.ok(r instanceof StatusError);
    assert.equal(r.code, 400);
    assert.ok(r.message.endsWith(`strict decoding error: ${jsonWarnings.join(', ')}`), r.message);
  });

  it('post-warn-validation and post-no-validation', () => {
    for (const mode of ['Warn', undefined] as const) {
      const r = post(invalidBodyJSON, 'application/json', mode);
      assert.ok(!(r instanceof StatusError));
      assert.deepEqual(r.warnings, jsonWarnings);
      assert.equal(r.object.metadata && (r.object.metadata as { name: string }).name, 'test-deployment');
    }
  });

  it('post-ignore-validation', () => {
    const r = post(invalidBodyJSON, 'application/json', 'Ignore');
    assert.ok(!(r instanceof StatusError));
    assert.deepEqual(r.warnings, []);
  });

  it('post-strict-validation-yaml', () => {
    const r = post(invalidBodyYAML, 'application/yaml', 'Strict');
    assert.ok(r instanceof StatusError);
    const dupes = yamlWarnings.slice(0, 4);
    const unknown = yamlWarnings.slice(4);
    assert.ok(r.message.endsWith(`strict decoding error: yaml: unmarshal errors:\n  ${dupes.join('\n  ')}, ${unknown.join(', ')}`), r.message);
  });

  it('post-warn-validation-yaml and post-no-validation-yaml', () => {
    for (const mode of ['Warn', undefined] as const) {
      const r = post(invalidBodyYAML, 'application/yaml', mode);
      assert.ok(!(r instanceof StatusError));
      assert.deepEqual(r.warnings, yamlWarnings);
      assert.deepEqual(r.object.spec && (r.object.spec as { paused: boolean }).paused, false);
    }
  });

  it('post-ignore-validation-yaml', () => {
    const r = post(invalidBodyYAML, 'application/yaml', 'Ignore');
    assert.ok(!(r instanceof StatusError));
    assert.deepEqual(r.warnings, []);
  });
});
