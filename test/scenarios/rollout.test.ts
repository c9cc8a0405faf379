/**
 * Deployment rollouts on the full cluster, step by step as kube-controller-manager takes them:
 * RollingUpdate at 25%/25% (the ReplicaSet scale steps upstream takes for 10 replicas, within
 * maxSurge and maxUnavailable at every step), Recreate (the new ReplicaSet only once the old
 * pods are gone), rollback with `kubectl rollout undo`, and proportional scaling during a
 * rollout.
 */
import { strict as assert } from 'node:assert';
import type { RevisionRecord } from '../../src/engine/trace/revision';
import { scenario, deployment, type Scenario } from './support';
import { DEPLOYMENTS } from '../../src/engine/client/resources';

const ROLLING = `
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%`;

interface DeploymentStatusView {
  metadata: { generation?: number };
  status?: { observedGeneration?: number; replicas?: number; availableReplicas?: number; updatedReplicas?: number };
}

/** The Deployment's status at every revision from now on. */
async function statusHistory(s: Scenario, name: string): Promise<DeploymentStatusView[]> {
  const seen: DeploymentStatusView[] = [];
  await s.cluster.client().resource(DEPLOYMENTS, 'default').watch({ fieldSelector: `metadata.name=${name}` }, (e) => {
    if (e.type === 'MODIFIED') seen.push(e.object as unknown as DeploymentStatusView);
  });
  return seen;
}

/** "Scaled up replica set web-<hash> from 0 to 3" with the hashes named old/new. */
function scalingEvents(s: Scenario, names: Record<string, string>): string[] {
  return s
    .events((e) => e.reason === 'ScalingReplicaSet')
    .map((e) => Object.entries(names).reduce((text, [hash, label]) => text.split(hash).join(label), e.replace(/^Normal ScalingReplicaSet Deployment default\/web: /, '')));
}

describe('scenario: Deployment rollouts', function () {
  // Every write of a 10-replica rollout goes through three etcd members: more timers to run.
  this.timeout(60_000);
  it('rolls 10 replicas at 25%/25% in the ReplicaSet steps upstream takes, within maxSurge and maxUnavailable', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 10, { strategy: ROLLING }));
      await s.cluster.settle();
      const [old] = await s.replicaSets();
      const history = await statusHistory(s, 'web');
      await s.apply(deployment('web', 10, { image: 'nginx:1.28', strategy: ROLLING }));
      assert.equal((await s.cluster.settle()).settled, true);
      const newRS = (await s.replicaSets()).find((rs) => rs.metadata.name !== old!.metadata.name)!;
      const names = { [old!.metadata.name!]: 'old', [newRS.metadata.name!]: 'new' };
      assert.deepEqual(scalingEvents(s, names), [
        'Scaled up replica set old from 0 to 10',
        'Scaled up replica set new from 0 to 3',
        'Scaled down replica set old from 10 to 8',
        'Scaled up replica set new from 3 to 5',
        // With every write paying etcd's latency the new pods become available a few ms apart,
        // so the controller takes smaller steps (0 s minReadySeconds), and from the eleventh
        // similar event on client-go's EventCorrelator aggregates them, as upstream's do.
        'Scaled down replica set old from 8 to 7',
        'Scaled up replica set new from 5 to 6',
        'Scaled down replica set old from 7 to 5',
        'Scaled up replica set new from 6 to 8',
        'Scaled down replica set old from 5 to 4',
        '(combined from similar events): Scaled up replica set new from 8 to 9',
        '(combined from similar events): Scaled down replica set old from 4 to 3',
        '(combined from similar events): Scaled up replica set new from 9 to 10',
        '(combined from similar events): Scaled down replica set old from 3 to 2',
        '(combined from similar events): Scaled down replica set old from 2 to 1',
        '(combined from similar events): Scaled down replica set old from 1 to 0',
      ]);
      // maxSurge 25% of 10 rounds up to 3, maxUnavailable rounds down to 2.
      const sizes = new Map<string, number>();
      for (const step of s.scaleSteps()) {
        const [, name, , to] = /^(\S+): (\S+) -> (\S+)$/.exec(step)!;
        sizes.set(name!, Number(to));
        assert.ok([...sizes.values()].reduce((a, b) => a + b, 0) <= 13, `more than 10+3 pods wanted after ${step}`);
      }
      for (const d of history) {
        if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) continue;
        assert.ok((d.status?.availableReplicas ?? 0) >= 8, `fewer than 10-2 available: ${JSON.stringify(d.status)}`);
      }
      const pods = await s.pods();
      assert.equal(pods.length, 10);
      assert.ok(pods.every((p) => p.spec.containers[0]!.image === 'nginx:1.28' && p.status?.phase === 'Running'));
    } finally {
      await s.close();
    }
  });

  it('Recreate scales the old ReplicaSet to 0 and creates new pods only once the old ones are gone', async () => {
    const s = await scenario();
    try {
      const recreate = '\n  strategy:\n    type: Recreate';
      await s.apply(deployment('web', 3, { strategy: recreate }));
      await s.cluster.settle();
      const mark = s.cluster.trace.next;
      await s.apply(deployment('web', 3, { image: 'nginx:1.28', strategy: recreate }));
      await s.cluster.settle();
      const story = s.events((e) => e.id >= mark && ['ScalingReplicaSet', 'SuccessfulDelete', 'Killing', 'SuccessfulCreate'].includes(e.reason)).map((e) => e.replace(/web-\w+-\w{5}\b/g, 'POD').replace(/web-[0-9a-f]{8,10}\b/g, 'RS'));
      // The old pods' deletions and their kubelets' Killing interleave as their writes commit;
      // the new pods come only after all of them.
      const [down, ...rest] = story;
      assert.equal(down, 'Normal ScalingReplicaSet Deployment default/web: Scaled down replica set RS from 3 to 0');
      assert.deepEqual([...rest.slice(0, 6)].sort(), [
        'Normal Killing Pod default/POD: Stopping container web',
        'Normal Killing Pod default/POD: Stopping container web',
        'Normal Killing Pod default/POD: Stopping container web',
        'Normal SuccessfulDelete ReplicaSet default/RS: Deleted pod: POD',
        'Normal SuccessfulDelete ReplicaSet default/RS: Deleted pod: POD',
        'Normal SuccessfulDelete ReplicaSet default/RS: Deleted pod: POD',
      ]);
      assert.deepEqual(rest.slice(6), [
        'Normal ScalingReplicaSet Deployment default/web: Scaled up replica set RS from 0 to 3',
        'Normal SuccessfulCreate ReplicaSet default/RS: Created pod: POD',
        'Normal SuccessfulCreate ReplicaSet default/RS: Created pod: POD',
        'Normal SuccessfulCreate ReplicaSet default/RS: Created pod: POD',
      ]);
      // The scale-up waited until no old pod was running (oldPodsRunning): each was deleted or had
      // reached a terminal phase, which the kubelet writes before the pod's final deletion.
      const records = s.cluster.trace.since(mark);
      const podWrites = records.filter((r): r is RevisionRecord => r.type === 'store.revision' && r.resource === 'pods');
      const deleted = new Set(podWrites.filter((r) => r.operation === 'delete').map((r) => r.name));
      assert.equal(deleted.size, 3);
      const gone = (name: string): number =>
        podWrites.find((r) => r.name === name && (r.operation === 'delete' || r.phase === 'Succeeded' || r.phase === 'Failed'))!.id;
      const scaleUp = records.find((r) => r.type === 'kube.event' && r.message.startsWith('Scaled up'))!;
      for (const name of deleted) assert.ok(scaleUp.id > gone(name), `the scale-up came after ${name} stopped running`);
    } finally {
      await s.close();
    }
  });

  it('rolls back with `kubectl rollout undo`: the previous template returns as revision 3', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 3));
      await s.cluster.settle();
      await s.apply(deployment('web', 3, { image: 'nginx:1.28' }));
      await s.cluster.settle();
      assert.equal(await s.cluster.rolloutUndo({ name: 'web' }), 'deployment.apps/web rolled back');
      await s.cluster.settle();
      const rss = await s.replicaSets();
      const byImage = Object.fromEntries(rss.map((rs) => [rs.spec.template?.spec?.containers?.[0]?.image, rs]));
      assert.equal(byImage['nginx:1.27']!.spec.replicas, 3);
      assert.equal(byImage['nginx:1.28']!.spec.replicas, 0);
      assert.equal(byImage['nginx:1.27']!.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
      assert.equal(byImage['nginx:1.27']!.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
      const d = await s.get<{ metadata: { annotations?: Record<string, string> } } & import('../../src/engine/api/types').KubeObject>('deployments', 'web');
      assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
      const pods = await s.pods();
      assert.ok(pods.length === 3 && pods.every((p) => p.spec.containers[0]!.image === 'nginx:1.27'));
      assert.equal(await s.cluster.rolloutUndo({ name: 'web' }, 3), 'deployment.apps/web skipped rollback (current template already matches revision 3)');
      await assert.rejects(s.cluster.rolloutUndo({ name: 'web' }, 7), /^Error: unable to find specified revision 7 in history$/);
      assert.equal(await s.cluster.rolloutRestart({ kind: 'Deployment', name: 'web' }), 'deployment.apps/web restarted');
      await s.cluster.settle();
      const restarted = (await s.replicaSets()).find((rs) => rs.spec.replicas === 3)!;
      assert.ok(restarted.spec.template && (restarted.spec.template as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']);
    } finally {
      await s.close();
    }
  });

  it('scales proportionally during a rollout: 8+5 of 10 become 12+7 of 15 (maxSurge 4)', async () => {
    const s = await scenario();
    try {
      await s.apply(deployment('web', 10, { strategy: ROLLING }));
      await s.cluster.settle();
      // The new pods never become ready: the rollout stops at old 8, new 5.
      await s.apply(deployment('web', 10, { image: 'nginx:1.28', strategy: ROLLING, annotations: { 'kubesim.dev/behavior': 'fail-readiness' } }));
      await s.cluster.advance(30_000);
      const [oldRS, newRS] = (await s.replicaSets()).sort((a, b) => (a.spec.template?.spec?.containers?.[0]?.image ?? '').localeCompare(b.spec.template?.spec?.containers?.[0]?.image ?? ''));
      assert.deepEqual([oldRS!.spec.replicas, newRS!.spec.replicas], [8, 5]);
      assert.equal(await s.cluster.scale({ kind: 'Deployment', name: 'web' }, 15), 'deployment.apps/web scaled');
      await s.cluster.advance(30_000);
      const names = { [oldRS!.metadata.name!]: 'old', [newRS!.metadata.name!]: 'new' };
      assert.deepEqual(scalingEvents(s, names).slice(-2), ['Scaled up replica set old from 8 to 12', 'Scaled up replica set new from 5 to 7']);
      const after = await s.replicaSets();
      assert.equal(after.reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0), 19);
    } finally {
      await s.close();
    }
  });
});
