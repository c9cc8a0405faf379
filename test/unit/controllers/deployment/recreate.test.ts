/** recreate_test.go: oldPodsRunning, and the Recreate steps (scale old to zero, wait for the pods, then the new ReplicaSet). */
import { strict as assert } from 'node:assert';
import { Plan, type DeploymentAction } from '../../../../src/engine/controllers/deployment/plan';
import { oldPodsRunning, rolloutRecreate, type PodMap } from '../../../../src/engine/controllers/deployment/recreate';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import type { Pod, ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { newRSWithStatus, rs, T1 } from './fixtures';

const NOW = Date.UTC(2016, 4, 20, 3);
const pod = (phase: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${phase}` }, status: { phase } });
const rsWithUID = (uid: string): ReplicaSet => {
  const r = rs(uid, 0, undefined, undefined);
  r.metadata.uid = uid;
  return r;
};

describe('controllers/deployment: recreate', () => {
  describe('oldPodsRunning', () => {
    const cases: [string, ReplicaSet | undefined, ReplicaSet[], PodMap, boolean][] = [
      ['no old RSs', undefined, [], new Map(), false],
      ['old RSs with running pods', undefined, [rsWithUID('some-uid'), rsWithUID('other-uid')], new Map([['some-uid', [pod('Running')]], ['other-uid', [pod('Running')]]]), true],
      ['old RSs without pods but with non-zero status replicas', undefined, [newRSWithStatus('rs-1', 0, 1)], new Map(), true],
      ['old RSs without pods or non-zero status replicas', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map(), false],
      ['old RSs with zero status replicas but pods in terminal state are present', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Failed'), pod('Succeeded')]]]), false],
      ['old RSs with zero status replicas but pod in unknown phase present', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Unknown')]]]), true],
      ['old RSs with zero status replicas with pending pod present', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Pending')]]]), true],
      ['old RSs with zero status replicas with running pod present', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Running')]]]), true],
      [
        'old RSs with zero status replicas but pods in terminal state and pending are present',
        undefined,
        [newRSWithStatus('rs-1', 0, 0)],
        new Map([['uid-1', [pod('Failed'), pod('Succeeded')]], ['uid-2', []], ['uid-3', [pod('Pending')]]]),
        true,
      ],
      ['pods of the new ReplicaSet do not count', rsWithUID('new-uid'), [newRSWithStatus('rs-1', 0, 0)], new Map([['new-uid', [pod('Running')]]]), false],
    ];
    for (const [name, newRS, oldRSs, podMap, expected] of cases) it(name, () => assert.equal(oldPodsRunning(newRS, oldRSs, podMap), expected));
  });

  describe('rolloutRecreate', () => {
    const deployment = (): Deployment => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'foo', namespace: 'default', uid: 'uid-foo', generation: 2, annotations: { 'deployment.kubernetes.io/revision': '1' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'foo' } },
        strategy: { type: 'Recreate' },
        template: { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'foo', image: 'foo:2' }] } },
        progressDeadlineSeconds: 600,
      },
      status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3, readyReplicas: 3 },
    });
    const oldRS = (specReplicas: number, statusReplicas: number): ReplicaSet => {
      const r = rs('foo-old', specReplicas, { app: 'foo' }, T1);
      r.metadata.annotations = { 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '3' };
      r.spec.template = { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'foo', image: 'foo:1' }] } };
      r.status = { replicas: statusReplicas, availableReplicas: statusReplicas };
      return r;
    };
    const describeActions = (actions: readonly DeploymentAction[]): string[] =>
      actions.map((a) => {
        switch (a.kind) {
          case 'event':
            return `event ${a.reason}: ${a.message}`;
          case 'createReplicaSet':
          case 'updateReplicaSet':
            return `${a.kind} ${a.replicaSet.spec.replicas}`;
          default:
            return a.kind;
        }
      });

    it('first scales the old ReplicaSets to zero, without creating the new one', () => {
      const plan = new Plan(NOW);
      rolloutRecreate(plan, deployment(), [oldRS(3, 3)], new Map());
      assert.deepEqual(describeActions(plan.actions), ['updateReplicaSet 0', 'event ScalingReplicaSet: Scaled down replica set foo-old from 3 to 0', 'updateDeploymentStatus']);
    });

    it('waits while old pods are still running', () => {
      const plan = new Plan(NOW);
      rolloutRecreate(plan, deployment(), [oldRS(0, 0)], new Map([['uid-foo-old', [pod('Running')]]]));
      assert.deepEqual(describeActions(plan.actions), ['updateDeploymentStatus']);
      assert.ok(!plan.actions.some((a) => a.kind === 'createReplicaSet'));
    });

    it('then creates the new ReplicaSet at full size, with revision 2', () => {
      const plan = new Plan(NOW);
      rolloutRecreate(plan, deployment(), [oldRS(0, 0)], new Map([['uid-foo-old', [pod('Succeeded')]]]));
      const created = plan.actions.find((a) => a.kind === 'createReplicaSet');
      assert.ok(created?.kind === 'createReplicaSet');
      const name = created.replicaSet.metadata.name ?? '';
      assert.match(name, /^foo-[4-9bcdf]+$/);
      assert.deepEqual(created.replicaSet.metadata.annotations, {
        'deployment.kubernetes.io/revision': '2',
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '3',
      });
      assert.deepEqual(describeActions(plan.actions), [
        'createReplicaSet 3',
        `event ScalingReplicaSet: Scaled up replica set ${name} from 0 to 3`,
        'updateDeploymentStatus',
        'updateDeploymentStatus',
      ]);
      const firstStatus = plan.actions[2];
      assert.ok(firstStatus?.kind === 'updateDeploymentStatus');
      assert.equal(firstStatus.deployment.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
      assert.deepEqual(firstStatus.deployment.status?.conditions, [
        { type: 'Progressing', status: 'True', lastUpdateTime: '2016-05-20T03:00:00Z', lastTransitionTime: '2016-05-20T03:00:00Z', reason: 'NewReplicaSetCreated', message: `Created new replica set "${name}"` },
      ]);
    });
  });
});
