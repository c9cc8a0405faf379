/** Namespace deletion against the API server: Terminating, content deleted, conditions, finalize, gone. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import { NamespaceController, NAMESPACE_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/namespace/controller';
import { CONFIGMAPS, NAMESPACES, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isNotFound } from '../../../../src/engine/client/errors';
import type { Namespace } from '../../../../src/engine/controllers/util/types/namespace';
import type { ReconcileRecord } from '../../../../src/engine/trace/reconcile';

describe('controllers/namespace scenario', () => {
  it('empties a deleted namespace, waiting for pod grace periods and finalizers, then finalizes it', async () => {
    const h = await controllerHarness();
    const controller = new NamespaceController(h.deps(NAMESPACE_CONTROLLER_ACCOUNT), h.server.registry);
    h.start(controller);
    await h.admin.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
    await h.admin.resource(SERVICEACCOUNTS, 'demo').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    await h.admin.resource(CONFIGMAPS, 'demo').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await h.admin.resource(PODS, 'demo').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] } });
    await h.clock.settle();

    await h.admin.resource(NAMESPACES).delete('demo');
    await h.clock.advance(5000);
    await h.clock.settle({ maxDuration: 1000 });
    const ns = await h.admin.resource<Namespace>(NAMESPACES).get('demo');
    assert.equal(ns.status?.phase, 'Terminating');
    assert.deepEqual(ns.spec?.finalizers, ['kubernetes']);
    const byType = (n: Namespace) => Object.fromEntries((n.status?.conditions ?? []).map((c) => [c.type, [c.status, c.reason, c.message]]));
    assert.deepEqual(byType(ns), {
      NamespaceDeletionDiscoveryFailure: ['False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      NamespaceDeletionGroupVersionParsingFailure: ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      NamespaceDeletionContentFailure: ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      NamespaceContentRemaining: ['True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances, pods. has 1 resource instances'],
      NamespaceFinalizersRemaining: ['True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances'],
    });
    const pod = await h.admin.resource(PODS, 'demo').get('web');
    assert.ok(pod.metadata.deletionTimestamp, 'the pod is being deleted gracefully');
    const record = h.trace.records().filter((r): r is ReconcileRecord => r.type === 'controller.reconcile' && r.controller === 'namespace').at(-1)!;
    assert.equal(record.outcome, 'requeue-after');
    assert.equal(record.requeueAfterMs, 16000, 'half the 30 s pod grace period, plus a second');
    assert.equal(record.observed, 'some content remains in the namespace, estimate 30 seconds before it is removed');

    // The kubelet confirms the pod's termination; a finalizer's owner lets go of the ConfigMap.
    await h.admin.resource(PODS, 'demo').delete('web', { gracePeriodSeconds: 0 });
    const held = deepCopy(await h.admin.resource(CONFIGMAPS, 'demo').get('held'));
    held.metadata.finalizers = [];
    await h.admin.resource(CONFIGMAPS, 'demo').update(held);
    await h.clock.settle();
    await assert.rejects(h.admin.resource(NAMESPACES).get('demo'), isNotFound);
    const finalize = h.trace.records().filter((r) => r.type === 'api.request' && r.subresource === 'finalize');
    // As upstream: the finalize carries the resourceVersion read before the last condition update, conflicts, and is retried.
    assert.deepEqual(
      finalize.map((r) => r.type === 'api.request' && [r.user, r.code]),
      [
        ['system:serviceaccount:kube-system:namespace-controller', 409],
        ['system:serviceaccount:kube-system:namespace-controller', 200],
      ],
    );
    await h.close();
  });
});
