/** stateful_set_control_test.go in small: ordered vs parallel creation, scale-down order, partitioned updates. */
import { strict as assert } from 'node:assert';
import { planStatefulSet, type Revisions } from '../../../../src/engine/controllers/statefulset/plan';
import { newStatefulSetPod, ordinalOf } from '../../../../src/engine/controllers/statefulset/identity';
import type { StatefulSet } from '../../../../src/engine/controllers/statefulset/types';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';

const set = (spec: Partial<StatefulSet['spec']>): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default', uid: 'u', generation: 2 },
  spec: { replicas: 3, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } }, ...spec },
});
const revs: Revisions = { current: { name: 'web-old', template: { spec: { containers: [] } } }, update: { name: 'web-new', template: { spec: { containers: [] } } } };
const ready = (s: StatefulSet, ordinal: number, revision = 'web-new'): Pod => {
  const p = newStatefulSetPod(s, s.spec.template, revision, ordinal);
  p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  return p;
};
const plan = (s: StatefulSet, pods: Pod[]) => planStatefulSet(s, new Map(pods.map((p) => [ordinalOf(s, p), p])), revs, 0);
const summary = (s: StatefulSet, pods: Pod[]): string[] => plan(s, pods).actions.map((a) => `${a.kind} ${a.pod.metadata.name}`);

describe('controllers/statefulset plan', () => {
  it('OrderedReady creates one pod and waits; Parallel creates all', () => {
    const s = set({});
    assert.deepEqual(summary(s, []), ['create web-0']);
    const notReady = ready(s, 0);
    notReady.status = { phase: 'Pending' };
    assert.deepEqual(plan(s, [notReady]).waiting, 'waiting for web-0 to be Running and Ready');
    assert.deepEqual(summary(s, [ready(s, 0)]), ['create web-1']);
    assert.deepEqual(summary(set({ podManagementPolicy: 'Parallel' }), []), ['create web-0', 'create web-1', 'create web-2']);
  });

  it('scale down from the highest ordinal, one at a time', () => {
    const s = set({ replicas: 1 });
    assert.deepEqual(summary(s, [ready(s, 0), ready(s, 1), ready(s, 2)]), ['delete web-2']);
  });

  it('a RollingUpdate with a partition replaces only ordinals at or above it, from the top', () => {
    const s = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } });
    const pods = [ready(s, 0, 'web-old'), ready(s, 1, 'web-old'), ready(s, 2, 'web-old')];
    assert.deepEqual(summary(s, pods), ['delete web-2']);
    assert.deepEqual(summary(s, [pods[0]!, pods[1]!, ready(s, 2)]), ['delete web-1']);
    assert.deepEqual(summary(s, [pods[0]!, ready(s, 1), ready(s, 2)]), []);
    const recreated = plan(s, [pods[0]!, pods[1]!]).actions[0]!;
    assert.equal(recreated.pod.metadata.labels?.['controller-revision-hash'], 'web-new', 'above the partition: the update revision');
    const below = plan(s, []).actions[0]!;
    assert.equal(below.pod.metadata.labels?.['controller-revision-hash'], 'web-old', 'below the partition: the current revision');
  });

  it('a failed pod is deleted and created again', () => {
    const s = set({ replicas: 1 });
    const failed = ready(s, 0);
    failed.status = { phase: 'Failed' };
    assert.deepEqual(summary(s, [failed]), ['delete web-0', 'create web-0']);
  });
});
