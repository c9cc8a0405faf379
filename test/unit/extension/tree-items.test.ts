import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { podPrinter } from '../../../src/engine/printers/core/pod';
import { groupItem, memoryGi, nodeIcon, objectItem, podIcon } from '../../../src/extension/tree/items';
import { detailsTarget } from '../../../src/extension/tree/targets';
import type { ViewKind, ViewObject } from '../../../src/extension/view-types';

function view(kind: ViewKind, object: Partial<KubeObject>, row: ViewObject['row']): ViewObject {
  const o = { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', namespace: 'default' }, ...object } as KubeObject;
  return { kind, key: o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!, object: o, row };
}

describe('Cluster tree items', () => {
  it('colours pods by kubectl STATUS and READY: green ready, yellow on the way, red broken', () => {
    const cases: [string, string, string][] = [
      ['Running', '1/1', 'pass-filled@testing.iconPassed'],
      ['Running', '0/1', 'circle-large-outline@list.warningForeground'],
      ['Pending', '0/1', 'clock@list.warningForeground'],
      ['ContainerCreating', '0/1', 'sync~spin@list.warningForeground'],
      ['Init:0/2', '0/1', 'sync~spin@list.warningForeground'],
      ['CrashLoopBackOff', '0/1', 'error@errorForeground'],
      ['Init:CrashLoopBackOff', '0/1', 'error@errorForeground'],
      ['ImagePullBackOff', '0/1', 'error@errorForeground'],
      ['ErrImagePull', '0/1', 'error@errorForeground'],
      ['OOMKilled', '0/1', 'error@errorForeground'],
      ['Error', '0/1', 'error@errorForeground'],
      ['Evicted', '0/1', 'error@errorForeground'],
      ['Completed', '0/1', 'check@descriptionForeground'],
      ['Terminating', '1/1', 'trash@list.warningForeground'],
    ];
    for (const [status, ready, icon] of cases) {
      const i = podIcon({ status, ready });
      assert.equal(`${i.id}@${i.color}`, icon, `${status} ${ready}`);
    }
  });

  it('describes a pod with the cells kubectl get pods prints, from the API server printer', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-7d9c-abcde', namespace: 'shop', creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { nodeName: 'kubesim-worker', containers: [{ name: 'nginx' }] },
      status: { phase: 'Running', podIP: '10.244.1.2', podIPs: [{ ip: '10.244.1.2' }], containerStatuses: [{ name: 'nginx', ready: true, restartCount: 2, state: { running: {} } }] },
    } as unknown as KubeObject;
    const cells = podPrinter.cells(pod, { now: Date.parse('2025-01-01T00:10:00Z') });
    const row = Object.fromEntries(podPrinter.columns.map((c, i) => [c.name.toLowerCase(), cells[i] ?? null]));
    const item = objectItem({ kind: 'pods', key: 'shop/web-7d9c-abcde', object: pod, row });
    assert.equal(item.label, 'web-7d9c-abcde');
    assert.equal(item.description, '1/1 · Running · 2 restarts · kubesim-worker · shop');
    assert.deepEqual(item.icon, { id: 'pass-filled', color: 'testing.iconPassed' });
    assert.equal(item.contextValue, 'pod');
    assert.match(item.tooltip!, /^Pod shop\/web-7d9c-abcde\nREADY: 1\/1\nSTATUS: Running\nRESTARTS: 2\nAGE: 10m\nIP: 10\.244\.1\.2\nNODE: kubesim-worker\n/);
    assert.equal(objectItem({ kind: 'pods', key: 'shop/web-7d9c-abcde', object: pod, row }, { underNode: true }).description, '1/1 · Running · 2 restarts · shop', 'under its node, a pod does not repeat the node');
  });

  it('shows a node with its status and requested of allocatable cpu, memory and pods; the context menu knows cordoned and stopped', () => {
    const node = view('nodes', { metadata: { name: 'kubesim-worker' }, spec: { unschedulable: true }, status: { allocatable: { cpu: '4', memory: '16677216Ki', pods: '110' } } }, { status: 'Ready,SchedulingDisabled' });
    const item = objectItem(node, { podCount: 3, requested: { milliCPU: 300, memory: 384 * 1024 ** 2 }, hasChildren: true });
    assert.equal(item.description, 'Ready,SchedulingDisabled · cpu 300m/4 · memory 384Mi/15.9Gi · pods 3/110');
    assert.match(item.tooltip!, /\nRequested \/ allocatable: cpu 300m\/4, memory 384Mi\/15\.9Gi, pods 3\/110$/);
    assert.equal(objectItem(node, { podCount: 1, requested: { milliCPU: 2000, memory: 3 * 1024 ** 3 } }).description, 'Ready,SchedulingDisabled · cpu 2/4 · memory 3Gi/15.9Gi · pods 1/110');
    assert.equal(item.contextValue, 'node:cordoned');
    assert.deepEqual(item.icon, { id: 'server', color: 'list.warningForeground' });
    assert.equal(item.collapsible, 'collapsed');
    const stopped = objectItem(view('nodes', { metadata: { name: 'n' }, status: {} }, { status: 'Ready' }), { stopped: true });
    assert.equal(stopped.contextValue, 'node:stopped');
    assert.equal(stopped.description, 'Ready (kubelet stopped) · cpu 0/? · memory 0/? · pods 0/?');
    assert.deepEqual(nodeIcon({ status: 'NotReady' }, false), { id: 'server', color: 'errorForeground' });
    assert.deepEqual(nodeIcon({ status: 'Ready' }, false), { id: 'server', color: 'testing.iconPassed' });
  });

  it('describes workloads, services, slices and events in kubectl terms', () => {
    assert.deepEqual(objectItem(view('deployments', {}, { ready: '2/3', 'up-to-date': 3, available: 2 })), {
      label: 'x',
      description: '2/3 ready · 3 up-to-date · 2 available',
      icon: { id: 'rocket', color: 'list.warningForeground' },
      contextValue: 'deployment',
      collapsible: 'none',
      tooltip: 'Deployment default/x\nREADY: 2/3\nUP-TO-DATE: 3\nAVAILABLE: 2',
    });
    assert.deepEqual(objectItem(view('deployments', {}, { ready: '3/3', 'up-to-date': 3, available: 3 })).icon.color, 'testing.iconPassed');
    assert.equal(objectItem(view('replicasets', {}, { desired: 3, current: 3, ready: 1 })).description, '3 desired · 3 current · 1 ready');
    assert.equal(objectItem(view('replicasets', {}, { desired: 0, current: 0, ready: 0 })).icon.color, 'descriptionForeground');
    assert.equal(objectItem(view('services', {}, { type: 'ClusterIP', 'cluster-ip': '10.96.0.10', 'port(s)': '80/TCP' })).description, 'ClusterIP 10.96.0.10 · 80/TCP');
    assert.equal(objectItem(view('endpointslices', {}, { addresstype: 'IPv4', ports: '80', endpoints: '<unset>' })).icon.color, 'list.warningForeground');
    const event = objectItem(view('events', {}, { 'last seen': '5s', type: 'Warning', reason: 'BackOff', object: 'pod/web-1', message: 'Back-off restarting failed container' }));
    assert.equal(event.label, '5s ago · BackOff pod/web-1', 'an event says how old it is first, as kubectl get events does');
    assert.equal(event.description, 'Back-off restarting failed container');
    assert.deepEqual(event.icon, { id: 'warning', color: 'list.warningForeground' });
    assert.equal(event.tooltip, 'Warning BackOff pod/web-1 (5s ago)\nBack-off restarting failed container');
  });

  it('labels the groups with their counts', () => {
    assert.deepEqual(groupItem('pods', 3), { label: 'Pods', description: '3', icon: { id: 'symbol-event' }, contextValue: 'group:pods', collapsible: 'expanded' });
    assert.equal(groupItem('events', 50).collapsible, 'collapsed');
  });

  it('writes memory in Gi', () => {
    assert.equal(memoryGi('16Gi'), '16Gi');
    assert.equal(memoryGi('16677216Ki'), '15.9Gi');
    assert.equal(memoryGi('8192Mi'), '8Gi');
    assert.equal(memoryGi('abc'), 'abc');
  });
});

describe('Cluster tree clicks', () => {
  const v = (kind: ViewObject['kind'], object: Record<string, unknown>): ViewObject => ({ kind, key: 'k', object: object as unknown as KubeObject, row: {} });
  it('open the object\u2019s details in the panel; an Event\u2019s, the object it is about; a Namespace, nothing there', () => {
    assert.deepEqual(detailsTarget(v('pods', { metadata: { name: 'web-1', namespace: 'shop' } })), { kind: 'Pod', name: 'web-1', namespace: 'shop' });
    assert.deepEqual(detailsTarget(v('nodes', { metadata: { name: 'kubesim-worker' } })), { kind: 'Node', name: 'kubesim-worker' });
    assert.deepEqual(detailsTarget(v('events', { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Deployment', namespace: 'default', name: 'web' } })), { kind: 'Deployment', name: 'web', namespace: 'default' });
    assert.equal(detailsTarget(v('events', { metadata: { name: 'e' }, involvedObject: { kind: 'Namespace', name: 'default' } })), undefined);
    assert.equal(detailsTarget(v('namespaces', { metadata: { name: 'default' } })), undefined);
  });
  it('shows an HPA with the TARGETS and REPLICAS, what limits it, and its conditions in the tooltip', () => {
    const status = {
      currentReplicas: 4,
      desiredReplicas: 4,
      conditions: [
        { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' },
        { type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' },
        { type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' },
      ],
    };
    const item = objectItem(view('horizontalpodautoscalers', { metadata: { name: 'api', namespace: 'shop' }, status }, { name: 'api', reference: 'Deployment/api', targets: 'cpu: 96%/50%', minpods: '2', maxpods: '4', replicas: 4 }));
    assert.equal(item.description, 'cpu: 96%/50% · 4 replicas (2-4) · TooManyReplicas · shop');
    assert.equal(`${item.icon.id}@${item.icon.color}`, 'arrow-both@testing.iconPassed');
    assert.ok(item.tooltip?.includes('ScalingLimited True TooManyReplicas: the desired replica count is more than the maximum replica count'));
    const failing = { ...status, conditions: [{ type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: 'the HPA was unable to compute the replica count: ...' }] };
    const broken = objectItem(view('horizontalpodautoscalers', { status: failing }, { name: 'x', targets: 'cpu: <unknown>/50%', minpods: '2', maxpods: '4', replicas: 2 }));
    assert.equal(broken.icon.color, 'errorForeground');
    assert.equal(broken.description, 'cpu: <unknown>/50% · 2 replicas (2-4) → 4');
  });
});
