/** rolling_test.go: reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate. */
import { strict as assert } from 'node:assert';
import { Plan, type DeploymentAction } from '../../../../src/engine/controllers/deployment/plan';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from '../../../../src/engine/controllers/deployment/rolling';
import type { ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { newDeployment, rs } from './fixtures';

const NOW = Date.UTC(2016, 4, 20);

const scaledTo = (actions: readonly DeploymentAction[]): number[] =>
  actions.flatMap((a) => (a.kind === 'updateReplicaSet' ? [a.replicaSet.spec.replicas ?? 0] : []));

function withAvailable(r: ReplicaSet, available: number): ReplicaSet {
  r.status = { replicas: r.spec.replicas ?? 0, availableReplicas: available };
  return r;
}

describe('controllers/deployment: rolling update', () => {
  describe('reconcileNewReplicaSet', () => {
    const cases: [number, number, number, number, boolean, number?][] = [
      // deploymentReplicas, maxSurge, oldReplicas, newReplicas, scaleExpected, expectedNewReplicas
      [10, 0, 10, 0, false],
      [10, 2, 10, 0, true, 2],
      [10, 2, 5, 0, true, 7],
      [10, 2, 10, 2, false],
      [10, 2, 2, 11, true, 10],
    ];
    cases.forEach(([replicas, surge, oldReplicas, newReplicas, scaleExpected, expected], i) => {
      it(`scenario ${i}`, () => {
        const newRS = rs('foo-v2', newReplicas, undefined, undefined);
        const oldRS = rs('foo-v1', oldReplicas, undefined, undefined);
        const d = newDeployment('foo', replicas, { maxSurge: surge, maxUnavailable: 0 });
        const plan = new Plan(NOW);
        assert.equal(reconcileNewReplicaSet(plan, [newRS, oldRS], newRS, d), scaleExpected);
        assert.deepEqual(scaledTo(plan.actions), scaleExpected ? [expected] : []);
      });
    });
  });

  describe('reconcileOldReplicaSets', () => {
    const cases: [number, number, number, number, number, number, boolean, number?][] = [
      // deploymentReplicas, maxUnavailable, oldReplicas, newReplicas, readyPodsFromOldRS, readyPodsFromNewRS, scaleExpected, expectedOldReplicas
      [10, 0, 10, 0, 10, 0, true, 9],
      [10, 2, 10, 0, 10, 0, true, 8],
      // unhealthy replicas of the old ReplicaSet are cleaned up first
      [10, 2, 10, 0, 8, 0, true, 8],
      // one unhealthy replica cleaned up, one ready pod scaled down
      [10, 2, 10, 0, 9, 0, true, 8],
      // unavailable pods of the new ReplicaSet stop a further scale-down
      [10, 2, 8, 2, 8, 0, false],
    ];
    cases.forEach(([replicas, maxUnav, oldReplicas, newReplicas, oldReady, newReady, scaleExpected, expected], i) => {
      it(`scenario ${i}`, () => {
        const newRS = withAvailable(rs('foo-new', newReplicas, { foo: 'new' }, undefined), newReady);
        const oldRS = withAvailable(rs('foo-old', oldReplicas, { foo: 'old' }, undefined), oldReady);
        const d = newDeployment('foo', replicas, { maxSurge: 0, maxUnavailable: maxUnav, selector: { foo: 'new' } });
        const plan = new Plan(NOW);
        assert.equal(reconcileOldReplicaSets(plan, [oldRS, newRS], [oldRS], newRS, d), scaleExpected);
        const sizes = scaledTo(plan.actions);
        if (scaleExpected) assert.equal(sizes[sizes.length - 1], expected);
        else assert.deepEqual(sizes, []);
      });
    });
  });

  describe('cleanupUnhealthyReplicas', () => {
    const cases: [number, number, number, number][] = [
      // oldReplicas, readyPods, maxCleanupCount, cleanupCountExpected
      [10, 8, 1, 1],
      [10, 8, 3, 2],
      [10, 8, 0, 0],
      [10, 10, 3, 0],
    ];
    cases.forEach(([oldReplicas, ready, maxCleanup, expected], i) => {
      it(`scenario ${i}`, () => {
        const oldRS = withAvailable(rs('foo-v2', oldReplicas, undefined, undefined), ready);
        const d = newDeployment('foo', 10, { maxSurge: 2, maxUnavailable: 2 });
        const [, count] = cleanupUnhealthyReplicas(new Plan(NOW), [oldRS], d, maxCleanup);
        assert.equal(count, expected);
      });
    });

    it('fails when stale status shows more available replicas than desired', () => {
      const oldRS = withAvailable(rs('foo-v2', 5, undefined, undefined), 8);
      assert.throws(
        () => cleanupUnhealthyReplicas(new Plan(NOW), [oldRS], newDeployment('foo', 10, { maxSurge: 2, maxUnavailable: 2 }), 3),
        { message: 'when cleaning up unhealthy replicas, got invalid request to scale down default/foo-v2 5 -> 8' },
      );
    });
  });

  describe('scaleDownOldReplicaSetsForRollingUpdate', () => {
    const cases: [number, number, number, number, boolean, number?][] = [
      // deploymentReplicas, maxUnavailable, readyPods, oldReplicas, scaleExpected, expectedOldReplicas
      [10, 0, 10, 10, true, 9],
      [10, 2, 10, 10, true, 8],
      [10, 2, 8, 10, false],
      [10, 2, 10, 0, false],
      [10, 2, 1, 10, false],
    ];
    cases.forEach(([replicas, maxUnav, ready, oldReplicas, scaleExpected, expected], i) => {
      it(`scenario ${i}`, () => {
        const oldRS = withAvailable(rs('foo-v2', oldReplicas, undefined, undefined), ready);
        const d = newDeployment('foo', replicas, { maxSurge: 0, maxUnavailable: maxUnav, selector: { foo: 'bar' } });
        const plan = new Plan(NOW);
        const scaled = scaleDownOldReplicaSetsForRollingUpdate(plan, [oldRS], [oldRS], d);
        assert.equal(scaled > 0, scaleExpected);
        assert.deepEqual(scaledTo(plan.actions), scaleExpected ? [expected] : []);
      });
    });
  });
});
