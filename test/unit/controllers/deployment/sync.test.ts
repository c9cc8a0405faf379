/** sync_test.go: TestScale (proportional scaling), TestDeploymentController_cleanupDeployment(Order). */
import { strict as assert } from 'node:assert';
import { setReplicasAnnotations } from '../../../../src/engine/controllers/deployment/annotations';
import { Plan, type DeploymentAction } from '../../../../src/engine/controllers/deployment/plan';
import { maxSurge } from '../../../../src/engine/controllers/deployment/strategy';
import { cleanupDeployment, planCreateFailure, scale } from '../../../../src/engine/controllers/deployment/sync';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import type { ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { newDeployment, newRSWithStatus, rs, T0, T1, T2 } from './fixtures';

const NOW = Date.UTC(2016, 4, 20, 3);

function updates(actions: readonly DeploymentAction[]): Map<string, ReplicaSet> {
  const out = new Map<string, ReplicaSet>();
  for (const a of actions) if (a.kind === 'updateReplicaSet') out.set(a.replicaSet.metadata.name ?? '', a.replicaSet);
  return out;
}

describe('controllers/deployment: scale (TestScale)', () => {
  const updatedTemplate = (replicas: number): Deployment => {
    const d = newDeployment('foo', replicas, { selector: { foo: 'bar' } });
    d.spec.template!.metadata!.labels!.another = 'label';
    return d;
  };
  const brokenNew = (): ReplicaSet => {
    const r = rs('foo-v2', 2, undefined, T2);
    r.status = { replicas: 0, availableReplicas: 0 };
    return r;
  };
  interface Case {
    name: string;
    deployment: Deployment;
    oldDeployment: Deployment;
    newRS?: ReplicaSet;
    oldRSs: ReplicaSet[];
    expectedNew?: number;
    expectedOld: number[];
    wasntUpdated?: string[];
    desiredReplicasAnnotations?: Record<string, number>;
  }
  const cases: Case[] = [
    { name: 'normal scaling event: 10 -> 12', deployment: newDeployment('foo', 12), oldDeployment: newDeployment('foo', 10), newRS: rs('foo-v1', 10, undefined, T2), oldRSs: [], expectedNew: 12, expectedOld: [] },
    { name: 'normal scaling event: 10 -> 5', deployment: newDeployment('foo', 5), oldDeployment: newDeployment('foo', 10), newRS: rs('foo-v1', 10, undefined, T2), oldRSs: [], expectedNew: 5, expectedOld: [] },
    { name: 'proportional scaling: 5 -> 10', deployment: newDeployment('foo', 10), oldDeployment: newDeployment('foo', 5), newRS: rs('foo-v2', 2, undefined, T2), oldRSs: [rs('foo-v1', 3, undefined, T1)], expectedNew: 4, expectedOld: [6] },
    { name: 'proportional scaling: 5 -> 3', deployment: newDeployment('foo', 3), oldDeployment: newDeployment('foo', 5), newRS: rs('foo-v2', 2, undefined, T2), oldRSs: [rs('foo-v1', 3, undefined, T1)], expectedNew: 1, expectedOld: [2] },
    { name: 'proportional scaling: 9 -> 4', deployment: newDeployment('foo', 4), oldDeployment: newDeployment('foo', 9), newRS: rs('foo-v2', 8, undefined, T2), oldRSs: [rs('foo-v1', 1, undefined, T1)], expectedNew: 4, expectedOld: [0] },
    {
      name: 'proportional scaling: 7 -> 10',
      deployment: newDeployment('foo', 10),
      oldDeployment: newDeployment('foo', 7),
      newRS: rs('foo-v3', 2, undefined, T2),
      oldRSs: [rs('foo-v2', 3, undefined, T1), rs('foo-v1', 2, undefined, T0)],
      expectedNew: 3,
      expectedOld: [4, 3],
    },
    {
      name: 'proportional scaling: 13 -> 8',
      deployment: newDeployment('foo', 8),
      oldDeployment: newDeployment('foo', 13),
      newRS: rs('foo-v3', 2, undefined, T2),
      oldRSs: [rs('foo-v2', 8, undefined, T1), rs('foo-v1', 3, undefined, T0)],
      expectedNew: 1,
      expectedOld: [5, 2],
    },
    {
      name: 'leftover distribution: 3 -> 4 (scales up the new replica set)',
      deployment: newDeployment('foo', 4),
      oldDeployment: newDeployment('foo', 3),
      newRS: rs('foo-v3', 1, undefined, T2),
      oldRSs: [rs('foo-v2', 1, undefined, T1), rs('foo-v1', 1, undefined, T0)],
      expectedNew: 2,
      expectedOld: [1, 1],
    },
    {
      name: 'leftover distribution: 3 -> 2 (scales down the older replica set)',
      deployment: newDeployment('foo', 2),
      oldDeployment: newDeployment('foo', 3),
      newRS: rs('foo-v3', 1, undefined, T2),
      oldRSs: [rs('foo-v2', 1, undefined, T1), rs('foo-v1', 1, undefined, T0)],
      expectedNew: 1,
      expectedOld: [1, 0],
    },
    {
      name: 'proportional scaling (no new rs): 4 -> 5 (scales up the latest replica set first)',
      deployment: newDeployment('foo', 5),
      oldDeployment: newDeployment('foo', 4),
      oldRSs: [rs('foo-v2', 2, undefined, T1), rs('foo-v1', 2, undefined, T0)],
      expectedOld: [3, 2],
    },
    {
      name: 'proportional scaling: 6 -> 0',
      deployment: newDeployment('foo', 0),
      oldDeployment: newDeployment('foo', 6),
      newRS: rs('foo-v3', 3, undefined, T2),
      oldRSs: [rs('foo-v2', 2, undefined, T1), rs('foo-v1', 1, undefined, T0)],
      expectedNew: 0,
      expectedOld: [0, 0],
    },
    {
      name: 'proportional scaling: 0 -> 6',
      deployment: newDeployment('foo', 6),
      oldDeployment: newDeployment('foo', 6),
      newRS: rs('foo-v3', 0, undefined, T2),
      oldRSs: [rs('foo-v2', 0, undefined, T1), rs('foo-v1', 0, undefined, T0)],
      expectedNew: 6,
      expectedOld: [0, 0],
      wasntUpdated: ['foo-v2', 'foo-v1'],
    },
    {
      name: 'replica sets recording another size (failed rs update)',
      deployment: newDeployment('foo', 5),
      oldDeployment: newDeployment('foo', 5),
      newRS: rs('foo-v3', 2, undefined, T2),
      oldRSs: [rs('foo-v2', 1, undefined, T1), rs('foo-v1', 1, undefined, T0)],
      expectedNew: 2,
      expectedOld: [2, 1],
      wasntUpdated: ['foo-v3', 'foo-v1'],
      desiredReplicasAnnotations: { 'foo-v2': 3 },
    },
    {
      name: 'deployment with surge pods',
      deployment: newDeployment('foo', 20, { maxSurge: 2 }),
      oldDeployment: newDeployment('foo', 10, { maxSurge: 2 }),
      newRS: rs('foo-v2', 6, undefined, T2),
      oldRSs: [rs('foo-v1', 6, undefined, T1)],
      expectedNew: 11,
      expectedOld: [11],
    },
    {
      name: 'change both surge and size',
      deployment: newDeployment('foo', 50, { maxSurge: 6 }),
      oldDeployment: newDeployment('foo', 10, { maxSurge: 3 }),
      newRS: rs('foo-v2', 5, undefined, T2),
      oldRSs: [rs('foo-v1', 8, undefined, T1)],
      expectedNew: 22,
      expectedOld: [34],
    },
    {
      name: 'change both size and template',
      deployment: updatedTemplate(14),
      oldDeployment: newDeployment('foo', 10, { selector: { foo: 'bar' } }),
      oldRSs: [rs('foo-v2', 7, undefined, T2), rs('foo-v1', 3, undefined, T1)],
      expectedOld: [10, 4],
    },
    {
      name: 'saturated but broken new replica set does not affect old pods',
      deployment: newDeployment('foo', 2, { maxSurge: 1, maxUnavailable: 1 }),
      oldDeployment: newDeployment('foo', 2, { maxSurge: 1, maxUnavailable: 1 }),
      newRS: brokenNew(),
      oldRSs: [rs('foo-v1', 1, undefined, T1)],
      expectedNew: 2,
      expectedOld: [1],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const annotate = (r: ReplicaSet) => {
        const desired = c.desiredReplicasAnnotations?.[r.metadata.name ?? ''] ?? c.oldDeployment.spec.replicas!;
        setReplicasAnnotations(r, desired, desired + maxSurge(c.oldDeployment));
      };
      if (c.newRS) annotate(c.newRS);
      c.oldRSs.forEach(annotate);

      const plan = new Plan(NOW);
      scale(plan, c.deployment, c.newRS, c.oldRSs);
      const updated = updates(plan.actions);
      const sizeOf = (r: ReplicaSet) => (updated.get(r.metadata.name ?? '') ?? r).spec.replicas;
      if (c.newRS && c.expectedNew !== undefined) assert.equal(sizeOf(c.newRS), c.expectedNew, 'new');
      c.oldRSs.forEach((r, i) => assert.equal(sizeOf(r), c.expectedOld[i], `old ${r.metadata.name}`));
      for (const name of c.wasntUpdated ?? []) assert.ok(!updated.has(name), `${name} was updated`);
    });
  }

  it('records the new size on every ReplicaSet it scales, with a ScalingReplicaSet event', () => {
    const d = newDeployment('foo', 10);
    const newRS = rs('foo-v2', 2, undefined, T2);
    const old = rs('foo-v1', 3, undefined, T1);
    for (const r of [newRS, old]) setReplicasAnnotations(r, 5, 5);
    const plan = new Plan(NOW);
    scale(plan, d, newRS, [old]);
    assert.deepEqual(
      plan.actions.map((a) => (a.kind === 'event' ? a.message : `${a.kind} ${a.kind === 'updateReplicaSet' ? `${a.replicaSet.metadata.name} ${a.replicaSet.spec.replicas} ${JSON.stringify(a.replicaSet.metadata.annotations)}` : ''}`)),
      [
        'updateReplicaSet foo-v1 6 {"deployment.kubernetes.io/desired-replicas":"10","deployment.kubernetes.io/max-replicas":"10"}',
        'Scaled up replica set foo-v1 from 3 to 6',
        'updateReplicaSet foo-v2 4 {"deployment.kubernetes.io/desired-replicas":"10","deployment.kubernetes.io/max-replicas":"10"}',
        'Scaled up replica set foo-v2 from 2 to 4',
      ],
    );
  });
});

describe('controllers/deployment: cleanupDeployment', () => {
  const selector = { foo: 'bar' };
  const deletions = (oldRSs: ReplicaSet[], limit: number): string[] => {
    const plan = new Plan(NOW);
    cleanupDeployment(plan, oldRSs, newDeployment('foo', 1, { revisionHistoryLimit: limit, selector }));
    return plan.actions.flatMap((a) => (a.kind === 'deleteReplicaSet' ? [a.name] : []));
  };
  const alreadyDeleted = newRSWithStatus('foo-1', 0, 0, selector);
  alreadyDeleted.metadata.deletionTimestamp = '2016-05-20T00:00:00Z';
  const cases: [ReplicaSet[], number, number][] = [
    [[newRSWithStatus('foo-1', 0, 0, selector), newRSWithStatus('foo-2', 0, 0, selector), newRSWithStatus('foo-3', 0, 0, selector)], 1, 2],
    // Only the replica set with spec.replicas = status.replicas = 0 goes.
    [[newRSWithStatus('foo-1', 0, 0, selector), newRSWithStatus('foo-2', 0, 1, selector), newRSWithStatus('foo-3', 1, 0, selector), newRSWithStatus('foo-4', 1, 1, selector)], 0, 1],
    [[newRSWithStatus('foo-1', 0, 0, selector), newRSWithStatus('foo-2', 0, 0, selector)], 0, 2],
    [[newRSWithStatus('foo-1', 1, 1, selector), newRSWithStatus('foo-2', 1, 1, selector)], 0, 0],
    [[alreadyDeleted], 0, 0],
    // An unlimited revisionHistoryLimit keeps everything.
    [[newRSWithStatus('foo-1', 0, 0, selector), newRSWithStatus('foo-2', 0, 0, selector), newRSWithStatus('foo-3', 0, 0, selector)], 2147483647, 0],
  ];
  cases.forEach(([oldRSs, limit, expected], i) => it(`scenario ${i}`, () => assert.equal(deletions(oldRSs, limit).length, expected)));

  it('keeps a ReplicaSet whose scale-down its controller has not observed yet', () => {
    const r = newRSWithStatus('foo-1', 0, 0, selector);
    r.metadata.generation = 2;
    r.status!.observedGeneration = 1;
    assert.deepEqual(deletions([r], 0), []);
  });

  describe('order (TestDeploymentController_cleanupDeploymentOrder)', () => {
    const at = (minutes: number) => new Date(Date.UTC(2016, 4, 20, 1, minutes)).toISOString().replace('.000Z', 'Z');
    const withRevision = (name: string, replicas: number, minutes: number, revision: string): ReplicaSet => {
      const r = rs(name, replicas, selector, at(minutes));
      if (revision) r.metadata.annotations = { 'deployment.kubernetes.io/revision': revision };
      r.status = { replicas };
      return r;
    };
    const cases: [string, ReplicaSet[], number, string[]][] = [
      ['revision order: rs1 < rs2, delete rs1', [withRevision('foo-1', 0, -1, '1'), withRevision('foo-2', 0, 0, '2')], 1, ['foo-1']],
      ['revision order: rs2 < rs1, delete rs2', [withRevision('foo-1', 0, -1, '2'), withRevision('foo-2', 0, 0, '1')], 1, ['foo-2']],
      ["rs1 has revision but rs2 doesn't have revision, delete rs2", [withRevision('foo-1', 0, -1, '1'), withRevision('foo-2', 0, 0, '')], 1, ['foo-2']],
      ["rs1 doesn't have revision while rs2 has revision, delete rs1", [withRevision('foo-1', 0, -1, ''), withRevision('foo-2', 0, 0, '2')], 1, ['foo-1']],
      ['revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2', [withRevision('foo-1', 1, -1, '1'), withRevision('foo-2', 0, 0, '2'), withRevision('foo-3', 0, 1, '3')], 1, ['foo-2']],
      ["revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete", [withRevision('foo-1', 1, -1, '1'), withRevision('foo-2', 1, 0, '2'), withRevision('foo-3', 0, 1, '3')], 1, []],
      [
        'revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4',
        [withRevision('foo-1', 0, -1, '3'), withRevision('foo-2', 0, 0, '1'), withRevision('foo-3', 0, 1, '4'), withRevision('foo-4', 0, 2, '2')],
        2,
        ['foo-2', 'foo-4'],
      ],
    ];
    for (const [name, oldRSs, limit, expected] of cases) it(name, () => assert.deepEqual(deletions(oldRSs, limit).sort(), expected));
  });
});

describe('controllers/deployment: a failed create of the new ReplicaSet', () => {
  const d = (): Deployment => {
    const x = newDeployment('web', 3, { selector: { app: 'web' } });
    x.spec.progressDeadlineSeconds = 600;
    return x;
  };
  const newRS = (): ReplicaSet => {
    const r = rs('web-abc', 3, { app: 'web' }, undefined);
    r.spec.template = structuredClone(d().spec.template);
    r.spec.template!.metadata!.labels!['pod-template-hash'] = 'abc';
    return r;
  };

  it('takes an existing ReplicaSet of its own with its template as created (a stale cache)', () => {
    const existing = newRS();
    existing.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true }];
    assert.equal(planCreateFailure(d(), newRS(), { alreadyExists: true, namespaceTerminating: false, message: 'exists', existing }, NOW), 'adopted');
  });

  it('bumps status.collisionCount on a hash collision', () => {
    const other = newRS();
    other.spec.template!.spec = { containers: [{ name: 'other', image: 'other' }] };
    other.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web', controller: true }];
    const plan = planCreateFailure(d(), newRS(), { alreadyExists: true, namespaceTerminating: false, message: 'exists', existing: other }, NOW);
    assert.ok(plan !== 'adopted');
    assert.deepEqual(plan.actions.map((a) => (a.kind === 'updateDeploymentStatus' ? a.deployment.status?.collisionCount : a.kind)), [1]);
  });

  it('reports other failures in the Progressing condition and a ReplicaSetCreateError event', () => {
    const message = 'replicasets.apps "web-abc" is forbidden: exceeded quota: q, requested: count/replicasets.apps=1, used: count/replicasets.apps=1, limited: count/replicasets.apps=1';
    const plan = planCreateFailure(d(), newRS(), { alreadyExists: false, namespaceTerminating: false, message }, NOW);
    assert.ok(plan !== 'adopted');
    const [status, event] = plan.actions;
    assert.ok(status?.kind === 'updateDeploymentStatus' && event?.kind === 'event');
    assert.deepEqual(status.deployment.status?.conditions, [
      { type: 'Progressing', status: 'False', lastUpdateTime: '2016-05-20T03:00:00Z', lastTransitionTime: '2016-05-20T03:00:00Z', reason: 'ReplicaSetCreateError', message: `Failed to create new replica set "web-abc": ${message}` },
    ]);
    assert.deepEqual([event.eventType, event.reason, event.message], ['Warning', 'ReplicaSetCreateError', `Failed to create new replica set "web-abc": ${message}`]);
  });

  it('stays quiet when the namespace is terminating', () => {
    const plan = planCreateFailure(d(), newRS(), { alreadyExists: false, namespaceTerminating: true, message: 'terminating' }, NOW);
    assert.ok(plan !== 'adopted');
    assert.deepEqual(plan.actions, []);
  });
});
