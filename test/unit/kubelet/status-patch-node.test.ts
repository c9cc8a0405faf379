import { strict as assert } from 'node:assert';
import { NODE_STATUS_MERGE_KEYS, POD_STATUS_MERGE_KEYS, twoWayPatch } from '../../../src/engine/kubelet/status-patch';
import { computeNodeStatus, initialNode, nodeAllocatable, nodeCapacity, nodeLabels, nodeStatusChanged } from '../../../src/engine/kubelet/node-status';
import type { NodeConfig } from '../../../src/engine/kubelet/config';
import type { JsonObject } from '../../../src/engine/api/types';

describe('kubelet/status-patch', () => {
  it('patches what changed: nulls for removed fields, merged lists per key with $setElementOrder, other lists whole', () => {
    const before: JsonObject = {
      phase: 'Pending',
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [nginx]' },
      ],
      containerStatuses: [{ name: 'nginx', state: { waiting: { reason: 'ContainerCreating' } } }],
      message: 'gone soon',
    };
    const after: JsonObject = {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
      podIPs: [{ ip: '10.244.1.2' }],
      containerStatuses: [{ name: 'nginx', state: { running: { startedAt: 'now' } } }],
    };
    assert.deepEqual(twoWayPatch(before, after, POD_STATUS_MERGE_KEYS), {
      phase: 'Running',
      '$setElementOrder/conditions': [{ type: 'Initialized' }, { type: 'Ready' }],
      conditions: [{ type: 'Ready', status: 'True', reason: null, message: null }],
      podIPs: [{ ip: '10.244.1.2' }],
      containerStatuses: [{ name: 'nginx', state: { running: { startedAt: 'now' } } }],
      message: null,
    });
    assert.equal(twoWayPatch(after, after, POD_STATUS_MERGE_KEYS), undefined);
    assert.deepEqual(twoWayPatch({ addresses: [{ type: 'InternalIP', address: 'a' }, { type: 'Hostname', address: 'n' }] }, { addresses: [{ type: 'Hostname', address: 'n' }] }, NODE_STATUS_MERGE_KEYS), {
      '$setElementOrder/addresses': [{ type: 'Hostname' }],
      addresses: [{ type: 'InternalIP', $patch: 'delete' }],
    });
  });
});

const config: NodeConfig = { name: 'node-1', internalIP: '172.18.0.2', podCIDR: '10.244.1.0/24', zone: 'a', region: 'r', instanceType: 'm5.xlarge', taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] };

describe('kubelet/node-status', () => {
  it('labels the node as the kubelet and the cloud provider do', () => {
    assert.deepEqual(nodeLabels({ ...config, labels: { 'node-role.kubernetes.io/control-plane': '' } }), {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/control-plane': '',
      'node.kubernetes.io/instance-type': 'm5.xlarge',
      'topology.kubernetes.io/region': 'r',
      'topology.kubernetes.io/zone': 'a',
    });
  });

  it('keeps the hard eviction thresholds out of allocatable', () => {
    assert.deepEqual(nodeCapacity(config), { cpu: '4', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16Gi', pods: '110' });
    assert.deepEqual(nodeAllocatable(config), { cpu: '4', 'ephemeral-storage': '96636764k', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16284Mi', pods: '110' });
    // A real node: 51290092Ki of disk leaves 47268948709 bytes allocatable (the float32 10%).
    assert.deepEqual(nodeAllocatable({ ...config, cpu: 8, memory: '32Gi', ephemeralStorage: '51290092Ki', pods: 250 }), {
      cpu: '8', 'ephemeral-storage': '47268948709', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '32668Mi', pods: '250',
    });
  });

  it('reports the healthy conditions with their reasons and messages, and the events of their transitions', () => {
    const first = computeNodeStatus(config, [], [], 'T0');
    assert.deepEqual(first.events, ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
    assert.deepEqual(first.status.conditions, [
      { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: 'T0', lastTransitionTime: 'T0', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
      { type: 'DiskPressure', status: 'False', lastHeartbeatTime: 'T0', lastTransitionTime: 'T0', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
      { type: 'PIDPressure', status: 'False', lastHeartbeatTime: 'T0', lastTransitionTime: 'T0', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
      { type: 'Ready', status: 'True', lastHeartbeatTime: 'T0', lastTransitionTime: 'T0', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    ]);
    const again = computeNodeStatus(config, first.status.conditions as never, [], 'T1');
    assert.deepEqual(again.events, []);
    assert.equal(nodeStatusChanged(first.status, again.status), false, 'heartbeats alone are no change');
    const unknown = (first.status.conditions as JsonObject[]).map((c) => ({ ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }));
    const back = computeNodeStatus(config, unknown as never, [], 'T2');
    assert.deepEqual(back.events, ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
    assert.equal((back.status.conditions as JsonObject[])[3]!.lastTransitionTime, 'T2');
    assert.equal(nodeStatusChanged(first.status, { ...again.status, images: [{ names: ['x'], sizeBytes: 1 }] }), true);
  });

  it('registers a Node with its spec, labels, attach-detach annotation and full status', () => {
    const status = computeNodeStatus(config, [], [], 'T0').status;
    const node = initialNode(config, status);
    assert.deepEqual(node.spec, { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] });
    assert.deepEqual(node.metadata.annotations, { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' });
    assert.deepEqual(Object.keys(status), ['capacity', 'allocatable', 'conditions', 'addresses', 'daemonEndpoints', 'nodeInfo', 'images', 'runtimeHandlers', 'features']);
    assert.deepEqual(status.addresses, [{ type: 'InternalIP', address: '172.18.0.2' }, { type: 'Hostname', address: 'node-1' }]);
    assert.deepEqual(status.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
    const info = status.nodeInfo as JsonObject;
    assert.equal(info.kubeletVersion, 'v1.35.0');
    assert.equal(info.containerRuntimeVersion, 'containerd://2.1.4');
    assert.equal(info.operatingSystem, 'linux');
    assert.equal(info.architecture, 'amd64');
    assert.match(String(info.machineID), /^[0-9a-f]{32}$/);
    assert.match(String(info.bootID), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
