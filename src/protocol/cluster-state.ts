/**
 * The cluster-state feed between the panel's host and its webview: slim, typed views of the
 * objects the pictures draw (Nodes, Pods, and the workload objects of the object graph), and
 * the log of the store's revisions that changed them. The host keeps that log from the moment
 * the cluster starts (src/extension/panel/state-log.ts), fed by watch events, so each entry is
 * an object exactly as the store held it at a revision (its resourceVersion); the webview keeps
 * the log indexed by revision (webview/model/history.ts) and reads the state at any revision
 * it holds. Nothing here is computed from what happened: a view is a projection of one stored
 * object, and a state at a revision is the latest stored version of each object at or before
 * it (docs/architecture.md, The panel's two sources: replay reads stored versions and recomputes
 * nothing).
 *
 * Views are plain data (structured-clone safe) and carry only what the panel draws; the
 * object's full YAML at a revision is read on demand through the API server (see
 * GetDetailsMessage in ./panel.ts).
 */

export const VIEW_KINDS = ['Node', 'Pod', 'Deployment', 'ReplicaSet', 'Service', 'EndpointSlice', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** The controller ownerReference (controller: true), as metadata.ownerReferences holds it. */
export interface OwnerView {
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

/** A condition of status.conditions, as stored. */
export interface ConditionView {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** A label selector (metav1.LabelSelector) as stored. */
export interface SelectorView {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

interface ViewBase {
  readonly uid: string;
  readonly name: string;
  /** Absent for cluster-scoped objects (Nodes). */
  readonly namespace?: string;
  /** metadata.resourceVersion: the revision this version of the object was written at. */
  readonly rv: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly owner?: OwnerView;
  /** metadata.deletionTimestamp is set: the object is being deleted (finalizers, grace period). */
  readonly deleting: boolean;
}

/** Resource amounts in the scheduler's units: millicores, bytes, a count of pods. */
export interface ResourcesView {
  readonly milliCPU: number;
  readonly memory: number;
  readonly pods: number;
}

export interface TaintView {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export interface NodeView extends ViewBase {
  readonly kind: 'Node';
  /** kubectl get nodes' STATUS: "Ready", "NotReady", "Unknown", with ",SchedulingDisabled" when cordoned. */
  readonly status: string;
  /** The Ready condition as stored (absent before the kubelet's first status). */
  readonly ready?: ConditionView;
  /** spec.unschedulable: cordoned. */
  readonly unschedulable: boolean;
  readonly taints: readonly TaintView[];
  /** topology.kubernetes.io/zone. */
  readonly zone?: string;
  /** kubectl's ROLES (node-role.kubernetes.io/<role>). */
  readonly roles: readonly string[];
  /** status.allocatable, in the scheduler's units. */
  readonly allocatable: ResourcesView;
}

export interface PodView extends ViewBase {
  readonly kind: 'Pod';
  /** spec.nodeName: absent until the scheduler binds the pod. */
  readonly node?: string;
  readonly nominatedNode?: string;
  /** status.phase as stored. */
  readonly phase: string;
  /** kubectl get pods' STATUS (printPod): Pending, ContainerCreating, Running, CrashLoopBackOff, Terminating, ... */
  readonly status: string;
  /** kubectl's READY: "1/2". */
  readonly ready: string;
  /** The Ready condition is True. */
  readonly readyCondition: boolean;
  readonly restarts: number;
  /** The pod's requests as the scheduler accounts them (containers, init containers, overhead). */
  readonly requests: { readonly milliCPU: number; readonly memory: number };
  readonly ip?: string;
  readonly priority?: number;
  readonly containers: readonly string[];
}

export interface DeploymentView extends ViewBase {
  readonly kind: 'Deployment';
  /** spec.replicas (defaulted to 1 by the API server). */
  readonly replicas: number;
  readonly strategy: string;
  /** deployment.kubernetes.io/revision. */
  readonly revision?: number;
  readonly selector: SelectorView;
  readonly generation: number;
  readonly observedGeneration: number;
  readonly statusReplicas: number;
  readonly updatedReplicas: number;
  readonly readyReplicas: number;
  readonly availableReplicas: number;
  readonly unavailableReplicas: number;
  readonly conditions: readonly ConditionView[];
}

export interface ReplicaSetView extends ViewBase {
  readonly kind: 'ReplicaSet';
  readonly replicas: number;
  /** deployment.kubernetes.io/revision. */
  readonly revision?: number;
  readonly selector: SelectorView;
  /** The pod-template-hash label. */
  readonly templateHash?: string;
  readonly statusReplicas: number;
  readonly readyReplicas: number;
  readonly availableReplicas: number;
}

export interface ServicePortView {
  readonly name?: string;
  readonly port: number;
  readonly targetPort?: number | string;
  readonly protocol: string;
}

export interface ServiceView extends ViewBase {
  readonly kind: 'Service';
  readonly type: string;
  readonly clusterIP?: string;
  /** spec.selector; absent for a Service without one (its EndpointSlices are managed by hand). */
  readonly selector?: Readonly<Record<string, string>>;
  readonly ports: readonly ServicePortView[];
}

export interface EndpointView {
  readonly addresses: readonly string[];
  /** conditions.ready / serving / terminating as stored (absent means unknown; ready then counts as true). */
  readonly ready?: boolean;
  readonly serving?: boolean;
  readonly terminating?: boolean;
  readonly node?: string;
  readonly targetRef?: { readonly kind: string; readonly namespace?: string; readonly name: string; readonly uid?: string };
}

export interface EndpointSliceView extends ViewBase {
  readonly kind: 'EndpointSlice';
  /** The kubernetes.io/service-name label: the Service it routes for. */
  readonly service?: string;
  readonly addressType: string;
  readonly endpoints: readonly EndpointView[];
  readonly ports: readonly { readonly name?: string; readonly port?: number; readonly protocol?: string }[];
}

/**
 * The other workload controllers the object graph draws as pods' (and Jobs') owners:
 * StatefulSets, DaemonSets, Jobs and CronJobs, each with the counts its controller stored in its
 * status and the word kubectl get prints for it (a Job's STATUS is the engine's printJob's).
 */
export interface WorkloadView extends ViewBase {
  readonly kind: 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob';
  /**
   * Pods (Jobs for a CronJob) wanted, and as the controller counts them: StatefulSet
   * spec.replicas / status.replicas, readyReplicas, updatedReplicas; DaemonSet
   * desiredNumberScheduled / currentNumberScheduled, numberReady, updatedNumberScheduled; Job the
   * completions wanted / active, ready, succeeded; CronJob its active Jobs.
   */
  readonly desired: number;
  readonly current: number;
  readonly ready: number;
  readonly updated: number;
  /** Jobs: pods failed; DaemonSets: numberMisscheduled. */
  readonly failed: number;
  /** Jobs: kubectl get jobs' STATUS (Running, Complete, Failed, Suspended, ...); CronJobs: "Suspended" or "Active"/"Scheduled". */
  readonly status?: string;
  /** Jobs: kubectl's COMPLETIONS ("2/3"); CronJobs: spec.schedule. */
  readonly summary?: string;
  readonly generation: number;
  readonly observedGeneration: number;
  readonly conditions: readonly ConditionView[];
  /** StatefulSets: status.currentRevision and updateRevision (a rolling update while they differ). */
  readonly currentRevision?: string;
  readonly updateRevision?: string;
  /** CronJobs: status.lastScheduleTime. */
  readonly lastSchedule?: string;
}

export type ObjectView = NodeView | PodView | DeploymentView | ReplicaSetView | ServiceView | EndpointSliceView | WorkloadView;

/** One object's identity across its versions: "Pod/default/web-1", "Node//kubesim-worker". */
export function viewKey(kind: ViewKind, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

export function keyOf(v: ObjectView): string {
  return viewKey(v.kind, v.namespace, v.name);
}

/**
 * One entry of the revision log, in revision order:
 * - put: the object as stored from revision `rev` on (created or updated there);
 * - delete: the object is gone from revision `rev` on;
 * - machine: a node's kubelet stopped or started (the kubelet's node-stopped / node-started
 *   trace record), after the store's revision `rev`. A stopped machine is not a stored fact;
 *   it is what the simulation did to the node, drawn so that a NotReady node has its cause.
 */
export type StateChange =
  | { readonly op: 'put'; readonly rev: number; readonly time: number; readonly view: ObjectView }
  | { readonly op: 'delete'; readonly rev: number; readonly time: number; readonly kind: ViewKind; readonly namespace?: string; readonly name: string }
  | { readonly op: 'machine'; readonly rev: number; readonly time: number; readonly node: string; readonly running: boolean };

export function changeKey(c: StateChange): string {
  switch (c.op) {
    case 'put':
      return keyOf(c.view);
    case 'delete':
      return viewKey(c.kind, c.namespace, c.name);
    case 'machine':
      return `machine//${c.node}`;
  }
}

// ---- host -> webview ----------------------------------------------------------------------

/**
 * Starts a (re-)sync of the cluster state: the webview drops the history it holds; `total`
 * changes follow in `state` messages, oldest first, then live ones. The state at a revision
 * below `heldFrom` is not held (before the log began, or folded away to keep it bounded).
 */
export interface StateResetMessage {
  readonly type: 'state.reset';
  /** The first revision whose state the log holds exactly. */
  readonly heldFrom: number;
  /** Virtual time of `heldFrom`. */
  readonly heldFromTime: number;
  /** Changes the log keeps at most (the webview keeps as many). */
  readonly capacity: number;
  readonly total: number;
}

export interface StateMessage {
  readonly type: 'state';
  readonly changes: readonly StateChange[];
  /** Where exact history now begins (it moves forward as the host's log folds old changes). */
  readonly heldFrom: number;
  readonly heldFromTime: number;
}
