/**
 * The Deployment and ReplicaSet controllers running against the API server, with a fake
 * scheduler and kubelet (test/unit/controllers/replicaset/fake-kubelet.ts): the sequences of
 * state changes upstream's controllers produce.
 */
import { strict as assert } from 'node:assert';
import { PODS } from '../../../../src/engine/client/resources';
import type { Deployment, DeploymentCondition } from '../../../../src/engine/controllers/deployment/types';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';
import { Cluster } from '../replicaset/cluster';

function web(replicas: number, image = 'nginx:1.26'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  };
}

const setImage = (image: string) => (d: Deployment) => {
  d.spec.template!.spec = { ...d.spec.template!.spec, containers: [{ name: 'web', image }] };
};

const condition = (d: Deployment, type: string): [string, string, string] | undefined => {
  const c: DeploymentCondition | undefined = d.status?.conditions?.find((x) => x.type === type);
  return c && [c.status, c.reason ?? '', c.message ?? ''];
};

describe('controllers/deployment: scenarios', function () {
  this.timeout(60_000);

  it('creates a ReplicaSet and its pods, and reports the Deployment available and progressed', async () => {
    const c = await Cluster.start();
    await c.deployments.create(web(3));
    await c.settle();
    const [rs] = await c.replicaSets();
    assert.ok(rs);
    const name = rs.metadata.name ?? '';
    assert.match(name, /^web-[4-9bcdf]+$/);
    assert.deepEqual(rs.metadata.annotations, { 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': '1' });
    const pods = await c.pods();
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.ok(p.metadata.name?.startsWith(`${name}-`));
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    assert.deepEqual({ ...rs.status }, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, terminatingReplicas: 0, observedGeneration: 1 });
    const d = await c.deployments.get('web');
    assert.deepEqual(
      { ...d.status, conditions: undefined },
      { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, terminatingReplicas: 0, conditions: undefined },
    );
    assert.deepEqual(condition(d, 'Available'), ['True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.']);
    assert.deepEqual(condition(d, 'Progressing'), ['True', 'NewReplicaSetAvailable', `ReplicaSet "${name}" has successfully progressed.`]);
    const events = await c.events();
    assert.equal(events[0], `ScalingReplicaSet: Scaled up replica set ${name} from 0 to 3`);
    assert.deepEqual(events.slice(1).sort(), pods.map((p) => `SuccessfulCreate: Created pod: ${p.metadata.name}`).sort());
    await c.close();
  });

  it('rolls 10 replicas over with maxSurge and maxUnavailable 25%: at most 13 pods, at least 8 ready', async () => {
    const c = await Cluster.start({ readyAfterMs: 2000, terminateAfterMs: 1000 });
    await c.deployments.create(web(10));
    await c.settle();
    let maxPods = 0;
    let minReady = Infinity;
    c.kubelet.informer.addEventHandler({
      onUpdate: () => {
        const live = c.kubelet.informer.indexer.list().filter((p) => !p.metadata.deletionTimestamp);
        maxPods = Math.max(maxPods, live.length);
        minReady = Math.min(minReady, live.filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length);
      },
    });
    await c.edit(setImage('nginx:1.27'));
    await c.settle();
    const [old, next] = [(await c.rsAt('1')).metadata.name, (await c.rsAt('2')).metadata.name];
    assert.deepEqual((await c.events('ScalingReplicaSet')).slice(1), [
      `ScalingReplicaSet: Scaled up replica set ${next} from 0 to 3`,
      `ScalingReplicaSet: Scaled down replica set ${old} from 10 to 8`,
      `ScalingReplicaSet: Scaled up replica set ${next} from 3 to 5`,
      `ScalingReplicaSet: Scaled down replica set ${old} from 8 to 3`,
      `ScalingReplicaSet: Scaled up replica set ${next} from 5 to 10`,
      `ScalingReplicaSet: Scaled down replica set ${old} from 3 to 0`,
    ]);
    assert.ok(maxPods <= 13, `${maxPods} pods at once`);
    assert.ok(minReady >= 8, `only ${minReady} ready`);
    const d = await c.deployments.get('web');
    assert.equal(d.status?.updatedReplicas, 10);
    assert.deepEqual(condition(d, 'Progressing'), ['True', 'NewReplicaSetAvailable', `ReplicaSet "${next}" has successfully progressed.`]);
    assert.equal((await c.rsAt('1')).spec.replicas, 0);
    await c.close();
  });

  it('Recreate: scales the old ReplicaSet to zero and creates the new one only when its pods are gone', async () => {
    const c = await Cluster.start({ readyAfterMs: 1000, terminateAfterMs: 3000 });
    const d = web(3);
    d.spec.strategy = { type: 'Recreate' };
    await c.deployments.create(d);
    await c.settle();
    let lastOldPodGone = 0;
    c.kubelet.informer.addEventHandler({ onDelete: () => void (lastOldPodGone = c.h.clock.now()) });
    const edited = c.h.clock.now();
    await c.edit(setImage('nginx:1.27'));
    await c.settle();
    const old = await c.rsAt('1');
    const next = await c.rsAt('2');
    assert.deepEqual((await c.events('ScalingReplicaSet')).slice(1), [
      `ScalingReplicaSet: Scaled down replica set ${old.metadata.name} from 3 to 0`,
      `ScalingReplicaSet: Scaled up replica set ${next.metadata.name} from 0 to 3`,
    ]);
    assert.equal(lastOldPodGone - edited, 3000);
    assert.ok(Date.parse(next.metadata.creationTimestamp ?? '') >= Math.floor(lastOldPodGone / 1000) * 1000);
    assert.equal((await c.events('SuccessfulDelete')).length, 3);
    await c.close();
  });

  it('rolls back by template change: the first ReplicaSet is scaled up again and takes revision 3', async () => {
    const c = await Cluster.start();
    await c.deployments.create(web(2));
    await c.settle();
    const first = (await c.rsAt('1')).metadata.name;
    await c.edit(setImage('nginx:1.27'));
    await c.settle();
    const second = (await c.rsAt('2')).metadata.name;
    await c.edit(setImage('nginx:1.26'));
    await c.settle();
    const rss = await c.replicaSets();
    assert.equal(rss.length, 2);
    const reused = await c.rsAt('3');
    assert.equal(reused.metadata.name, first);
    assert.equal(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(reused.spec.replicas, 2);
    assert.equal((await c.rsAt('2')).spec.replicas, 0);
    const events = await c.events('ScalingReplicaSet');
    assert.equal(events[events.length - 1], `ScalingReplicaSet: Scaled down replica set ${second} from 1 to 0`);
    assert.ok(events.includes(`ScalingReplicaSet: Scaled up replica set ${first} from 0 to 1`));
    await c.close();
  });

  it('scales proportionally when resized during a rollout', async () => {
    const c = await Cluster.start({ readyAfterMs: 10_000 });
    await c.deployments.create(web(10));
    await c.settle();
    await c.edit(setImage('nginx:1.27'));
    await c.h.clock.advance(3000);
    const [old, next] = [await c.rsAt('1'), await c.rsAt('2')];
    assert.deepEqual([old.spec.replicas, next.spec.replicas], [8, 5]);
    await c.edit((d) => {
      d.spec.replicas = 20;
    });
    await c.h.clock.advance(1000);
    // 20 + 5 surge allowed where 10 + 3 were: 8 * 25/13 = 15, 5 * 25/13 = 10.
    assert.deepEqual((await c.events('ScalingReplicaSet')).slice(-2), [
      `ScalingReplicaSet: Scaled up replica set ${old.metadata.name} from 8 to 15`,
      `ScalingReplicaSet: Scaled up replica set ${next.metadata.name} from 5 to 10`,
    ]);
    await c.settle();
    assert.deepEqual([(await c.rsAt('1')).spec.replicas, (await c.rsAt('2')).spec.replicas], [0, 20]);
    await c.close();
  });

  it('replaces a deleted pod at once, counting it as terminating until it is gone', async () => {
    const c = await Cluster.start({ terminateAfterMs: 5000 });
    await c.deployments.create(web(3));
    await c.settle();
    const victim = (await c.pods())[0]!.metadata.name ?? '';
    await c.h.admin.resource(PODS, 'default').delete(victim);
    await c.h.clock.advance(1000);
    const rs = await c.rsAt('1');
    assert.deepEqual([rs.status?.replicas, rs.status?.terminatingReplicas], [3, 1]);
    assert.equal((await c.pods()).length, 4);
    assert.equal((await c.deployments.get('web')).status?.terminatingReplicas, 1);
    const created = await c.events('SuccessfulCreate');
    assert.equal(created.length, 4);
    await c.settle();
    assert.equal((await c.rsAt('1')).status?.terminatingReplicas, 0);
    assert.equal((await c.deployments.get('web')).status?.terminatingReplicas, 0);
    assert.ok(!(await c.pods()).some((p) => p.metadata.name === victim));
    await c.close();
  });

  it('counts pods available only minReadySeconds after they are ready, looking again at that virtual time', async () => {
    const c = await Cluster.start({ readyAfterMs: 1000 });
    const d = web(2);
    d.spec.minReadySeconds = 10;
    const start = c.h.clock.now();
    await c.deployments.create(d);
    await c.h.clock.advance(5000);
    assert.equal((await c.rsAt('1')).status?.availableReplicas, undefined);
    assert.deepEqual(condition(await c.deployments.get('web'), 'Available'), ['False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']);
    // Ready at +1 s; available once strictly more than 10 s have passed, seen at the +1 s requeue.
    await c.h.clock.advance(start + 11_500 - c.h.clock.now());
    assert.equal((await c.rsAt('1')).status?.availableReplicas, undefined);
    await c.h.clock.advance(1000);
    assert.equal((await c.rsAt('1')).status?.availableReplicas, 2);
    assert.deepEqual(condition(await c.deployments.get('web'), 'Available'), ['True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.']);
    await c.close();
  });

  it('reports ProgressDeadlineExceeded when the rollout makes no progress within progressDeadlineSeconds', async () => {
    const c = await Cluster.start({ readyAfterMs: () => undefined });
    const d = web(2);
    d.spec.progressDeadlineSeconds = 30;
    const start = c.h.clock.now();
    await c.deployments.create(d);
    await c.h.clock.advance(30_000);
    const rs = await c.rsAt('1');
    // The pods being created was the last progress.
    assert.deepEqual(condition(await c.deployments.get('web'), 'Progressing'), ['True', 'ReplicaSetUpdated', `ReplicaSet "${rs.metadata.name}" is progressing.`]);
    await c.h.clock.advance(start + 31_000 - c.h.clock.now());
    assert.deepEqual(condition(await c.deployments.get('web'), 'Progressing'), ['False', 'ProgressDeadlineExceeded', `ReplicaSet "${rs.metadata.name}" has timed out progressing.`]);
    await c.close();
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    const c = await Cluster.start();
    const d = web(1);
    d.spec.revisionHistoryLimit = 1;
    await c.deployments.create(d);
    await c.settle();
    for (const image of ['nginx:1', 'nginx:2', 'nginx:3']) {
      await c.edit(setImage(image));
      await c.settle();
    }
    const revisions = (await c.replicaSets()).map((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision']).sort();
    assert.deepEqual(revisions, ['3', '4']);
    await c.close();
  });

  it('releases a pod whose labels stop matching and replaces it; adopts a matching orphan and removes the surplus', async () => {
    const c = await Cluster.start();
    await c.deployments.create(web(2));
    await c.settle();
    const rs = await c.rsAt('1');
    const pods = c.h.admin.resource<Pod>(PODS, 'default');
    const [first] = await c.pods();
    await pods.patch(first!.metadata.name ?? '', 'merge', { metadata: { labels: { app: 'other' } } });
    await c.settle();
    const released = await pods.get(first!.metadata.name ?? '');
    assert.deepEqual(released.metadata.ownerReferences ?? [], []);
    const owned = (await c.pods()).filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid);
    assert.equal(owned.length, 2);

    await pods.patch(first!.metadata.name ?? '', 'merge', { metadata: { labels: { ...rs.spec.template?.metadata?.labels } } });
    await c.settle();
    const adopted = await pods.get(first!.metadata.name ?? '').catch(() => undefined);
    const after = (await c.pods()).filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid);
    assert.equal(after.length, 2);
    assert.equal((await c.events('SuccessfulDelete')).length, 1);
    if (adopted) assert.equal(adopted.metadata.ownerReferences?.[0]?.uid, rs.metadata.uid);
    await c.close();
  });
});
