/**
 * The extension points (pkg/scheduler/framework/interface.go). A plugin is an object with a name
 * and the methods of the points it takes part in; the framework finds them by presence.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import type { Pod } from '../api';
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { Snapshot } from '../cache/snapshot';
import type { SchedulerHost, SchedulerListers } from '../host';
import type { CycleState } from './cycle-state';
import type { ClusterEventWithHint } from './events';
import type { NodeToStatus } from './node-to-status';
import type { QueuedPodInfo } from './queued-pod-info';
import type { Status } from './status';

export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

/** A PreFilter result that narrows the nodes worth filtering (PreFilterResult.NodeNames). */
export class NodeNames {
  constructor(readonly names: ReadonlySet<string>) {}
}

/** How a PostFilter changes the pod's nominated node: override (possibly to '' = clear) or leave it. */
export interface NominatingInfo {
  readonly mode: 'override' | 'noop';
  readonly nodeName: string;
}

export interface PostFilterResult {
  readonly nominatingInfo: NominatingInfo | null;
  readonly status: Status;
}

export interface Plugin {
  readonly name: string;
}

export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: PodInfo): Status | null;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | NodeNames | null;
  /** PreFilterExtensions: keep the PreFilter state right when a pod is added to or removed from a node. */
  addPod?(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status | null;
  removePod?(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status | null;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodInfo, node: NodeInfo): Status | null;
}

export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: PodInfo, statuses: NodeToStatus): PostFilterResult;
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null;
}

export interface ScorePlugin extends Plugin {
  /** The raw score of one node. Throws PluginError on internal errors. */
  score(state: CycleState, pod: PodInfo, node: NodeInfo): number;
  /**
   * The raw scores of all nodes into `out` (index-aligned with `nodes`), as `score` node by node
   * would give them: a plugin's own loop, whose call of its own `score` the engine can inline
   * (one loop over every plugin calls a different `score` each time).
   */
  scoreNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void;
  /** ScoreExtensions: rescales the raw scores of all nodes (index-aligned with `nodes`) in place. */
  normalizeScore?(state: CycleState, pod: PodInfo, scores: Float64Array, nodes: readonly NodeInfo[]): Status | null;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null;
  unreserve(state: CycleState, pod: PodInfo, nodeName: string): void;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: PodInfo, nodeName: string): Status | null;
}

export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null>;
}

export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null>;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: PodInfo, nodeName: string): void;
}

export interface EnqueueExtensions extends Plugin {
  eventsToRegister(): ClusterEventWithHint[];
}

export type AnyPlugin = Plugin &
  Partial<
    Omit<PreEnqueuePlugin, 'name'> &
      Omit<QueueSortPlugin, 'name'> &
      Omit<PreFilterPlugin, 'name'> &
      Omit<FilterPlugin, 'name'> &
      Omit<PostFilterPlugin, 'name'> &
      Omit<PreScorePlugin, 'name'> &
      Omit<ScorePlugin, 'name'> &
      Omit<ReservePlugin, 'name'> &
      Omit<PermitPlugin, 'name'> &
      Omit<PreBindPlugin, 'name'> &
      Omit<BindPlugin, 'name'> &
      Omit<PostBindPlugin, 'name'> &
      Omit<EnqueueExtensions, 'name'>
  >;

/** What plugins may use of the scheduler (framework.Handle). */
export interface Handle {
  readonly clock: Clock;
  readonly random: Random;
  readonly host: SchedulerHost;
  readonly listers: SchedulerListers;
  /** The snapshot of the current scheduling cycle. */
  snapshot(): Snapshot;
  /** Pods nominated to run on the node once their preemption victims are gone. */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** The framework, for plugins that re-run other plugins (preemption's dry runs). */
  framework(): FrameworkRunner;
  /** Moves these pods from the unschedulable pool or backoff straight to the active queue. */
  activate(pods: readonly Pod[]): void;
  /** The pod as the informer cache holds it now. */
  latestPod(namespace: string, name: string): Pod | undefined;
  /** Clears status.nominatedNodeName of these pods (their nominations were given away). */
  clearNominatedNodeName(pods: readonly Pod[]): void;
}

/** The framework operations preemption re-runs on copies of the cluster state. */
export interface FrameworkRunner {
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, node: NodeInfo): Status | null;
  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status | null;
  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status | null;
}
