import { strict as assert } from 'node:assert';
import { defaulted } from './defaulted';

// Tables after pkg/apis/batch/v1/defaults_test.go (release-1.35): TestSetDefaultJob,
// TestSetDefaultCronJob.
const labels = { default: 'default' };
const job = (spec: object, metadata: object = { name: 'j' }) =>
  defaulted({ apiVersion: 'batch/v1', kind: 'Job', metadata, spec: { template: { metadata: { labels } }, ...spec } });
const jobSpec = (spec: object) => job(spec).spec as Record<string, unknown>;

function pick(spec: Record<string, unknown>): Record<string, unknown> {
  const { completions, parallelism, backoffLimit, completionMode, suspend, podReplacementPolicy, manualSelector } = spec;
  return { completions, parallelism, backoffLimit, completionMode, suspend, podReplacementPolicy, manualSelector };
}

const defaults = {
  completions: 1,
  parallelism: 1,
  backoffLimit: 6,
  completionMode: 'NonIndexed',
  suspend: false,
  podReplacementPolicy: 'TerminatingOrFailed',
  manualSelector: false,
};

describe('defaults: batch/v1 Job', () => {
  const table: [string, object, object][] = [
    ['All unspecified -> sets all to default values', {}, defaults],
    ['suspend set, everything else is defaulted', { suspend: true }, { ...defaults, suspend: true }],
    ['WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted', { parallelism: 0 }, { ...defaults, completions: undefined, parallelism: 0 }],
    ['WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted', { parallelism: 2 }, { ...defaults, completions: undefined, parallelism: 2 }],
    ['Completions explicitly 2 and others unset -> parallelism and BackoffLimit are defaulted', { completions: 2 }, { ...defaults, completions: 2 }],
    ['BackoffLimit explicitly 5 and others unset -> parallelism and completions are defaulted', { backoffLimit: 5 }, { ...defaults, backoffLimit: 5 }],
    [
      'All set -> no change',
      { completions: 11, parallelism: 10, backoffLimit: 9, completionMode: 'Indexed', suspend: true, podReplacementPolicy: 'Failed', manualSelector: true },
      { completions: 11, parallelism: 10, backoffLimit: 9, completionMode: 'Indexed', suspend: true, podReplacementPolicy: 'Failed', manualSelector: true },
    ],
    ['BackoffLimitPerIndex specified, but BackoffLimit not -> BackoffLimit is MaxInt32', { backoffLimitPerIndex: 2, completionMode: 'Indexed' }, { ...defaults, completionMode: 'Indexed', backoffLimit: 2147483647 }],
    ['BackoffLimitPerIndex and BackoffLimit specified', { backoffLimitPerIndex: 2, backoffLimit: 3 }, { ...defaults, backoffLimit: 3 }],
    ['Pod failure policy -> pods are replaced once Failed', { podFailurePolicy: { rules: [] } }, { ...defaults, podReplacementPolicy: 'Failed' }],
  ];
  for (const [name, spec, want] of table) {
    it(name, () => assert.deepEqual(pick(jsonRoundTrip(jobSpec(spec))), want));
  }

  it('Pod failure policy: an onPodConditions pattern without status matches True', () => {
    const spec = jobSpec({
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }, { type: 'ConfigIssue', status: 'False' }] }],
      },
    });
    assert.deepEqual(spec.podFailurePolicy, {
      rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }, { type: 'ConfigIssue', status: 'False' }] }],
    });
  });

  it('the Job takes its template labels when it has none of its own', () => {
    assert.deepEqual(job({}).metadata.labels, labels);
    assert.deepEqual(job({}, { name: 'j', labels: { mylabel: 'myvalue' } }).metadata.labels, { mylabel: 'myvalue' });
  });

  it('the pod template gets PodSpec defaults', () => {
    const spec = jobSpec({ template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl:5.34.0' }] } } });
    const podSpec = (spec.template as { spec: Record<string, unknown> }).spec;
    assert.equal(podSpec.restartPolicy, 'Never');
    assert.equal(podSpec.dnsPolicy, 'ClusterFirst');
  });
});

describe('defaults: batch/v1 CronJob', () => {
  const cronSpec = (spec: object) => defaulted({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec }).spec as Record<string, unknown>;

  it('empty CronJob should default ConcurrencyPolicy, Suspend and history limits', () => {
    const spec = cronSpec({});
    assert.deepEqual(
      { concurrencyPolicy: spec.concurrencyPolicy, suspend: spec.suspend, successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit, failedJobsHistoryLimit: spec.failedJobsHistoryLimit },
      { concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 },
    );
  });

  it('set fields should not be defaulted', () => {
    const spec = cronSpec({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 5 });
    assert.deepEqual(
      { concurrencyPolicy: spec.concurrencyPolicy, suspend: spec.suspend, successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit, failedJobsHistoryLimit: spec.failedJobsHistoryLimit },
      { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 5 },
    );
  });

  it('the job template gets no Job defaults, only PodSpec defaults', () => {
    const spec = cronSpec({ schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox:1.28' }] } } } } });
    const jobTemplateSpec = (spec.jobTemplate as { spec: Record<string, unknown> }).spec;
    assert.deepEqual(Object.keys(jobTemplateSpec), ['template']);
    const podSpec = (jobTemplateSpec.template as { spec: Record<string, unknown> }).spec;
    assert.equal(podSpec.schedulerName, 'default-scheduler');
  });
});

/** Drops undefined members, as the wire form would. */
function jsonRoundTrip<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
