/**
 * Object lifecycles on the full cluster: a deleted pod replaced by its ReplicaSet, endpoints
 * following readiness, a namespace deleted content first and then its finalizer, and a
 * foreground deletion that removes pods, then the ReplicaSet, then the Deployment.
 */
import { strict as assert } from 'node:assert';
import { scenario, deployment, service } from './support';
import { DEPLOYMENTS, ENDPOINTS, ENDPOINTSLICES, NAMESPACES, PODS } from '../../src/engine/client/resources';
import type { KubeObject } from '../../src/engine/api/types';
import type { RevisionRecord } from '../../src/engine/trace/revision';

interface SliceView extends KubeObject {
  endpoints?: { addresses: string[]; conditions: { ready?: boolean; serving?: boolean; terminating?: boolean }; targetRef?: { name: string } }[];
}

interface NamespaceView extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: { type: string; status: string; reason: string; message: string }[] };
}

describe('scenario: object lifecycles', () => {
  it('replaces a deleted pod', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 3));
      await s.cluster.settle();
      const original = await s.pods();
      const victim = original[0];
      const mark = s.cluster.trace.next;
      await s.cluster.client().resource(PODS, 'default').delete(victim!.metadata.name!);
      await s.cluster.settle();
      const pods = await s.pods();
      assert.equal(pods.length, 3);
      assert.ok(!pods.some((p) => p.metadata.name === victim!.metadata.name));
      const replacement = pods.find((p) => !original.some((o) => o.metadata.name === p.metadata.name))!;
      assert.equal(replacement.status?.phase, 'Running');
      const rs = victim!.metadata.ownerReferences![0]!.name;
      // Both at the instant of the deletion: the kubelet stops the container, the ReplicaSet counts the terminating pod out.
      assert.deepEqual(s.events((e) => e.id >= mark && ['Killing', 'SuccessfulCreate'].includes(e.reason)).sort(), [
        `Normal Killing Pod default/${victim!.metadata.name}: Stopping container web`,
        `Normal SuccessfulCreate ReplicaSet default/${rs}: Created pod: ${replacement.metadata.name}`,
      ]);
    } finally {
      await s.close();
    }
  });

  it('endpoints follow readiness: a pod failing its readiness probe is in the slice as not ready', async () => {
    const s = await scenario();
    try {
      await s.apply(`${deployment('web', 2)}---
${service('web')}---
apiVersion: v1
kind: Pod
metadata:
  name: flaky
  labels:
    app: web
  annotations:
    kubesim.dev/behavior: fail-readiness-after=20s
spec:
  containers:
  - name: web
    image: nginx:1.27
    ports:
    - name: http
      containerPort: 80
    readinessProbe:
      httpGet:
        path: /
        port: http
      periodSeconds: 5
`);
      const admin = s.cluster.client();
      const view = async () => {
        const slices = (await admin.resource<SliceView>(ENDPOINTSLICES, 'default').list({ labelSelector: 'kubernetes.io/service-name=web' })).items;
        assert.equal(slices.length, 1);
        return Object.fromEntries((slices[0]!.endpoints ?? []).map((e) => [e.targetRef!.name === 'flaky' ? 'flaky' : 'web', e.conditions]));
      };
      await s.cluster.advance(10_000);
      const before = await view();
      assert.deepEqual(before.flaky, { ready: true, serving: true, terminating: false });
      await s.cluster.advance(30_000);
      assert.deepEqual((await view()).flaky, { ready: false, serving: false, terminating: false });
      const slice = (await admin.resource<SliceView>(ENDPOINTSLICES, 'default').list({ labelSelector: 'kubernetes.io/service-name=web' })).items[0]!;
      assert.equal(slice.endpoints!.filter((e) => e.conditions.ready).length, 2);
      const flakyIP = (await s.pods()).find((p) => p.metadata.name === 'flaky')!.status!.podIP!;
      const endpoints = (await admin.resource(ENDPOINTS, 'default').get('web')) as KubeObject & { subsets: { addresses?: { ip: string }[]; notReadyAddresses?: { ip: string }[] }[] };
      assert.deepEqual(endpoints.subsets[0]!.notReadyAddresses?.map((a) => a.ip), [flakyIP]);
      assert.equal(endpoints.subsets[0]!.addresses?.length, 2);
      assert.ok(s.events().includes('Warning Unhealthy Pod default/flaky: Readiness probe failed: HTTP probe failed with statuscode: 503'));
    } finally {
      await s.close();
    }
  });

  it('deletes a namespace: content first (the namespace controller), then the kubernetes finalizer', async () => {
    const s = await scenario();
    try {
      await s.apply(`apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
${deployment('cart', 2, { namespace: 'shop' })}---
${service('cart', 'shop')}`);
      await s.cluster.settle();
      const admin = s.cluster.client();
      const history: string[] = [];
      await admin.resource(NAMESPACES).watch({ fieldSelector: 'metadata.name=shop' }, (e) => {
        const ns = e.object as unknown as NamespaceView;
        const remaining = ns.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
        history.push(`${e.type} ${ns.status?.phase} finalizers=${(ns.spec?.finalizers ?? []).join(',')}${remaining ? ` ${remaining.reason}: ${remaining.message}` : ''}`);
      });
      const deleted = (await admin.resource(NAMESPACES).delete('shop')) as NamespaceView;
      assert.equal(deleted.status?.phase, 'Terminating');
      assert.equal((await s.cluster.settle()).settled, true);
      await assert.rejects(admin.resource(NAMESPACES).get('shop'), /namespaces "shop" not found/);
      assert.deepEqual(history, [
        'ADDED Active finalizers=kubernetes',
        'MODIFIED Terminating finalizers=kubernetes',
        'MODIFIED Terminating finalizers=kubernetes SomeResourcesRemain: Some resources are remaining: pods. has 2 resource instances',
        'MODIFIED Terminating finalizers=kubernetes ContentRemoved: All content successfully removed',
        'MODIFIED Terminating finalizers= ContentRemoved: All content successfully removed',
        'DELETED Terminating finalizers= ContentRemoved: All content successfully removed',
      ]);
      assert.deepEqual((await admin.resource(PODS, 'shop').list()).items, []);
    } finally {
      await s.close();
    }
  });

  it('deletes in the foreground: pods, then the ReplicaSet, then the Deployment', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 3));
      await s.cluster.settle();
      const mark = s.cluster.trace.next;
      const marked = (await s.cluster.client().resource(DEPLOYMENTS, 'default').delete('web', { propagationPolicy: 'Foreground' })) as KubeObject;
      assert.deepEqual(marked.metadata.finalizers, ['foregroundDeletion']);
      assert.ok(marked.metadata.deletionTimestamp);
      await s.cluster.settle();
      const deletions = s.cluster.trace
        .since(mark)
        .filter((r): r is RevisionRecord => r.type === 'store.revision' && r.namespace === 'default' && r.resource !== 'events' && (r.operation === 'delete' || /metadata\.finalizers: (set|removed)|metadata\.deletionTimestamp: set/.test(r.change)))
        .map((r) => {
          const what = r.operation === 'delete' ? 'deleted' : /deletionTimestamp: set/.test(r.change) ? 'deleting' : 'finalized';
          const actor = r.actor?.startsWith('system:node:') ? 'kubelet' : r.actor?.split(':').pop();
          return `${what} ${r.resource}${r.resource === 'deployments' ? '' : ` (${actor})`}`;
        });
      assert.deepEqual(deletions, [
        'deleting deployments',
        'deleting replicasets (generic-garbage-collector)',
        'deleting pods (generic-garbage-collector)',
        'deleting pods (generic-garbage-collector)',
        'deleting pods (generic-garbage-collector)',
        'deleted pods (kubelet)',
        'deleted pods (kubelet)',
        'deleted pods (kubelet)',
        'finalized replicasets (generic-garbage-collector)',
        'deleted replicasets (generic-garbage-collector)',
        'finalized deployments',
        'deleted deployments',
      ]);
      assert.deepEqual(await s.pods(), []);
      assert.deepEqual(await s.replicaSets(), []);
    } finally {
      await s.close();
    }
  });
});
