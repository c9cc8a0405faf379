/**
 * replica_set_test.go, replica_set_utils_test.go and controller_utils_test.go tables: deletion
 * ranking (ActivePodsWithRanks), which pods go first, slow start, expectations, status and the
 * pods a ReplicaSet creates.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../../src/engine/clock';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from '../../../../src/engine/controllers/util/expectations';
import { planReplicas } from '../../../../src/engine/controllers/replicaset/manage';
import { compareForDeletion, getPodsToDelete, type RankedPod } from '../../../../src/engine/controllers/replicaset/pod-ranking';
import { isPodAvailable } from '../../../../src/engine/controllers/util/pod-status';
import { podFromTemplate } from '../../../../src/engine/controllers/replicaset/pod-template';
import { slowStartBatch, slowStartBatchSizes } from '../../../../src/engine/controllers/util/slow-start';
import { calculateStatus, statusNeedsUpdate } from '../../../../src/engine/controllers/replicaset/status';
import type { ContainerStatus, Pod, ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';

const NOW = Date.UTC(2025, 5, 1, 12);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const HOUR = 3600_000;

/** A running container's status with its restart count (the only field the ranking reads). */
const containerStatus = (restartCount: number): ContainerStatus => ({ name: 'c', image: 'i', imageID: '', ready: true, restartCount });

function pod(name: string, node: string, phase: string, ready: boolean, restarts: number, readySince: number | undefined, created: number | undefined, annotations?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(created !== undefined ? { creationTimestamp: iso(created) } : {}), ...(annotations ? { annotations } : {}) },
    spec: { nodeName: node, containers: [] },
    status: {
      phase,
      ...(ready ? { conditions: [{ type: 'Ready', status: 'True' as const, ...(readySince !== undefined ? { lastTransitionTime: iso(readySince) } : {}) }], containerStatuses: [containerStatus(restarts)] } : {}),
    },
  };
}

describe('controllers/replicaset', () => {
  describe('deletion ranking (TestSortingActivePodsWithRanks)', () => {
    const then1Month = NOW - 30 * 24 * HOUR;
    const unscheduled = pod('unscheduled', '', 'Pending', false, 0, undefined, undefined);
    const scheduledPending = pod('pending', 'node', 'Pending', false, 0, undefined, undefined);
    const unknownPhase = pod('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
    const notReady = pod('not-ready', 'node', 'Running', false, 0, undefined, undefined);
    const readyNoLTT = pod('ready-no-last-transition-time', 'node', 'Running', true, 0, undefined, undefined);
    const readyNow = pod('ready-now', 'node', 'Running', true, 0, NOW, NOW);
    const readyThen = pod('ready-then', 'node', 'Running', true, 0, then1Month, then1Month);
    const highRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, NOW, NOW);
    const readyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, NOW, then1Month);
    const lowCost = pod('low-deletion-cost', 'node', 'Running', true, 0, NOW, then1Month, { 'controller.kubernetes.io/pod-deletion-cost': '10' });
    const highCost = pod('high-deletion-cost', 'node', 'Running', true, 0, NOW, then1Month, { 'controller.kubernetes.io/pod-deletion-cost': '100' });
    const unscheduled5h = pod('unscheduled-5-hours', '', 'Pending', false, 0, NOW - 5 * HOUR, NOW - 5 * HOUR);
    const unscheduled8h = pod('unscheduled-10-hours', '', 'Pending', false, 0, NOW - 8 * HOUR, NOW - 8 * HOUR);
    const ready2h = pod('ready-2-hours', '', 'Running', true, 0, NOW - 2 * HOUR, then1Month);
    const ready5h = pod('ready-5-hours', '', 'Running', true, 0, NOW - 5 * HOUR, then1Month);
    const ready8h = pod('ready-10-hours', '', 'Running', true, 0, NOW - 8 * HOUR, then1Month);

    const equal: [Pod, Pod][] = [
      [unscheduled, unscheduled],
      [scheduledPending, scheduledPending],
      [unknownPhase, unknownPhase],
      [notReady, notReady],
      [readyNowCreatedThen, readyNowCreatedThen],
      [readyNow, readyNow],
      [readyThen, readyThen],
      [highRestarts, highRestarts],
      // Within the same power of two of time elapsed, pods rank the same.
      [unscheduled5h, unscheduled8h],
      [ready5h, ready8h],
    ];
    equal.forEach(([a, b], i) => {
      it(`equality ${i}: ${a.metadata.name} ~ ${b.metadata.name}`, () => {
        assert.equal(compareForDeletion({ pod: a, rank: 1 }, { pod: b, rank: 1 }, NOW), 0);
        assert.equal(compareForDeletion({ pod: b, rank: 1 }, { pod: a, rank: 1 }, NOW), 0);
      });
    });

    const inequal: [RankedPod, RankedPod][] = [
      [{ pod: unscheduled, rank: 1 }, { pod: scheduledPending, rank: 2 }],
      [{ pod: unscheduled, rank: 2 }, { pod: scheduledPending, rank: 1 }],
      [{ pod: scheduledPending, rank: 1 }, { pod: unknownPhase, rank: 2 }],
      [{ pod: unknownPhase, rank: 1 }, { pod: notReady, rank: 2 }],
      [{ pod: notReady, rank: 1 }, { pod: readyNoLTT, rank: 1 }],
      [{ pod: readyNoLTT, rank: 1 }, { pod: readyNow, rank: 1 }],
      [{ pod: readyNow, rank: 2 }, { pod: readyNoLTT, rank: 1 }],
      [{ pod: readyNow, rank: 1 }, { pod: readyThen, rank: 1 }],
      [{ pod: readyNow, rank: 2 }, { pod: readyThen, rank: 1 }],
      [{ pod: highRestarts, rank: 1 }, { pod: readyNow, rank: 1 }],
      [{ pod: readyNow, rank: 2 }, { pod: highRestarts, rank: 1 }],
      [{ pod: readyNow, rank: 1 }, { pod: readyNowCreatedThen, rank: 1 }],
      [{ pod: readyNowCreatedThen, rank: 2 }, { pod: readyNow, rank: 1 }],
      [{ pod: lowCost, rank: 2 }, { pod: highCost, rank: 1 }],
      [{ pod: ready2h, rank: 1 }, { pod: ready5h, rank: 1 }],
    ];
    inequal.forEach(([lesser, greater], i) => {
      it(`inequality ${i}: ${lesser.pod.metadata.name} (rank ${lesser.rank}) before ${greater.pod.metadata.name} (rank ${greater.rank})`, () => {
        assert.ok(compareForDeletion(lesser, greater, NOW) < 0);
        assert.ok(compareForDeletion(greater, lesser, NOW) > 0);
      });
    });

    it('sorts by active pod (TestSortingActivePods)', () => {
      const then = NOW - 30 * 24 * HOUR;
      const withRestarts = (p: Pod, restarts: number[]): Pod => ({ ...p, status: { ...p.status, containerStatuses: restarts.map(containerStatus) } });
      const ordered = [
        pod('unscheduled', '', 'Pending', false, 0, undefined, undefined),
        pod('scheduledButPending', 'bar', 'Pending', false, 0, undefined, undefined),
        pod('unknownPhase', 'foo', 'Unknown', false, 0, undefined, undefined),
        pod('runningButNotReady', 'foo', 'Running', false, 0, undefined, undefined),
        withRestarts(pod('runningNoLastTransitionTime', 'foo', 'Running', true, 0, undefined, undefined), [3, 0]),
        withRestarts(pod('runningWithLastTransitionTime', 'foo', 'Running', true, 0, NOW, undefined), [3, 0]),
        withRestarts(pod('runningLongerTime', 'foo', 'Running', true, 0, then, undefined), [3, 0]),
        withRestarts(pod('lowerContainerRestartCount', 'foo', 'Running', true, 0, then, NOW), [2, 1]),
        withRestarts(pod('oldest', 'foo', 'Running', true, 0, then, then), [2, 1]),
      ];
      const shuffled = [ordered[5], ordered[0], ordered[8], ordered[3], ordered[1], ordered[7], ordered[2], ordered[6], ordered[4]] as Pod[];
      assert.deepEqual(
        getPodsToDelete(shuffled, [], ordered.length - 1, NOW).map((p) => p.metadata.name),
        ordered.slice(0, -1).map((p) => p.metadata.name),
      );
    });

    it('deletes first from the nodes running the most related pods', () => {
      const a1 = pod('a1', 'node-a', 'Running', true, 0, NOW - HOUR, NOW - HOUR);
      const b1 = pod('b1', 'node-b', 'Running', true, 0, NOW - HOUR, NOW - HOUR);
      const related = [a1, b1, pod('old-a', 'node-a', 'Running', true, 0, NOW - HOUR, NOW - HOUR), pod('old-a2', 'node-a', 'Running', true, 0, NOW, NOW)];
      assert.deepEqual(getPodsToDelete([b1, a1], related, 1, NOW).map((p) => p.metadata.name), ['a1']);
    });
  });

  describe('manageReplicas decision', () => {
    const rs = (replicas: number): ReplicaSet => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { replicas, selector: {} } });
    const pods = (n: number) => Array.from({ length: n }, (_, i) => pod(`p${i}`, 'n', 'Running', true, 0, NOW - i * HOUR, NOW - i * HOUR));
    it('creates the missing pods, at most burstReplicas', () => {
      assert.deepEqual(planReplicas(rs(5), pods(2), [], NOW), { kind: 'create', count: 3 });
      assert.deepEqual(planReplicas(rs(800), [], [], NOW), { kind: 'create', count: 500 });
    });
    it('deletes the surplus, newest ready first', () => {
      const change = planReplicas(rs(1), pods(3), [], NOW);
      assert.equal(change.kind, 'delete');
      assert.deepEqual(change.kind === 'delete' && change.pods.map((p) => p.metadata.name), ['p0', 'p1']);
    });
    it('does nothing at the right size', () => assert.deepEqual(planReplicas(rs(2), pods(2), [], NOW), { kind: 'none' }));
  });

  describe('slow start (TestSlowStartBatch)', () => {
    it('batches 1, 2, 4, ... up to what remains', () => {
      assert.deepEqual(slowStartBatchSizes(10), [1, 2, 4, 3]);
      assert.deepEqual(slowStartBatchSizes(500), [1, 2, 4, 8, 16, 32, 64, 128, 245]);
      assert.deepEqual(slowStartBatchSizes(0), []);
    });
    const run = async (count: number, fn: () => Promise<void>): Promise<[number, string | undefined]> => {
      const [n, err] = await slowStartBatch(count, fn);
      return [n, err?.message];
    };
    it('callback always succeed', async () => {
      let calls = 0;
      assert.deepEqual(await run(10, async () => void calls++), [10, undefined]);
      assert.equal(calls, 10);
    });
    it('counter limit: the failing batch ends the run', async () => {
      let calls = 0;
      const result = await run(10, async () => {
        if (++calls > 3) throw new Error('fake error');
      });
      assert.deepEqual(result, [3, 'fake error']);
      assert.equal(calls, 7);
    });
    it('callback always fail: one call', async () => {
      let calls = 0;
      const result = await run(10, async () => {
        calls++;
        throw new Error('fake error');
      });
      assert.deepEqual(result, [0, 'fake error']);
      assert.equal(calls, 1);
    });
  });

  describe('expectations', () => {
    it('waits for the creations and deletions it asked for', () => {
      const clock = new Clock();
      const e = new ControllerExpectations(clock);
      assert.equal(e.satisfied('ns/rs'), true, 'a new controller syncs');
      e.expectCreations('ns/rs', 2);
      assert.equal(e.satisfied('ns/rs'), false);
      e.creationObserved('ns/rs');
      assert.equal(e.satisfied('ns/rs'), false);
      e.creationObserved('ns/rs');
      assert.equal(e.satisfied('ns/rs'), true);
      e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
      e.deletionObserved('ns/rs', 'ns/a');
      e.deletionObserved('ns/rs', 'ns/a');
      e.deletionObserved('ns/rs', 'ns/other');
      assert.equal(e.satisfied('ns/rs'), false, 'each pod counts once');
      e.deletionObserved('ns/rs', 'ns/b');
      assert.equal(e.satisfied('ns/rs'), true);
    });
    it('gives up after five minutes of virtual time', async () => {
      const clock = new Clock();
      const e = new ControllerExpectations(clock);
      e.expectCreations('ns/rs', 1);
      await clock.advance(EXPECTATIONS_TIMEOUT_MS);
      assert.equal(e.satisfied('ns/rs'), false);
      await clock.advance(1);
      assert.equal(e.satisfied('ns/rs'), true);
    });
  });

  describe('status (TestCalculateStatus)', () => {
    const labels = { foo: 'bar' };
    const rs = (replicas: number, minReadySeconds = 0): ReplicaSet => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs', generation: 1 },
      spec: { replicas, minReadySeconds, selector: { matchLabels: labels }, template: { metadata: { labels: { ...labels, extra: 'x' } } } },
    });
    const p = (l: Record<string, string>, ready: boolean, since = NOW - HOUR): Pod => ({ ...pod('p', 'n', 'Running', ready, 0, since, since), metadata: { name: 'p', labels: l } });
    const full = { foo: 'bar', extra: 'x' };
    const cases: [string, ReplicaSet, Pod[], Pod[], object][] = [
      ['1 fully labelled pod', rs(1), [p(full, true)], [], { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0 }],
      ['1 not fully labelled pod', rs(1), [p(labels, true)], [], { replicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0 }],
      ['2 fully labelled pods, 1 not ready', rs(2), [p(full, true), p(full, false)], [], { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0 }],
      ['ready but not yet available', rs(1, 3600 * 2), [p(full, true)], [], { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, terminatingReplicas: 0 }],
      ['terminating pods are counted apart', rs(1), [p(full, true)], [p(full, true), p(full, false)], { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 2 }],
    ];
    for (const [name, r, active, terminating, expected] of cases) it(name, () => assert.deepEqual(calculateStatus(r, active, terminating, undefined, NOW), expected));

    it('reports failures in a ReplicaFailure condition and clears it when they stop', () => {
      const r = rs(2);
      const failed = calculateStatus(r, [p(full, true)], [], new Error('pods "rs-" is forbidden: exceeded quota: q'), NOW);
      assert.deepEqual(failed.conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: iso(NOW), message: 'pods "rs-" is forbidden: exceeded quota: q', reason: 'FailedCreate' }]);
      const deleting = calculateStatus(rs(0), [p(full, true)], [], new Error('unable to delete pods: boom'), NOW);
      assert.equal(deleting.conditions?.[0]?.reason, 'FailedDelete');
      const cleared = calculateStatus({ ...r, status: { replicas: 1, ...failed } }, [p(full, true), p(full, true)], [], undefined, NOW);
      assert.equal(cleared.conditions, undefined);
    });

    it('is written when a count or the generation changes', () => {
      const r = { ...rs(1), status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0, observedGeneration: 1 } };
      assert.equal(statusNeedsUpdate(r, calculateStatus(r, [p(full, true)], [], undefined, NOW)), false);
      assert.equal(statusNeedsUpdate(r, calculateStatus(r, [p(full, false)], [], undefined, NOW)), true);
      assert.equal(statusNeedsUpdate({ ...r, metadata: { ...r.metadata, generation: 2 } }, r.status), true);
    });

    it('IsPodAvailable: ready strictly longer than minReadySeconds', () => {
      const readyAt = NOW - 10_000;
      assert.equal(isPodAvailable(p(full, true, readyAt), 10, NOW), false);
      assert.equal(isPodAvailable(p(full, true, readyAt), 9, NOW), true);
      assert.equal(isPodAvailable(p(full, true, readyAt), 0, NOW), true);
      assert.equal(isPodAvailable(p(full, false, readyAt), 0, NOW), false);
    });
  });

  describe('pods from the template (GetPodFromTemplate)', () => {
    it('copies labels, annotations, finalizers and spec, names by generateName and sets the controller reference', () => {
      const r: ReplicaSet = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web-abc', namespace: 'prod', uid: 'u-1' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' }, annotations: { a: 'b' }, finalizers: ['f'] }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      };
      assert.deepEqual(podFromTemplate(r), {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          generateName: 'web-abc-',
          namespace: 'prod',
          labels: { app: 'web' },
          annotations: { a: 'b' },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
          finalizers: ['f'],
        },
        spec: { containers: [{ name: 'c', image: 'i' }] },
      });
    });
  });
});
