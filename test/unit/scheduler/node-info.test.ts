import { strict as assert } from 'node:assert';
import { NodeInfo } from '../../../src/engine/scheduler/cache/node-info';
import { PodInfo } from '../../../src/engine/scheduler/cache/pod-info';
import { containers, node, pod } from './helpers';

/** The number fields the filter and the scores read, against the Resources and lists they stand for. */
function assertFields(info: NodeInfo, what: string): void {
  const a = info.allocatable;
  const r = info.requested;
  assert.deepEqual(
    {
      podRoom: info.podRoom,
      freeMilliCPU: info.freeMilliCPU,
      freeMemory: info.freeMemory,
      freeEphemeralStorage: info.freeEphemeralStorage,
      allocatableMilliCPU: info.allocatableMilliCPU,
      allocatableMemory: info.allocatableMemory,
      requestedMilliCPU: info.requestedMilliCPU,
      requestedMemory: info.requestedMemory,
      nonZeroMilliCPU: info.nonZeroMilliCPU,
      nonZeroMemory: info.nonZeroMemory,
      taintCount: info.taintCount,
      blockingTaintCount: info.blockingTaintCount,
      imageCount: info.imageCount,
    },
    {
      podRoom: a.allowedPodNumber - info.pods.length,
      freeMilliCPU: a.milliCPU - r.milliCPU,
      freeMemory: a.memory - r.memory,
      freeEphemeralStorage: a.ephemeralStorage - r.ephemeralStorage,
      allocatableMilliCPU: a.milliCPU,
      allocatableMemory: a.memory,
      requestedMilliCPU: r.milliCPU,
      requestedMemory: r.memory,
      nonZeroMilliCPU: info.nonZeroRequested.milliCPU,
      nonZeroMemory: info.nonZeroRequested.memory,
      taintCount: info.taints.length,
      blockingTaintCount: info.blockingTaints.length,
      imageCount: info.imageStates.size,
    },
    what,
  );
}

describe('NodeInfo: the number fields follow the node and its pods', () => {
  it('through setNode, addPod, removePod, copyFrom, clone and removeNode', () => {
    const info = new NodeInfo();
    assertFields(info, 'empty');
    info.setNode(
      node('n1', {
        allocatable: { cpu: '4', memory: '32Gi', pods: '3', 'ephemeral-storage': '10Gi' },
        taints: [
          { key: 'a', effect: 'PreferNoSchedule' },
          { key: 'b', effect: 'NoSchedule' },
        ],
      }),
    );
    assertFields(info, 'after setNode');
    assert.equal(info.freeMemory, 32 * 2 ** 30);
    assert.equal(info.podRoom, 3);
    assert.equal(info.blockingTaintCount, 1);
    const big = new PodInfo(pod({ nodeName: 'n1', spec: { containers: containers({ cpu: '1500m', memory: '3Gi', 'ephemeral-storage': '1Gi' }) } }));
    const none = new PodInfo(pod({ nodeName: 'n1', spec: { containers: containers({}) } }));
    info.addPod(big);
    assertFields(info, 'after adding a pod with requests');
    assert.equal(info.freeMilliCPU, 2500);
    info.addPod(none);
    assertFields(info, 'after adding a pod without requests');
    assert.equal(info.nonZeroMilliCPU, 1600);
    const copy = new NodeInfo();
    copy.copyFrom(info);
    assertFields(copy, 'the snapshot copy');
    const clone = info.clone();
    clone.removePod(big.uid);
    assertFields(clone, 'a clone after removing a pod');
    assertFields(info, 'the original after its clone changed');
    assert.equal(info.freeMilliCPU, 2500);
    info.removePod(none.uid);
    info.setNode(node('n1', { allocatable: { cpu: '8', memory: '1Gi', pods: '110' } }));
    assertFields(info, 'after the node grew cpu and lost memory and its taints');
    assert.equal(info.freeMemory, 2 ** 30 - 3 * 2 ** 30);
    info.imageStates = new Map([['img', { size: 1, nodes: new Set(['n1']) }]]);
    assertFields(info, 'after its images were set');
    info.removeNode();
    assertFields(info, 'after removeNode (pods still accounted)');
  });
});
