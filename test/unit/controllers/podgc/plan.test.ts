/** gc_controller_test.go's tables over the pod garbage collector's decisions. */
import { strict as assert } from 'node:assert';
import {
  failedStatusPatch,
  NODE_GONE_CONDITION,
  OrphanQuarantine,
  terminatedPodsToDelete,
  terminatingOnOutOfServiceNodes,
  unscheduledTerminating,
} from '../../../../src/engine/controllers/podgc/plan';
import type { Node, Pod } from '../../../../src/engine/api/generated/core-v1';

const hour = (h: number): string => new Date(Date.UTC(1970, 0, 1, h)).toISOString().replace('.000Z', 'Z');

/** Pods created an hour apart, in the order given, as upstream's tests make them. */
function pods(specs: { name: string; phase: string; nodeName?: string; deleting?: boolean; reason?: string }[]): Pod[] {
  return specs.map((s, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: s.name, namespace: 'default', uid: `uid-${s.name}`, creationTimestamp: hour(i + 1), ...(s.deleting ? { deletionTimestamp: hour(0) } : {}) },
    spec: { nodeName: s.nodeName ?? 'node', containers: [] },
    status: { phase: s.phase, ...(s.reason ? { reason: s.reason } : {}) },
  }));
}

const names = (list: readonly Pod[]): string[] => list.map((p) => p.metadata.name ?? '').sort();

describe('controllers/podgc plan', () => {
  it('TestGCTerminated: the oldest finished pods beyond the threshold; 0 disables', () => {
    const cases: [Parameters<typeof pods>[0], number, string[]][] = [
      [[{ name: 'a', phase: 'Failed' }, { name: 'b', phase: 'Succeeded' }], 0, []],
      [[{ name: 'a', phase: 'Failed' }, { name: 'b', phase: 'Succeeded' }, { name: 'c', phase: 'Failed' }], 1, ['a', 'b']],
      [[{ name: 'a', phase: 'Running' }, { name: 'b', phase: 'Succeeded' }, { name: 'c', phase: 'Failed' }], 1, ['b']],
      [[{ name: 'a', phase: 'Failed' }, { name: 'b', phase: 'Succeeded' }], 1, ['a']],
      [[{ name: 'a', phase: 'Failed' }, { name: 'b', phase: 'Succeeded' }], 5, []],
      // Evicted pods go first, whatever their age.
      [[{ name: 'a', phase: 'Failed' }, { name: 'b', phase: 'Succeeded' }, { name: 'c', phase: 'Failed', reason: 'Evicted' }], 2, ['c']],
    ];
    for (const [specs, threshold, deleted] of cases) assert.deepEqual(names(terminatedPodsToDelete(pods(specs), threshold)), deleted, JSON.stringify({ specs, threshold }));
  });

  it('TestGCUnscheduledTerminating: terminating pods never bound to a node, in any phase', () => {
    const unscheduled = pods([
      { name: 'a', phase: 'Failed', deleting: true, nodeName: '' },
      { name: 'b', phase: 'Succeeded', deleting: true, nodeName: '' },
      { name: 'c', phase: 'Running', deleting: true, nodeName: '' },
    ]);
    assert.deepEqual(names(unscheduledTerminating(unscheduled)), ['a', 'b', 'c']);
    const scheduled = pods([
      { name: 'a', phase: 'Failed', nodeName: '' },
      { name: 'b', phase: 'Succeeded', nodeName: 'node' },
      { name: 'c', phase: 'Running', deleting: true, nodeName: 'node' },
    ]);
    assert.deepEqual(names(unscheduledTerminating(scheduled)), []);
  });

  it('TestGCTerminating: terminating pods on nodes that are not ready and tainted out-of-service', () => {
    const node = (name: string, ready: boolean, outOfService: boolean): [string, Node] => [
      name,
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name },
        spec: { taints: outOfService ? [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] : [] },
        status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
      },
    ];
    const nodes = new Map([node('worker-0', false, true), node('worker-1', true, true), node('worker-2', false, false)]);
    const list = pods([
      { name: 'a', phase: 'Running', nodeName: 'worker-0', deleting: true },
      { name: 'b', phase: 'Running', nodeName: 'worker-0' },
      { name: 'c', phase: 'Running', nodeName: 'worker-1', deleting: true },
      { name: 'd', phase: 'Running', nodeName: 'worker-2', deleting: true },
      { name: 'e', phase: 'Running', nodeName: 'gone', deleting: true },
    ]);
    assert.deepEqual(names(terminatingOnOutOfServiceNodes(list, nodes)), ['a']);
  });

  it('TestGCOrphaned: pods on a missing node are handed over once it has been missing for 40 s', () => {
    const q = new OrphanQuarantine();
    const list = pods([{ name: 'a', phase: 'Failed', nodeName: 'node' }, { name: 'b', phase: 'Running', nodeName: 'node' }, { name: 'c', phase: 'Running', nodeName: 'other' }]);
    const existing = new Set(['other']);
    q.observe(list, existing, 0);
    assert.deepEqual(q.due(existing, 20_000), []);
    q.observe(list, existing, 20_000);
    assert.deepEqual(q.due(existing, 39_999), []);
    assert.deepEqual(q.due(existing, 40_000), ['node']);
    assert.deepEqual(q.due(existing, 60_000), [], 'handed over once; a later pass quarantines it again');
    q.observe(list, existing, 60_000);
    assert.deepEqual(q.due(new Set(['node', 'other']), 100_000), [], 'the node showed up meanwhile');
  });

  it('markFailedAndDeletePod: a running orphan is marked Failed with DisruptionTarget; a finished pod is left as it is', () => {
    const [running, done] = pods([{ name: 'a', phase: 'Running' }, { name: 'b', phase: 'Succeeded' }]);
    assert.deepEqual(failedStatusPatch(running!, NODE_GONE_CONDITION, '2025-01-01T00:00:00Z'), {
      metadata: { uid: 'uid-a' },
      status: {
        phase: 'Failed',
        conditions: [{ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }],
      },
    });
    assert.deepEqual(failedStatusPatch(running!, undefined, '2025-01-01T00:00:00Z'), { metadata: { uid: 'uid-a' }, status: { phase: 'Failed' } });
    assert.equal(failedStatusPatch(done!, NODE_GONE_CONDITION, '2025-01-01T00:00:00Z'), undefined);
  });
});
