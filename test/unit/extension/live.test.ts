import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { liveRef, liveUri } from '../../../src/extension/live-ref';
import { liveErrorYaml, liveObjectYaml } from '../../../src/extension/live-yaml';

describe('live object documents', () => {
  it('name the object in the URI and read it back', () => {
    const ref = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespace: 'default', name: 'web' };
    const uri = liveUri(ref);
    assert.equal(uri, 'kubesim:/default/deployment.apps/web.yaml?group=apps&version=v1&resource=deployments&kind=Deployment');
    const [path, query] = uri.slice('kubesim:'.length).split('?') as [string, string];
    assert.deepEqual(liveRef(path, query), ref);
    const node = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', name: 'kubesim-worker' };
    const [p2, q2] = liveUri(node).slice('kubesim:'.length).split('?') as [string, string];
    assert.equal(p2, '/_cluster/node/kubesim-worker.yaml');
    assert.deepEqual(liveRef(p2, q2), node);
    assert.equal(liveRef('/x.yaml', ''), undefined);
  });

  it('show the object as kubectl get -o yaml: sorted keys, lists not indented, managedFields left out', () => {
    const obj = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'settings',
        namespace: 'default',
        resourceVersion: '42',
        managedFields: [
          { manager: 'kubesim', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} },
          { manager: 'kube-controller-manager', operation: 'Update', subresource: 'status', fieldsType: 'FieldsV1', fieldsV1: {} },
        ],
      },
      data: { mode: 'fast', list: 'a' },
      spec: { items: [{ b: 1, a: 2 }] },
    } as unknown as KubeObject;
    assert.equal(
      liveObjectYaml(obj),
      [
        '# Live from the simulated cluster (read-only); resourceVersion 42.',
        '# metadata.managedFields omitted, as kubectl get -o yaml does; field managers: kubesim (Apply), kube-controller-manager (Update status).',
        'apiVersion: v1',
        'data:',
        '  list: a',
        '  mode: fast',
        'kind: ConfigMap',
        'metadata:',
        '  name: settings',
        '  namespace: default',
        '  resourceVersion: "42"',
        'spec:',
        '  items:',
        '  - a: 2',
        '    b: 1',
        '',
      ].join('\n'),
    );
  });

  it('show kubectl error text as comments when the object cannot be read', () => {
    assert.equal(liveErrorYaml('Error from server (NotFound): deployments.apps "web" not found\n'), '# Error from server (NotFound): deployments.apps "web" not found\n');
  });
});
