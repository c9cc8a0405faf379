/**
 * Stored objects as the panel's slim views (src/protocol/cluster-state.ts). Each view is a
 * projection of one stored object: its own fields, kubectl's STATUS as the engine's printers
 * compute it (printPod, the node printer), and the pod's requests as the scheduler accounts them
 * (computePodResources). Nothing is inferred from other objects.
 */
import type { KubeObject } from '../../engine/api/types';
import { nodeRoles, nodeStatus } from '../../engine/printers/core/node';
import { podSummary } from '../../engine/printers/core/pod';
import { arr, int, obj, objs, str, strMap } from '../../engine/printers/format';
import type { Pod } from '../../engine/scheduler/api';
import { computePodResources, Resource } from '../../engine/scheduler/cache/resource';
import type {
  ConditionView,
  DeploymentView,
  EndpointSliceView,
  NodeView,
  ObjectView,
  OwnerView,
  PodView,
  ReplicaSetView,
  SelectorView,
  ServiceView,
  ViewKind,
  WorkloadView,
} from '../../protocol/cluster-state';
import { completions, jobStatus } from '../../engine/printers/batch';

const ZONE_LABEL = 'topology.kubernetes.io/zone';
const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** The view kind of a watched resource ("group/resource"). */
export const VIEW_RESOURCES: Readonly<Record<ViewKind, { group: string; version: string; resource: string }>> = {
  Node: { group: '', version: 'v1', resource: 'nodes' },
  Pod: { group: '', version: 'v1', resource: 'pods' },
  Deployment: { group: 'apps', version: 'v1', resource: 'deployments' },
  ReplicaSet: { group: 'apps', version: 'v1', resource: 'replicasets' },
  Service: { group: '', version: 'v1', resource: 'services' },
  EndpointSlice: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  StatefulSet: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  DaemonSet: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  Job: { group: 'batch', version: 'v1', resource: 'jobs' },
  CronJob: { group: 'batch', version: 'v1', resource: 'cronjobs' },
};

/** metadata.resourceVersion as a revision (0 when it is not a number). */
export function revisionOf(o: KubeObject): number {
  const n = Number(o.metadata.resourceVersion);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

function owner(o: KubeObject): OwnerView | undefined {
  const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  return ref ? { kind: ref.kind, name: ref.name, uid: ref.uid } : undefined;
}

function base(o: KubeObject) {
  const namespace = o.metadata.namespace;
  const own = owner(o);
  return {
    uid: o.metadata.uid ?? '',
    name: o.metadata.name ?? '',
    ...(namespace ? { namespace } : {}),
    rv: revisionOf(o),
    labels: o.metadata.labels ?? {},
    ...(own ? { owner: own } : {}),
    deleting: o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null,
  };
}

/** status.conditions as stored. */
export function conditionViews(status: unknown): ConditionView[] {
  return objs(obj(status).conditions).map((c) => ({
    type: str(c.type),
    status: str(c.status),
    ...(str(c.reason) ? { reason: str(c.reason) } : {}),
    ...(str(c.message) ? { message: str(c.message) } : {}),
  }));
}

function selector(v: unknown): SelectorView {
  const s = obj(v);
  const out: { matchLabels?: Record<string, string>; matchExpressions?: SelectorView['matchExpressions'] } = {};
  if (s.matchLabels !== undefined) out.matchLabels = strMap(s.matchLabels);
  const exprs = objs(s.matchExpressions);
  if (exprs.length > 0) {
    out.matchExpressions = exprs.map((e) => ({ key: str(e.key), operator: str(e.operator), ...(Array.isArray(e.values) ? { values: arr(e.values).map(String) } : {}) }));
  }
  return out;
}

function revisionAnnotation(o: KubeObject): number | undefined {
  const raw = o.metadata.annotations?.[REVISION_ANNOTATION];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function nodeView(o: KubeObject): NodeView {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const ready = conditionViews(status).filter((c) => c.type === 'Ready').pop();
  const alloc = Resource.from(strMap(status.allocatable));
  const zone = o.metadata.labels?.[ZONE_LABEL];
  return {
    kind: 'Node',
    ...base(o),
    status: nodeStatus(o),
    ...(ready ? { ready } : {}),
    unschedulable: spec.unschedulable === true,
    taints: objs(spec.taints).map((t) => ({ key: str(t.key), ...(str(t.value) ? { value: str(t.value) } : {}), effect: str(t.effect) })),
    ...(zone ? { zone } : {}),
    roles: nodeRoles(o),
    allocatable: { milliCPU: alloc.milliCPU, memory: alloc.memory, pods: alloc.allowedPodNumber },
  };
}

export function podView(o: KubeObject, now: number): PodView {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const summary = podSummary(o, now);
  const requests = computePodResources(o as unknown as Pod).requests;
  const restarts = objs(status.containerStatuses).reduce((n, c) => n + int(c.restartCount), 0);
  const node = str(spec.nodeName);
  const nominated = str(status.nominatedNodeName);
  const ip = str(status.podIP);
  return {
    kind: 'Pod',
    ...base(o),
    ...(node ? { node } : {}),
    ...(nominated ? { nominatedNode: nominated } : {}),
    phase: str(status.phase),
    status: summary.status,
    ready: summary.ready,
    readyCondition: conditionViews(status).some((c) => c.type === 'Ready' && c.status === 'True'),
    restarts,
    requests: { milliCPU: requests.milliCPU, memory: requests.memory },
    ...(ip ? { ip } : {}),
    ...(typeof spec.priority === 'number' ? { priority: spec.priority } : {}),
    containers: objs(spec.containers).map((c) => str(c.name)),
  };
}

export function deploymentView(o: KubeObject): DeploymentView {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const revision = revisionAnnotation(o);
  return {
    kind: 'Deployment',
    ...base(o),
    replicas: typeof spec.replicas === 'number' ? spec.replicas : 1,
    strategy: str(obj(spec.strategy).type) || 'RollingUpdate',
    ...(revision !== undefined ? { revision } : {}),
    selector: selector(spec.selector),
    generation: o.metadata.generation ?? 0,
    observedGeneration: int(status.observedGeneration),
    statusReplicas: int(status.replicas),
    updatedReplicas: int(status.updatedReplicas),
    readyReplicas: int(status.readyReplicas),
    availableReplicas: int(status.availableReplicas),
    unavailableReplicas: int(status.unavailableReplicas),
    conditions: conditionViews(status),
  };
}

export function replicaSetView(o: KubeObject): ReplicaSetView {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const revision = revisionAnnotation(o);
  const hash = o.metadata.labels?.[TEMPLATE_HASH_LABEL];
  return {
    kind: 'ReplicaSet',
    ...base(o),
    replicas: typeof spec.replicas === 'number' ? spec.replicas : 1,
    ...(revision !== undefined ? { revision } : {}),
    selector: selector(spec.selector),
    ...(hash ? { templateHash: hash } : {}),
    statusReplicas: int(status.replicas),
    readyReplicas: int(status.readyReplicas),
    availableReplicas: int(status.availableReplicas),
  };
}

export function serviceView(o: KubeObject): ServiceView {
  const spec = obj(o.spec);
  const clusterIP = str(spec.clusterIP);
  return {
    kind: 'Service',
    ...base(o),
    type: str(spec.type) || 'ClusterIP',
    ...(clusterIP ? { clusterIP } : {}),
    ...(spec.selector !== undefined && spec.selector !== null ? { selector: strMap(spec.selector) } : {}),
    ports: objs(spec.ports).map((p) => ({
      ...(str(p.name) ? { name: str(p.name) } : {}),
      port: int(p.port),
      ...(typeof p.targetPort === 'number' || typeof p.targetPort === 'string' ? { targetPort: p.targetPort } : {}),
      protocol: str(p.protocol) || 'TCP',
    })),
  };
}

function optionalBool(v: unknown): { value?: boolean } {
  return typeof v === 'boolean' ? { value: v } : {};
}

export function endpointSliceView(o: KubeObject): EndpointSliceView {
  const service = o.metadata.labels?.[SERVICE_NAME_LABEL];
  return {
    kind: 'EndpointSlice',
    ...base(o),
    ...(service ? { service } : {}),
    addressType: str(o.addressType),
    endpoints: objs(o.endpoints).map((e) => {
      const c = obj(e.conditions);
      const ref = e.targetRef === undefined ? undefined : obj(e.targetRef);
      const ready = optionalBool(c.ready).value;
      const serving = optionalBool(c.serving).value;
      const terminating = optionalBool(c.terminating).value;
      const node = str(e.nodeName);
      return {
        addresses: arr(e.addresses).map(String),
        ...(ready !== undefined ? { ready } : {}),
        ...(serving !== undefined ? { serving } : {}),
        ...(terminating !== undefined ? { terminating } : {}),
        ...(node ? { node } : {}),
        ...(ref
          ? { targetRef: { kind: str(ref.kind), ...(str(ref.namespace) ? { namespace: str(ref.namespace) } : {}), name: str(ref.name), ...(str(ref.uid) ? { uid: str(ref.uid) } : {}) } }
          : {}),
      };
    }),
    ports: objs(o.ports).map((p) => ({
      ...(str(p.name) ? { name: str(p.name) } : {}),
      ...(typeof p.port === 'number' ? { port: p.port } : {}),
      ...(str(p.protocol) ? { protocol: str(p.protocol) } : {}),
    })),
  };
}

/** A StatefulSet, DaemonSet, Job or CronJob: the counts its controller stored, nothing derived. */
export function workloadView(kind: WorkloadView['kind'], o: KubeObject): WorkloadView {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const common = { kind, ...base(o), generation: o.metadata.generation ?? 0, observedGeneration: int(status.observedGeneration), conditions: conditionViews(status) };
  switch (kind) {
    case 'StatefulSet': {
      const current = str(status.currentRevision);
      const update = str(status.updateRevision);
      return {
        ...common,
        desired: typeof spec.replicas === 'number' ? spec.replicas : 1,
        current: int(status.replicas),
        ready: int(status.readyReplicas),
        updated: int(status.updatedReplicas),
        failed: 0,
        ...(current ? { currentRevision: current } : {}),
        ...(update ? { updateRevision: update } : {}),
      };
    }
    case 'DaemonSet':
      return { ...common, desired: int(status.desiredNumberScheduled), current: int(status.currentNumberScheduled), ready: int(status.numberReady), updated: int(status.updatedNumberScheduled), failed: int(status.numberMisscheduled) };
    case 'Job':
      return {
        ...common,
        desired: typeof spec.completions === 'number' ? spec.completions : 1,
        current: int(status.active),
        ready: int(status.ready),
        updated: int(status.succeeded),
        failed: int(status.failed),
        status: jobStatus(o),
        summary: completions(o),
      };
    case 'CronJob': {
      const active = arr(status.active).length;
      const last = str(status.lastScheduleTime);
      return {
        ...common,
        desired: 0,
        current: active,
        ready: 0,
        updated: 0,
        failed: 0,
        status: spec.suspend === true ? 'Suspended' : active > 0 ? 'Active' : 'Scheduled',
        summary: str(spec.schedule),
        ...(last ? { lastSchedule: last } : {}),
      };
    }
  }
}

/** The view of a stored object of a watched kind. `now` is the virtual time (kubectl's RESTARTS ages). */
export function objectView(kind: ViewKind, o: KubeObject, now: number): ObjectView {
  switch (kind) {
    case 'Node':
      return nodeView(o);
    case 'Pod':
      return podView(o, now);
    case 'Deployment':
      return deploymentView(o);
    case 'ReplicaSet':
      return replicaSetView(o);
    case 'Service':
      return serviceView(o);
    case 'EndpointSlice':
      return endpointSliceView(o);
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'CronJob':
      return workloadView(kind, o);
  }
}
