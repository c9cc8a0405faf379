/**
 * Job pod failure and success policies (pod_failure_policy.go, success_policy.go): the rule
 * matching, and Jobs against the API server failing on a FailJob rule, not counting Ignored
 * failures, and completing early on a success policy.
 */
import { strict as assert } from 'node:assert';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/job/controller';
import { JOBS, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { Job, Pod, PodFailurePolicy } from '../../../../src/engine/controllers/util/types/job';
import { matchPodFailurePolicy, matchSuccessPolicy } from '../../../../src/engine/controllers/job/policies';
import { parseIntervals } from '../../../../src/engine/controllers/job/indexed';

const failed = (exitCode: number, conditions: { type: string; status: string }[] = []): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  status: { phase: 'Failed', conditions, containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }] },
});

describe('controllers/job policies', function () {
  this.timeout(30_000);

  it('matches the first rule a failed pod meets, as matchPodFailurePolicy', () => {
    const policy: PodFailurePolicy = {
      rules: [
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [1, 42] } },
        { action: 'Count', onExitCodes: { operator: 'NotIn', values: [2] } },
      ],
    };
    assert.deepEqual(matchPodFailurePolicy(policy, failed(42)), { count: true, action: 'FailJob', failJobMessage: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 1' });
    assert.deepEqual(matchPodFailurePolicy(policy, failed(42, [{ type: 'DisruptionTarget', status: 'True' }])), { count: false, action: 'Ignore' });
    assert.deepEqual(matchPodFailurePolicy(policy, failed(3)), { count: true, action: 'Count' });
    assert.deepEqual(matchPodFailurePolicy(policy, failed(2)), { count: true });
    assert.deepEqual(matchPodFailurePolicy(undefined, failed(1)), { count: true });
    const byCondition: PodFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }] };
    assert.equal(matchPodFailurePolicy(byCondition, failed(1, [{ type: 'ConfigIssue', status: 'True' }])).failJobMessage, 'Pod ns/p has condition ConfigIssue matching FailJob rule at index 0');
  });

  it('matches success policy rules on the succeeded indexes, as matchSuccessPolicy', () => {
    const succeeded = parseIntervals('0-2,5', 10);
    assert.equal(matchSuccessPolicy({ rules: [{ succeededIndexes: '3-4' }, { succeededIndexes: '0-2' }] }, 10, succeeded), 'Matched rules at index 1');
    assert.equal(matchSuccessPolicy({ rules: [{ succeededIndexes: '0-9', succeededCount: 4 }] }, 10, succeeded), 'Matched rules at index 0');
    assert.equal(matchSuccessPolicy({ rules: [{ succeededCount: 5 }] }, 10, succeeded), undefined);
    assert.equal(matchSuccessPolicy({ rules: [{ succeededCount: 4 }] }, 10, succeeded), 'Matched rules at index 0');
    assert.equal(matchSuccessPolicy({ rules: [{ succeededIndexes: '0' }] }, 10, []), undefined);
  });

  async function start(): Promise<ControllerHarness> {
    const h = await controllerHarness();
    await h.admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    h.start(new JobController(h.deps(JOB_CONTROLLER_ACCOUNT)));
    return h;
  }
  const end = async (h: ControllerHarness, pod: Pod, phase: 'Succeeded' | 'Failed', exitCode: number) => {
    const pods = h.admin.resource<Pod>(PODS, 'default');
    const cur = deepCopy(await pods.get(pod.metadata.name ?? ''));
    cur.status = { ...cur.status, phase, containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, finishedAt: h.clock.rfc3339() } } }] };
    await pods.updateStatus(cur);
    await h.clock.settle();
  };
  const live = async (h: ControllerHarness) => ((await h.admin.resource<Pod>(PODS, 'default').list()).items as Pod[]).filter((p) => !p.status?.phase || p.status.phase === 'Pending');
  const jobOf = (name: string, spec: object): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });

  it('fails the Job on a FailJob rule: FailureTarget, then Failed, reason PodFailurePolicy', async () => {
    const h = await start();
    await h.admin.resource(JOBS, 'default').create(jobOf('fj', { backoffLimit: 6, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } }));
    await h.clock.settle();
    const [pod] = await live(h);
    await end(h, pod!, 'Failed', 42);
    const job = await h.admin.resource<Job>(JOBS, 'default').get('fj');
    const message = `Container c for pod default/${pod!.metadata.name} failed with exit code 42 matching FailJob rule at index 0`;
    assert.deepEqual(job.status?.conditions?.map((c) => [c.type, c.reason, c.message]), [
      ['FailureTarget', 'PodFailurePolicy', message],
      ['Failed', 'PodFailurePolicy', message],
    ]);
    assert.equal(job.status?.failed, 1);
    await h.close();
  });

  it('does not count failures an Ignore rule matches against backoffLimit', async () => {
    const h = await start();
    await h.admin.resource(JOBS, 'default').create(jobOf('ig', { backoffLimit: 0, podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [3] } }] } }));
    await h.clock.settle();
    const [pod] = await live(h);
    await end(h, pod!, 'Failed', 3);
    const job = await h.admin.resource<Job>(JOBS, 'default').get('ig');
    assert.equal(job.status?.failed, undefined);
    assert.deepEqual(job.status?.conditions ?? [], []);
    assert.equal((await live(h)).length, 1, 'a replacement pod runs');
    await h.close();
  });

  it('completes an Indexed Job early on a success policy: SuccessCriteriaMet, then Complete, reason SuccessPolicy', async () => {
    const h = await start();
    await h.admin.resource(JOBS, 'default').create(jobOf('sp', { completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] } }));
    await h.clock.settle();
    const pods = await live(h);
    const leader = pods.find((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] === '0')!;
    await end(h, leader, 'Succeeded', 0);
    await h.clock.settle({ maxDuration: 60_000 });
    const job = await h.admin.resource<Job>(JOBS, 'default').get('sp');
    assert.deepEqual(job.status?.conditions?.map((c) => [c.type, c.reason, c.message]), [
      ['SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'],
      ['Complete', 'SuccessPolicy', 'Matched rules at index 0'],
    ]);
    assert.equal(job.status?.completedIndexes, '0');
    await h.close();
  });
});
