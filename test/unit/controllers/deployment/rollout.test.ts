/**
 * Whole syncs (planSync) replayed against an in-memory cluster in which every pod is available as
 * soon as its ReplicaSet asks for it: the ScalingReplicaSet steps of a rolling update, a
 * rollback by template change, pausing, resizing during a rollout and the rollbackTo annotation.
 */
import { strict as assert } from 'node:assert';
import type { DeploymentAction, Plan } from '../../../../src/engine/controllers/deployment/plan';
import { planSync } from '../../../../src/engine/controllers/deployment/reconcile';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import type { ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';

const START = Date.UTC(2025, 0, 1);

/**
 * The API server (resourceVersions, status writes keep spec) plus ReplicaSet controller and
 * kubelets that bring every ReplicaSet's pods up at once (or never, for a broken template).
 */
class Sim {
  rss: ReplicaSet[] = [];
  events: string[] = [];
  now = START;
  podsBecomeAvailable = true;
  private uid = 0;
  private rv = 1;

  constructor(public d: Deployment) {
    d.metadata.resourceVersion = '1';
  }

  /** One sync of the Deployment: its writes in order until one fails, as the control loop sends them. */
  step(): Plan {
    this.now += 1000;
    const plan = planSync({ deployment: this.d, replicaSets: this.rss, pods: new Map(), nowMs: this.now });
    const answers: string[] = [];
    for (const a of plan.actions) {
      const answer = this.apply(a, answers);
      if (answer === 'conflict') break;
      answers.push(answer);
    }
    for (const r of this.rss) {
      const n = this.podsBecomeAvailable ? (r.spec.replicas ?? 0) : 0;
      r.status = { replicas: r.spec.replicas ?? 0, readyReplicas: n, availableReplicas: n, observedGeneration: r.metadata.generation, terminatingReplicas: 0 };
    }
    return plan;
  }

  private apply(a: DeploymentAction, answers: readonly string[]): string {
    const next = String(++this.rv);
    switch (a.kind) {
      case 'createReplicaSet':
        this.rss.push({ ...structuredClone(a.replicaSet), metadata: { ...a.replicaSet.metadata, uid: `rs-${++this.uid}`, resourceVersion: next, creationTimestamp: new Date(this.now).toISOString().replace('.000Z', 'Z'), generation: 1 } });
        return next;
      case 'updateReplicaSet': {
        const current = this.rss.find((r) => r.metadata.name === a.replicaSet.metadata.name)!;
        const rv = a.resourceVersionFrom === undefined ? a.replicaSet.metadata.resourceVersion : answers[a.resourceVersionFrom];
        if (rv !== current.metadata.resourceVersion) return 'conflict';
        const generation = (current.metadata.generation ?? 1) + (current.spec.replicas !== a.replicaSet.spec.replicas ? 1 : 0);
        this.rss = this.rss.map((r) => (r === current ? { ...structuredClone(a.replicaSet), metadata: { ...a.replicaSet.metadata, resourceVersion: next, generation } } : r));
        return next;
      }
      case 'deleteReplicaSet':
        this.rss = this.rss.filter((r) => r.metadata.name !== a.name);
        return next;
      case 'updateDeploymentStatus':
        if (a.deployment.metadata.resourceVersion !== this.d.metadata.resourceVersion) return 'conflict';
        this.d = { ...this.d, metadata: { ...this.d.metadata, annotations: a.deployment.metadata.annotations, resourceVersion: next }, status: structuredClone(a.deployment.status) };
        return next;
      case 'updateDeployment':
        if (a.deployment.metadata.resourceVersion !== this.d.metadata.resourceVersion) return 'conflict';
        this.d = structuredClone(a.deployment);
        this.d.metadata.resourceVersion = next;
        this.d.metadata.generation = (this.d.metadata.generation ?? 1) + 1;
        return next;
      case 'event':
        this.events.push(a.message);
        return '';
    }
  }

  settle(): void {
    for (let i = 0; i < 50; i++) if (this.step().actions.length === 0) return;
    assert.fail('did not settle');
  }

  sizes(): Record<string, number> {
    return Object.fromEntries(this.rss.map((r) => [r.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? '?', r.spec.replicas ?? 0]));
  }

  rsByRevision(revision: string): ReplicaSet {
    const r = this.rss.find((x) => x.metadata.annotations?.['deployment.kubernetes.io/revision'] === revision);
    assert.ok(r, `no ReplicaSet at revision ${revision}`);
    return r;
  }

  edit(f: (d: Deployment) => void): void {
    const next = structuredClone(this.d);
    f(next);
    next.metadata.generation = (next.metadata.generation ?? 1) + 1;
    next.metadata.resourceVersion = String(++this.rv);
    this.d = next;
  }
}

function web(replicas: number, image = 'nginx:1.26'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {},
  };
}

const setImage = (image: string) => (d: Deployment) => {
  d.spec.template!.spec = { containers: [{ name: 'web', image }] };
};

describe('controllers/deployment: rollouts (planSync)', () => {
  it('creates the first ReplicaSet at full size and reports it progressed', () => {
    const sim = new Sim(web(3));
    sim.settle();
    const rs = sim.rsByRevision('1');
    assert.deepEqual(sim.events, [`Scaled up replica set ${rs.metadata.name} from 0 to 3`]);
    assert.deepEqual(
      sim.d.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
        ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rs.metadata.name}" has successfully progressed.`],
      ],
    );
    assert.equal(sim.d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.deepEqual(rs.metadata.labels, { app: 'web', 'pod-template-hash': rs.metadata.name!.slice('web-'.length) });
    assert.deepEqual(rs.spec.selector, { matchLabels: { app: 'web', 'pod-template-hash': rs.metadata.name!.slice('web-'.length) } });
    assert.deepEqual(rs.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }]);
  });

  it('rolls 10 replicas over with maxSurge 25% (3) and maxUnavailable 25% (2)', () => {
    const sim = new Sim(web(10));
    sim.settle();
    sim.events = [];
    sim.edit(setImage('nginx:1.27'));
    sim.settle();
    const oldName = sim.rsByRevision('1').metadata.name;
    const newName = sim.rsByRevision('2').metadata.name;
    assert.deepEqual(sim.events, [
      `Scaled up replica set ${newName} from 0 to 3`,
      `Scaled down replica set ${oldName} from 10 to 8`,
      `Scaled up replica set ${newName} from 3 to 5`,
      `Scaled down replica set ${oldName} from 8 to 3`,
      `Scaled up replica set ${newName} from 5 to 10`,
      `Scaled down replica set ${oldName} from 3 to 0`,
    ]);
    assert.deepEqual(sim.sizes(), { '1': 0, '2': 10 });
    assert.equal(sim.d.status?.updatedReplicas, 10);
  });

  it('rolls back by template change: the old ReplicaSet is reused and takes the next revision', () => {
    const sim = new Sim(web(3));
    sim.settle();
    sim.edit(setImage('nginx:1.27'));
    sim.settle();
    const first = sim.rsByRevision('1').metadata.name;
    sim.events = [];
    sim.edit(setImage('nginx:1.26'));
    sim.settle();
    const reused = sim.rsByRevision('3');
    assert.equal(reused.metadata.name, first);
    assert.equal(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(sim.rss.length, 2);
    assert.equal(sim.d.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.deepEqual(sim.sizes(), { '2': 0, '3': 3 });
    assert.equal(sim.events[0], `Scaled up replica set ${first} from 0 to 1`);
  });

  it('does not roll out while paused, marks the pause, and still scales', () => {
    const sim = new Sim(web(3));
    sim.settle();
    sim.edit((d) => {
      d.spec.paused = true;
      setImage('nginx:1.27')(d);
    });
    sim.settle();
    assert.equal(sim.rss.length, 1);
    const progressing = sim.d.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason, progressing?.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
    sim.edit((d) => {
      d.spec.replicas = 5;
    });
    sim.settle();
    assert.deepEqual(sim.sizes(), { '1': 5 });
    sim.edit((d) => {
      d.spec.paused = false;
    });
    const plan = sim.step();
    const resumed = sim.d.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([resumed?.status, resumed?.reason, resumed?.message], ['Unknown', 'DeploymentResumed', 'Deployment is resumed']);
    // Upstream keeps its own stale copy after the first status write, so the second one conflicts.
    assert.deepEqual(plan.actions.map((a) => a.kind), ['updateDeploymentStatus', 'createReplicaSet', 'event', 'updateDeploymentStatus', 'updateReplicaSet', 'event', 'updateDeploymentStatus']);
    sim.settle();
    assert.deepEqual(sim.sizes(), { '1': 0, '2': 5 });
  });

  it('scales proportionally when resized in the middle of a rollout', () => {
    const sim = new Sim(web(10));
    sim.settle();
    sim.edit(setImage('nginx:1.27'));
    sim.step();
    assert.deepEqual(sim.sizes(), { '1': 8, '2': 3 });
    sim.events = [];
    sim.edit((d) => {
      d.spec.replicas = 20;
    });
    sim.step();
    // 20 + 5 surge = 25 allowed where 13 were: the old ReplicaSet's share is 8*25/13 = 15, the new one's
    // 3*25/13 = 6, and the 4 left over go to the largest.
    const oldName = sim.rsByRevision('1').metadata.name;
    const newName = sim.rsByRevision('2').metadata.name;
    assert.deepEqual(sim.events, [`Scaled up replica set ${oldName} from 8 to 19`, `Scaled up replica set ${newName} from 3 to 6`]);
    sim.settle();
    assert.deepEqual(sim.sizes(), { '1': 0, '2': 20 });
  });

  it('rolls back to the revision the rollbackTo annotation names', () => {
    const sim = new Sim(web(2));
    sim.settle();
    sim.edit(setImage('nginx:1.27'));
    sim.settle();
    sim.events = [];
    sim.edit((d) => {
      d.metadata.annotations = { ...d.metadata.annotations, 'deprecated.deployment.rollback.to': '0' };
    });
    sim.step();
    assert.deepEqual(sim.events, ['Rolled back deployment "web" to revision 1']);
    assert.equal(sim.d.metadata.annotations?.['deprecated.deployment.rollback.to'], undefined);
    assert.equal((sim.d.spec.template?.spec?.containers as { image: string }[])[0]?.image, 'nginx:1.26');
    sim.edit((d) => {
      d.metadata.annotations = { ...d.metadata.annotations, 'deprecated.deployment.rollback.to': '9' };
    });
    sim.events = [];
    sim.step();
    assert.deepEqual(sim.events, ['Unable to find the revision to rollback to.']);
  });

  it('trims the revision history to revisionHistoryLimit once the rollout is complete', () => {
    const sim = new Sim(web(1));
    sim.d.spec.revisionHistoryLimit = 1;
    sim.settle();
    for (const image of ['nginx:1', 'nginx:2', 'nginx:3']) {
      sim.edit(setImage(image));
      sim.settle();
    }
    assert.deepEqual(Object.keys(sim.sizes()).sort(), ['3', '4']);
  });

  it('times out a rollout that makes no progress within progressDeadlineSeconds', () => {
    const d = web(1);
    d.spec.progressDeadlineSeconds = 10;
    const sim = new Sim(d);
    sim.podsBecomeAvailable = false;
    let plan = sim.step();
    while (plan.actions.length > 0) plan = sim.step();
    const rs = sim.rsByRevision('1');
    const since = Date.parse(sim.d.status!.conditions!.find((c) => c.type === 'Progressing')!.lastUpdateTime!);
    // Looked at again a second after the deadline passes.
    assert.deepEqual(plan.requeue, { after: since + 10_000 - sim.now + 1000 });
    sim.now = since + 10_000;
    sim.step();
    const progressing = sim.d.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.deepEqual([progressing?.status, progressing?.reason, progressing?.message], ['False', 'ProgressDeadlineExceeded', `ReplicaSet "${rs.metadata.name}" has timed out progressing.`]);
    assert.equal(sim.step().requeue, undefined);
  });
});
