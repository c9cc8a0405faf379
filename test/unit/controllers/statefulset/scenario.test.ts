/** StatefulSets against the API server: ordered creation, stable identities and claims, ordered scale-down and update. */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { StatefulSetController, STATEFULSET_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/statefulset/controller';
import { EVENTS, NODES, PERSISTENTVOLUMECLAIMS, PODS, SERVICEACCOUNTS, STATEFULSETS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { StatefulSet } from '../../../../src/engine/controllers/statefulset/types';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';

async function pods(h: ControllerHarness): Promise<Pod[]> {
  return (await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[];
}

const names = async (h: ControllerHarness): Promise<string[]> => (await pods(h)).map((p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}`).sort();

/** Scheduler and kubelet: bind new pods, report them Running and Ready; confirm terminations. */
async function kubelet(h: ControllerHarness): Promise<void> {
  const client = h.admin.resource<Pod>(PODS, 'default');
  for (const p of await pods(h)) {
    if (p.metadata.deletionTimestamp) {
      await client.delete(p.metadata.name ?? '', { gracePeriodSeconds: 0 });
      continue;
    }
    if (p.status?.phase === 'Running') continue;
    if (!(p.spec as { nodeName?: string }).nodeName) {
      await client.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: p.metadata.name ?? '' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } } as KubeObject);
    }
    const pod = deepCopy(await client.get(p.metadata.name ?? ''));
    pod.status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: h.clock.rfc3339() }] };
    await client.updateStatus(pod);
  }
  await h.clock.settle();
}

describe('controllers/statefulset scenario', () => {
  it('creates web-0, web-1, web-2 in order, scales down from the top, updates from the top', async () => {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    await h.admin.resource(NODES).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    h.start(new StatefulSetController(h.deps(STATEFULSET_CONTROLLER_ACCOUNT)));
    const template = (image: string) => ({ metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image, volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }] }] } });
    await h.admin.resource(STATEFULSETS, 'default').create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        serviceName: 'nginx',
        replicas: 3,
        selector: { matchLabels: { app: 'nginx' } },
        template: template('nginx:1.27'),
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    } as KubeObject);
    await h.clock.settle();
    assert.deepEqual(await names(h), ['web-0'], 'one at a time');
    const web0 = (await pods(h))[0]!;
    const spec = web0.spec as { hostname: string; subdomain: string; volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[] };
    assert.deepEqual([spec.hostname, spec.subdomain], ['web-0', 'nginx']);
    assert.deepEqual(spec.volumes[0], { name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } });
    assert.equal(web0.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-0');
    assert.equal(web0.metadata.labels?.['apps.kubernetes.io/pod-index'], '0');
    const firstRevision = web0.metadata.labels?.['controller-revision-hash'];
    assert.match(firstRevision ?? '', /^web-[a-z0-9]+$/);
    assert.deepEqual((await h.admin.resource(PERSISTENTVOLUMECLAIMS, 'default').list()).items.map((c) => [c.metadata.name, c.metadata.labels]), [['www-web-0', { app: 'nginx' }]]);

    await kubelet(h);
    assert.deepEqual(await names(h), ['web-0', 'web-1']);
    await kubelet(h);
    await kubelet(h);
    assert.deepEqual(await names(h), ['web-0', 'web-1', 'web-2']);
    let set = await h.admin.resource<StatefulSet>(STATEFULSETS, 'default').get('web');
    assert.deepEqual(set.status, { observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: firstRevision, updateRevision: firstRevision, collisionCount: 0, availableReplicas: 3 });

    const scaled = deepCopy(set);
    scaled.spec.replicas = 1;
    await h.admin.resource<StatefulSet>(STATEFULSETS, 'default').update(scaled);
    await h.clock.settle();
    assert.deepEqual(await names(h), ['web-0', 'web-1', 'web-2 (terminating)'], 'the highest ordinal first');
    await kubelet(h);
    assert.deepEqual(await names(h), ['web-0', 'web-1 (terminating)']);
    await kubelet(h);
    assert.deepEqual(await names(h), ['web-0']);
    assert.equal((await h.admin.resource(PERSISTENTVOLUMECLAIMS, 'default').list()).items.length, 3, 'claims are retained');

    set = await h.admin.resource<StatefulSet>(STATEFULSETS, 'default').get('web');
    const updated = deepCopy(set);
    updated.spec.template = template('nginx:1.28');
    await h.admin.resource<StatefulSet>(STATEFULSETS, 'default').update(updated);
    await h.clock.settle();
    assert.deepEqual(await names(h), ['web-0 (terminating)']);
    await kubelet(h);
    await kubelet(h);
    const [fresh] = await pods(h);
    assert.notEqual(fresh!.metadata.labels?.['controller-revision-hash'], firstRevision);
    set = await h.admin.resource<StatefulSet>(STATEFULSETS, 'default').get('web');
    assert.equal(set.status?.currentRevision, set.status?.updateRevision, 'the rollout completed');
    const events = ((await h.admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason: string; message: string })[]).map((e) => `${e.reason}: ${e.message}`);
    assert.deepEqual(events.slice(0, 4), [
      'SuccessfulCreate: create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
      'SuccessfulCreate: create Claim www-web-1 Pod web-1 in StatefulSet web success',
      'SuccessfulCreate: create Pod web-1 in StatefulSet web successful',
    ]);
    assert.ok(events.includes('SuccessfulDelete: delete Pod web-2 in StatefulSet web successful'));
    await h.close();
  });
});
