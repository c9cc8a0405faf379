/** Trace records for the panel's tests, written the way the engine writes them. */
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';
import type { CompactionRecord } from '../../../src/engine/trace/compaction';
import type { KubeletRecord } from '../../../src/engine/trace/kubelet';
import type { ReconcileRecord } from '../../../src/engine/trace/reconcile';
import type { RevisionRecord } from '../../../src/engine/trace/revision';
import type { BindingRecord, SchedulingAttemptRecord } from '../../../src/engine/scheduler/record';

export const T0 = Date.UTC(2025, 0, 1);

export function request(id: number, fields: Partial<ApiRequestRecord> = {}): ApiRequestRecord {
  return {
    type: 'api.request',
    id,
    time: T0 + id,
    component: 'kube-apiserver',
    user: 'kubernetes-admin',
    groups: ['kubeadm:cluster-admins', 'system:authenticated'],
    verb: 'create',
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespace: 'default',
    name: 'web',
    dryRun: false,
    code: 201,
    stages: [],
    ...fields,
  };
}

export function revision(id: number, fields: Partial<RevisionRecord> = {}): RevisionRecord {
  return {
    type: 'store.revision',
    id,
    time: T0 + id,
    component: 'etcd',
    revision: id,
    key: '/registry/deployments/default/web',
    operation: 'create',
    group: 'apps',
    resource: 'deployments',
    namespace: 'default',
    name: 'web',
    actor: 'kubernetes-admin',
    change: 'created',
    ...fields,
  };
}

export function compaction(id: number, rev: number): CompactionRecord {
  return { type: 'store.compaction', id, time: T0 + id, component: 'etcd', revision: rev };
}

export function reconcile(id: number, fields: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    type: 'controller.reconcile',
    id,
    time: T0 + id,
    component: 'deployment-controller',
    controller: 'deployment',
    key: 'default/web',
    trigger: 'event',
    requests: [],
    outcome: 'done',
    ...fields,
  };
}

export function kubelet(id: number, fields: Partial<KubeletRecord> = {}): KubeletRecord {
  return { type: 'kubelet.action', id, time: T0 + id, component: 'kubelet/node-1', node: 'node-1', action: 'container-started', pod: 'default/web-1', container: 'nginx', detail: '', ...fields };
}

const POD = { namespace: 'default', name: 'web-1', uid: 'uid-1' };

export function attempt(id: number, fields: Partial<SchedulingAttemptRecord> = {}): SchedulingAttemptRecord {
  return {
    type: 'scheduler.attempt',
    id,
    time: T0 + id,
    component: 'kube-scheduler',
    pod: POD,
    cycle: 1,
    attempt: 1,
    outcome: 'scheduled',
    node: 'node-2',
    numAllNodes: 3,
    evaluatedNodes: 3,
    feasibleNodes: 2,
    searchStart: 0,
    numNodesToFind: 3,
    preFilterSkipped: [],
    filterPlugins: ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeResourcesFit'],
    filters: [
      { node: 'node-1', code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'] },
      { node: 'node-2', code: 'Success', plugin: '', reasons: [] },
      { node: 'node-3', code: 'Success', plugin: '', reasons: [] },
    ],
    rejectionsByPlugin: { NodeResourcesFit: 1 },
    scorePlugins: [
      { name: 'NodeResourcesFit', weight: 1 },
      { name: 'TaintToleration', weight: 3 },
    ],
    scores: [
      { node: 'node-3', raw: [40, 0], normalized: [40, 100], weighted: [40, 300], total: 340 },
      { node: 'node-2', raw: [80, 0], normalized: [80, 100], weighted: [80, 300], total: 380 },
    ],
    ranking: [
      { node: 'node-2', score: 380 },
      { node: 'node-3', score: 340 },
    ],
    ...fields,
  };
}

export function binding(id: number, fields: Partial<BindingRecord> = {}): BindingRecord {
  return { type: 'scheduler.binding', id, time: T0 + id, component: 'kube-scheduler', pod: POD, cycle: 1, node: 'node-2', outcome: 'bound', ...fields };
}
