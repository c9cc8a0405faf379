/** progress_test.go: TestRequeueStuckDeployment and TestSyncRolloutStatus, plus the condition texts. */
import { strict as assert } from 'node:assert';
import { Plan } from '../../../../src/engine/controllers/deployment/plan';
import { requeueStuckDeployment, syncRolloutStatus } from '../../../../src/engine/controllers/deployment/progress';
import type { Deployment, DeploymentCondition, DeploymentStatus } from '../../../../src/engine/controllers/deployment/types';
import type { ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { rs } from './fixtures';

const status = (replicas: number, updatedReplicas: number, availableReplicas: number): DeploymentStatus => ({ replicas, updatedReplicas, availableReplicas });

/** currentDeployment: a Recreate Deployment named progress-test. */
function currentDeployment(pds: number | undefined, replicas: number, statusReplicas: number, updated: number, available: number, conditions: DeploymentCondition[] | undefined): Deployment {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'progress-test' },
    spec: { replicas, selector: {}, template: {}, strategy: { type: 'Recreate' } },
    status: status(statusReplicas, updated, available),
  };
  if (pds !== undefined) d.spec.progressDeadlineSeconds = pds;
  if (conditions) d.status!.conditions = conditions;
  return d;
}

function newRSWithAvailable(name: string, specReplicas: number, statusReplicas: number, available: number): ReplicaSet {
  const r = rs(name, specReplicas, undefined, undefined);
  r.status = { replicas: statusReplicas, availableReplicas: available };
  return r;
}

const TEST_TIME = '2017-02-15T18:49:00Z';
const at = (h: number, m: number, s: number, ns = 0) => Date.UTC(2017, 1, 15, h, m, s) + ns / 1e6;

describe('controllers/deployment: progress', () => {
  describe('requeueStuckDeployment', () => {
    const failed: DeploymentCondition[] = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }];
    const stuck: DeploymentCondition[] = [{ type: 'Progressing', status: 'True', lastUpdateTime: TEST_TIME }];
    const cases: [string, Deployment, DeploymentStatus, number, number][] = [
      ['nil progressDeadlineSeconds specified', currentDeployment(undefined, 4, 3, 3, 2, undefined), status(3, 3, 2), at(18, 49, 0), -1],
      ['infinite progressDeadlineSeconds specified', currentDeployment(2147483647, 4, 3, 3, 2, undefined), status(3, 3, 2), at(18, 49, 0), -1],
      ['no progressing condition found', currentDeployment(60, 4, 3, 3, 2, undefined), status(3, 3, 2), at(18, 49, 0), -1],
      ['complete deployment does not need to be requeued', currentDeployment(60, 3, 3, 3, 3, undefined), status(3, 3, 3), at(18, 49, 0), -1],
      ['already failed deployment does not need to be requeued', currentDeployment(60, 3, 3, 3, 0, failed), status(3, 3, 0), at(18, 49, 0), -1],
      ['stuck deployment - 30s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 49, 30), 30_000],
      ['stuck deployment - 1s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 49, 59), 1_000],
      ['failed deployment - less than a second => now', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 49, 59, 1e6), 0],
      ['failed deployment - now', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 50, 0), 0],
      ['failed deployment - 1s after deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 50, 1), 0],
      ['failed deployment - 60s after deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), at(18, 51, 0), 0],
    ];
    for (const [name, d, st, now, expected] of cases) {
      it(name, () => {
        const plan = new Plan(now);
        assert.equal(requeueStuckDeployment(plan, d, st), expected);
        if (expected > 0) assert.deepEqual(plan.requeue, { after: expected + 1000 });
        if (expected === 0) assert.equal(plan.requeue, 'rateLimited');
        if (expected < 0) assert.equal(plan.requeue, undefined);
      });
    }
  });

  describe('syncRolloutStatus', () => {
    const failedTimedOut: DeploymentCondition = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' };
    const newRSAvailable: DeploymentCondition = { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', lastUpdateTime: TEST_TIME, lastTransitionTime: TEST_TIME };
    const replicaSetUpdated: DeploymentCondition = { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: TEST_TIME, lastTransitionTime: TEST_TIME };
    const NOW = Date.UTC(2017, 1, 16);
    interface Case {
      name: string;
      d: Deployment;
      allRSs: ReplicaSet[];
      newRS?: ReplicaSet;
      expect?: { status: string; reason: string; message?: string; lastUpdate?: string; lastTransition?: string };
    }
    const cases: Case[] = [
      {
        name: 'General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline',
        d: currentDeployment(undefined, 3, 2, 2, 2, [replicaSetUpdated]),
        allRSs: [newRSWithAvailable('bar', 0, 1, 1)],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
      },
      {
        name: 'General: do not estimate progress of deployment with only one active ReplicaSet',
        d: currentDeployment(60, 3, 3, 3, 3, [newRSAvailable]),
        allRSs: [newRSWithAvailable('bar', 3, 3, 3)],
        expect: { status: 'True', reason: 'NewReplicaSetAvailable', lastUpdate: TEST_TIME, lastTransition: TEST_TIME },
      },
      {
        name: 'DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True',
        d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
        allRSs: [newRSWithAvailable('bar', 0, 1, 1)],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
        expect: { status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "foo" is progressing.', lastTransition: TEST_TIME },
      },
      {
        name: 'DeploymentProgressing: update everything if deployment has Progressing=False',
        d: currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
        allRSs: [newRSWithAvailable('bar', 0, 1, 1)],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
        expect: { status: 'True', reason: 'ReplicaSetUpdated', lastTransition: '2017-02-16T00:00:00Z' },
      },
      {
        name: 'DeploymentProgressing: create Progressing condition if it does not exist',
        d: currentDeployment(60, 3, 2, 2, 2, []),
        allRSs: [newRSWithAvailable('bar', 0, 1, 1)],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
        expect: { status: 'True', reason: 'ReplicaSetUpdated' },
      },
      {
        name: 'DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True',
        d: currentDeployment(60, 3, 3, 3, 3, [replicaSetUpdated]),
        allRSs: [],
        newRS: newRSWithAvailable('foo', 3, 3, 3),
        expect: { status: 'True', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "foo" has successfully progressed.', lastTransition: TEST_TIME },
      },
      {
        name: 'DeploymentComplete: update everything if deployment has Progressing=False',
        d: currentDeployment(60, 3, 3, 3, 3, [failedTimedOut]),
        allRSs: [],
        newRS: newRSWithAvailable('foo', 3, 3, 3),
        expect: { status: 'True', reason: 'NewReplicaSetAvailable' },
      },
      {
        name: 'DeploymentComplete: create Progressing condition if it does not exist',
        d: currentDeployment(60, 3, 3, 3, 3, []),
        allRSs: [],
        newRS: newRSWithAvailable('foo', 3, 3, 3),
        expect: { status: 'True', reason: 'NewReplicaSetAvailable' },
      },
      {
        name: 'DeploymentComplete: defend against NPE when newRS=nil',
        d: currentDeployment(60, 0, 3, 3, 3, [replicaSetUpdated]),
        allRSs: [newRSWithAvailable('foo', 0, 0, 0)],
        expect: { status: 'True', reason: 'NewReplicaSetAvailable', message: 'Deployment "progress-test" has successfully progressed.' },
      },
      {
        name: 'DeploymentTimedOut: update status if rollout exceeds Progress Deadline',
        d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
        allRSs: [],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
        expect: { status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "foo" has timed out progressing.' },
      },
      {
        name: 'DeploymentTimedOut: do not update status if deployment has existing timedOut condition',
        d: currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
        allRSs: [],
        newRS: newRSWithAvailable('foo', 3, 2, 2),
        expect: { status: 'False', reason: 'ProgressDeadlineExceeded' },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const all = c.newRS ? [...c.allRSs, c.newRS] : c.allRSs;
        syncRolloutStatus(new Plan(NOW), all, c.newRS, c.d);
        const cond = c.d.status?.conditions?.find((x) => x.type === 'Progressing');
        if (!c.expect) return assert.equal(cond, undefined);
        assert.ok(cond, 'expected a Progressing condition');
        assert.equal(cond.status, c.expect.status);
        assert.equal(cond.reason, c.expect.reason);
        if (c.expect.message) assert.equal(cond.message, c.expect.message);
        if (c.expect.lastUpdate) assert.equal(cond.lastUpdateTime, c.expect.lastUpdate);
        if (c.expect.lastTransition) assert.equal(cond.lastTransitionTime, c.expect.lastTransition);
      });
    }

    it('carries the new ReplicaSet\'s ReplicaFailure over, and drops it when it is gone', () => {
      const d = currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]);
      const newRS = newRSWithAvailable('foo', 3, 2, 2);
      newRS.status!.conditions = [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: TEST_TIME, reason: 'FailedCreate', message: 'pods "foo-" is forbidden: exceeded quota' }];
      syncRolloutStatus(new Plan(NOW), [newRS], newRS, d);
      assert.deepEqual(d.status?.conditions?.find((c) => c.type === 'ReplicaFailure'), {
        type: 'ReplicaFailure',
        status: 'True',
        lastUpdateTime: TEST_TIME,
        lastTransitionTime: TEST_TIME,
        reason: 'FailedCreate',
        message: 'pods "foo-" is forbidden: exceeded quota',
      });
      delete newRS.status!.conditions;
      syncRolloutStatus(new Plan(NOW), [newRS], newRS, d);
      assert.equal(d.status?.conditions?.find((c) => c.type === 'ReplicaFailure'), undefined);
    });

    it('writes the Available condition with upstream\'s texts', () => {
      const d = currentDeployment(undefined, 4, 0, 0, 0, undefined);
      d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
      const newRS = newRSWithAvailable('foo', 4, 4, 3);
      const plan = new Plan(NOW);
      syncRolloutStatus(plan, [newRS], newRS, d);
      assert.deepEqual(d.status, {
        replicas: 4,
        updatedReplicas: 4,
        availableReplicas: 3,
        unavailableReplicas: 1,
        terminatingReplicas: 0,
        conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2017-02-16T00:00:00Z', lastTransitionTime: '2017-02-16T00:00:00Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }],
      });
      newRS.status!.availableReplicas = 2;
      syncRolloutStatus(new Plan(NOW + 5000), [newRS], newRS, d);
      assert.deepEqual(d.status?.conditions, [
        { type: 'Available', status: 'False', lastUpdateTime: '2017-02-16T00:00:05Z', lastTransitionTime: '2017-02-16T00:00:05Z', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
      ]);
      assert.equal(plan.actions.length, 1);
    });
  });
});
