import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { affectedIds, isClusterEmpty } from '../../../src/extension/tree/elements';
import type { ClusterView, ViewChange, ViewKind } from '../../../src/extension/view-types';

const pod = (node?: string, phase = 'Running'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: node ? { nodeName: node } : {}, status: { phase } }) as KubeObject;
const slice = (svc: string): KubeObject => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${svc}-abc`, namespace: 'default', labels: { 'kubernetes.io/service-name': svc } } }) as KubeObject;

function change(kind: ViewKind, type: ViewChange['type'], object: KubeObject, old?: KubeObject): ViewChange {
  return { kind, type, key: `${object.metadata.namespace}/${object.metadata.name}`, object, old };
}

describe('Cluster tree refreshes', () => {
  it('refreshes only what a change makes stale', () => {
    assert.deepEqual(affectedIds(change('pods', 'ADDED', pod())), ['group:pods']);
    assert.deepEqual(affectedIds(change('pods', 'MODIFIED', pod('n1'), pod())), ['pods:default/p', 'nodes:n1'], 'a pod bound to a node: the node lists it now');
    assert.deepEqual(affectedIds(change('pods', 'MODIFIED', pod('n1', 'Running'), pod('n1', 'Pending'))), ['pods:default/p', 'nodes:n1'], 'a phase change recounts the node');
    assert.deepEqual(affectedIds(change('pods', 'MODIFIED', pod('n1'), pod('n1'))), ['pods:default/p', 'nodes:n1>pods:default/p'], 'a status change redraws both items of the pod');
    assert.deepEqual(affectedIds(change('pods', 'DELETED', pod('n1'))), ['group:pods', 'nodes:n1']);
    assert.deepEqual(affectedIds(change('endpointslices', 'MODIFIED', slice('web'), slice('web'))), ['services:default/web>endpointslices:default/web-abc']);
    assert.deepEqual(affectedIds(change('endpointslices', 'ADDED', slice('web'))), ['services:default/web']);
    assert.deepEqual(affectedIds(change('events', 'MODIFIED', pod())), ['group:events'], 'a repeated event moves to the top');
    assert.deepEqual(affectedIds(change('deployments', 'MODIFIED', pod())), ['deployments:default/p']);
  });

  it('calls a cluster with no workloads empty, so the welcome view shows', () => {
    const counts: Partial<Record<ViewKind, number>> = { services: 1, nodes: 4, namespaces: 4 };
    const view = { count: (k: ViewKind) => counts[k] ?? 0, get: (k: ViewKind, key: string) => (k === 'services' && key === 'default/kubernetes' ? {} : undefined) } as unknown as ClusterView;
    assert.equal(isClusterEmpty(undefined), true);
    assert.equal(isClusterEmpty(view), true);
    counts.pods = 1;
    assert.equal(isClusterEmpty(view), false);
    counts.pods = 0;
    counts.services = 2;
    assert.equal(isClusterEmpty(view), false);
  });
});
