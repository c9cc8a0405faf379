import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import {
  listOpenApiPaths,
  openapiDocument,
  openapiDocumentHash,
  schemaAtPath,
  schemaForKind,
} from '../../../src/engine/api/openapi';

describe('OpenAPI documents', () => {
  it('lists the GA group-versions of a default 1.35 kube-apiserver', () => {
    const paths = listOpenApiPaths();
    assert.equal(paths.length, 22);
    for (const p of ['api/v1', 'apis/apps/v1', 'apis/autoscaling/v1', 'apis/autoscaling/v2', 'apis/apiextensions.k8s.io/v1']) {
      assert.ok(paths.includes(p), p);
    }
    assert.ok(!paths.some((p) => /alpha|beta/.test(p)));
  });

  it('serves each document byte for byte with the hash of its bytes', () => {
    const bytes = openapiDocument('apis/apps/v1');
    assert.ok(bytes);
    const hash = createHash('sha512').update(bytes).digest('hex').toUpperCase();
    assert.equal(openapiDocumentHash('apis/apps/v1'), hash);
    const doc = JSON.parse(Buffer.from(bytes).toString('utf8')) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.0.0');
    assert.ok(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']);
    assert.equal(openapiDocument('apis/apps/v1beta1'), undefined);
  });
});

describe('schemaForKind', () => {
  it('compiles a kind with its gvk, required fields and formats', () => {
    const dep = schemaForKind('apps', 'v1', 'Deployment');
    assert.ok(dep);
    assert.equal(dep.definition, 'io.k8s.api.apps.v1.Deployment');
    assert.deepEqual(dep.gvk, [{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
    const spec = schemaAtPath(dep, ['spec']);
    assert.deepEqual(spec?.required, ['selector', 'template']);
    const replicas = schemaAtPath(dep, ['spec', 'replicas']);
    assert.equal(replicas?.type, 'integer');
    assert.equal(replicas?.format, 'int32');
    assert.match(replicas?.description ?? '', /^Number of desired pods/);
  });

  it('keeps a field’s own description and patch strategy over its definition’s', () => {
    const dep = schemaForKind('apps', 'v1', 'Deployment')!;
    const selector = schemaAtPath(dep, ['spec', 'selector'])!;
    assert.equal(selector.definition, 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector');
    assert.match(selector.description ?? '', /^Label selector for pods\./);
    assert.ok(selector.properties?.matchLabels);
    const strategy = schemaAtPath(dep, ['spec', 'strategy'])!;
    assert.equal(strategy.patchStrategy, 'retainKeys');
    assert.deepEqual(strategy.default, {});
    assert.equal(schemaForKind('apps', 'v1', 'Deployment')!.properties?.spec, dep.properties?.spec);
  });

  it('carries list types, map keys and merge keys', () => {
    const pod = schemaForKind('', 'v1', 'Pod')!;
    const containers = schemaAtPath(pod, ['spec', 'containers'])!;
    assert.equal(containers.listType, 'map');
    assert.deepEqual(containers.listMapKeys, ['name']);
    assert.equal(containers.patchStrategy, 'merge');
    assert.equal(containers.patchMergeKey, 'name');
    assert.equal(containers.items?.definition, 'io.k8s.api.core.v1.Container');
    const ports = schemaAtPath(pod, ['spec', 'containers', 0, 'ports'])!;
    assert.deepEqual(ports.listMapKeys, ['containerPort', 'protocol']);
    const labels = schemaAtPath(pod, ['metadata', 'labels'])!;
    assert.equal(labels.type, 'object');
    assert.deepEqual(labels.additionalProperties, { type: 'string', default: '' });
    assert.equal(schemaAtPath(pod, ['metadata', 'labels', 'app'])?.type, 'string');
    assert.equal(schemaAtPath(pod, ['spec', 'nodeSelector'])?.mapType, 'atomic');
  });

  it('marks int-or-string, quantities, bytes, times and raw JSON', () => {
    const dep = schemaForKind('apps', 'v1', 'Deployment')!;
    const maxSurge = schemaAtPath(dep, ['spec', 'strategy', 'rollingUpdate', 'maxSurge'])!;
    assert.equal(maxSurge.intOrString, true);
    assert.equal(maxSurge.format, 'int-or-string');
    const pod = schemaForKind('', 'v1', 'Pod')!;
    assert.equal(schemaAtPath(pod, ['spec', 'containers', 0, 'resources', 'limits', 'cpu'])?.format, 'quantity');
    assert.equal(schemaAtPath(pod, ['metadata', 'creationTimestamp'])?.format, 'date-time');
    const secret = schemaForKind('', 'v1', 'Secret')!;
    assert.equal(schemaAtPath(secret, ['data', 'key'])?.format, 'byte');
    const rev = schemaForKind('apps', 'v1', 'ControllerRevision')!;
    assert.equal(schemaAtPath(rev, ['data'])?.preserveUnknownFields, true);
    const crd = schemaForKind('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition')!;
    const status = schemaAtPath(crd, ['spec', 'versions', 0, 'subresources', 'status'])!;
    assert.equal(status.preserveUnknownFields, undefined);
    assert.equal(schemaAtPath(crd, ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'default'])?.preserveUnknownFields, true);
  });

  it('compiles recursive definitions into cycles', () => {
    const crd = schemaForKind('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition')!;
    const props = schemaAtPath(crd, ['spec', 'versions', 0, 'schema', 'openAPIV3Schema'])!;
    const nested = schemaAtPath(props, ['properties', 'spec', 'properties', 'replicas'])!;
    assert.equal(nested.definition, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
    assert.equal(nested.properties, props.properties);
    assert.equal(schemaAtPath(nested, ['type'])?.type, 'string');
  });

  it('finds subresource and cross-group kinds in their own documents', () => {
    assert.equal(schemaForKind('autoscaling', 'v1', 'Scale')?.definition, 'io.k8s.api.autoscaling.v1.Scale');
    assert.equal(schemaForKind('policy', 'v1', 'Eviction')?.definition, 'io.k8s.api.policy.v1.Eviction');
    assert.equal(schemaForKind('', 'v1', 'Status')?.definition, 'io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    assert.equal(schemaForKind('apps', 'v1', 'Pod'), undefined);
    assert.equal(schemaForKind('example.com', 'v1', 'Foo'), undefined);
  });

  it('answers undefined below unknown fields and free-form values', () => {
    const dep = schemaForKind('apps', 'v1', 'Deployment')!;
    assert.equal(schemaAtPath(dep, ['spec', 'foo']), undefined);
    assert.equal(schemaAtPath(dep, ['spec', 'foo', 'bar']), undefined);
    const rev = schemaForKind('apps', 'v1', 'ControllerRevision')!;
    assert.equal(schemaAtPath(rev, ['data', 'spec']), undefined);
  });

});
