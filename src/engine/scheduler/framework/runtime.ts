/**
 * The framework runtime (pkg/scheduler/framework/runtime/framework.go): runs the plugins of each
 * extension point in profile order, stops where upstream stops, attributes every failure to the
 * plugin that produced it and wraps errors with upstream's texts.
 */
import type { NodeInfo } from '../cache/node-info';
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from './cycle-state';
import {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  NodeNames,
  type AnyPlugin,
  type BindPlugin,
  type EnqueueExtensions,
  type FilterPlugin,
  type FrameworkRunner,
  type NominatingInfo,
  type PermitPlugin,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScorePlugin,
} from './interface';
import type { NodeToStatus } from './node-to-status';
import { Code, PluginError, Status, errorStatus, newStatus } from './status';

export interface WeightedPlugin {
  readonly plugin: AnyPlugin;
  /** Score weight; ignored for plugins without Score. */
  readonly weight: number;
}

export interface PreFilterOutcome {
  /** The nodes PreFilter results narrowed the search to, or null for all nodes. */
  readonly nodeNames: ReadonlySet<string> | null;
  readonly status: Status | null;
  /** Plugins that returned a node subset ("node(s) didn't satisfy plugin(s) [...]"). */
  readonly pluginsWithNodes: readonly string[];
  /** Plugins whose PreFilter returned Skip. */
  readonly skipped: readonly string[];
}

/** Scores of every scoring plugin for every node, index-aligned with the nodes scored. */
export interface ScoreTable {
  readonly plugins: readonly string[];
  readonly weights: readonly number[];
  readonly raw: readonly Float64Array[];
  readonly normalized: readonly Float64Array[];
  readonly totals: Float64Array;
}

/** Pods nominated to nodes (the queue's nominator). */
export interface NominatedPods {
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** Whether any pod is nominated anywhere: when not, filters run once per node. */
  empty(): boolean;
}

export class Framework implements FrameworkRunner {
  readonly preEnqueuePlugins: PreEnqueuePlugin[] = [];
  readonly queueSortPlugin: QueueSortPlugin;
  readonly preFilterPlugins: PreFilterPlugin[] = [];
  readonly filterPlugins: FilterPlugin[] = [];
  readonly postFilterPlugins: PostFilterPlugin[] = [];
  readonly preScorePlugins: PreScorePlugin[] = [];
  readonly scorePlugins: ScorePlugin[] = [];
  readonly scoreWeights = new Map<string, number>();
  readonly reservePlugins: ReservePlugin[] = [];
  readonly permitPlugins: PermitPlugin[] = [];
  readonly preBindPlugins: PreBindPlugin[] = [];
  readonly bindPlugins: BindPlugin[] = [];
  readonly postBindPlugins: PostBindPlugin[] = [];
  readonly enqueueExtensions: EnqueueExtensions[] = [];
  private readonly scoreBuffers: Float64Array[] = [];

  constructor(
    plugins: readonly WeightedPlugin[],
    private readonly nominator: NominatedPods,
  ) {
    let queueSort: QueueSortPlugin | undefined;
    for (const { plugin: p, weight } of plugins) {
      if (p.preEnqueue) this.preEnqueuePlugins.push(p as PreEnqueuePlugin);
      if (p.less) queueSort ??= p as QueueSortPlugin;
      if (p.preFilter) this.preFilterPlugins.push(p as PreFilterPlugin);
      if (p.filter) this.filterPlugins.push(p as FilterPlugin);
      if (p.postFilter) this.postFilterPlugins.push(p as PostFilterPlugin);
      if (p.preScore) this.preScorePlugins.push(p as PreScorePlugin);
      if (p.score) {
        this.scorePlugins.push(p as ScorePlugin);
        this.scoreWeights.set(p.name, weight);
      }
      if (p.reserve) this.reservePlugins.push(p as ReservePlugin);
      if (p.permit) this.permitPlugins.push(p as PermitPlugin);
      if (p.preBind) this.preBindPlugins.push(p as PreBindPlugin);
      if (p.bind) this.bindPlugins.push(p as BindPlugin);
      if (p.postBind) this.postBindPlugins.push(p as PostBindPlugin);
      if (p.eventsToRegister) this.enqueueExtensions.push(p as EnqueueExtensions);
    }
    if (!queueSort) throw new Error('scheduler profile: a QueueSort plugin is required');
    this.queueSortPlugin = queueSort;
  }

  runPreEnqueuePlugins(pod: PodInfo, first?: string): Status | null {
    const ordered = first ? [...this.preEnqueuePlugins.filter((p) => p.name === first), ...this.preEnqueuePlugins.filter((p) => p.name !== first)] : this.preEnqueuePlugins;
    for (const pl of ordered) {
      const s = pl.preEnqueue(pod);
      if (s !== null && s.code !== Code.Success) return s.withPlugin(pl.name);
    }
    return null;
  }

  runPreFilterPlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterOutcome {
    let nodeNames: Set<string> | null = null;
    let returnStatus: Status | null = null;
    const pluginsWithNodes: string[] = [];
    const skipped: string[] = [];
    for (const pl of this.preFilterPlugins) {
      let r: Status | NodeNames | null;
      try {
        r = pl.preFilter(state, pod, nodes);
      } catch (err) {
        r = errorStatus(errorMessage(err));
      }
      if (r instanceof NodeNames) {
        const names = r.names;
        pluginsWithNodes.push(pl.name);
        nodeNames = intersect(nodeNames, names);
        if (nodeNames.size === 0) {
          const msg =
            pluginsWithNodes.length === 1
              ? `node(s) didn't satisfy plugin ${pluginsWithNodes[0]}`
              : `node(s) didn't satisfy plugin(s) [${pluginsWithNodes.join(' ')}] simultaneously`;
          return { nodeNames, status: newStatus(Code.UnschedulableAndUnresolvable, msg), pluginsWithNodes, skipped };
        }
        continue;
      }
      if (r === null || r.code === Code.Success) continue;
      if (r.code === Code.Skip) {
        skipped.push(pl.name);
        state.skipFilterPlugins.add(pl.name);
        continue;
      }
      if (r.code === Code.UnschedulableAndUnresolvable) {
        return { nodeNames, status: r.withPlugin(pl.name), pluginsWithNodes, skipped };
      }
      if (r.code === Code.Unschedulable) {
        // Later PreFilters still run: preemption needs their state.
        returnStatus = r.withPlugin(pl.name);
        continue;
      }
      return { nodeNames, status: errorStatus(`running PreFilter plugin "${pl.name}": ${r.message()}`).withPlugin(pl.name), pluginsWithNodes, skipped };
    }
    return { nodeNames, status: returnStatus, pluginsWithNodes, skipped };
  }

  /** The filter plugins this cycle runs: those whose PreFilter did not Skip. */
  activeFilterPlugins(state: CycleState): FilterPlugin[] {
    if (state.skipFilterPlugins.size === 0) return this.filterPlugins;
    return this.filterPlugins.filter((p) => !state.skipFilterPlugins.has(p.name));
  }

  runFilterPlugins(state: CycleState, pod: PodInfo, node: NodeInfo, filters: readonly FilterPlugin[] = this.activeFilterPlugins(state)): Status | null {
    let i = 0;
    let s: Status | null = null;
    try {
      for (; i < filters.length; i++) {
        s = filters[i]!.filter(state, pod, node);
        if (s !== null && s.code !== Code.Success) break;
        s = null;
      }
    } catch (err) {
      s = errorStatus(errorMessage(err));
    }
    if (s === null) return null;
    const pl = filters[i]!;
    if (!s.isRejected()) s = errorStatus(`running "${pl.name}" filter plugin: ${s.message()}`);
    return s.withPlugin(pl.name);
  }

  /**
   * Filters a node twice when pods of equal or higher priority are nominated to it: once as if
   * they were running there (the pod must not take the room freed for them), then without them
   * (affinity to them must not be assumed). Both must pass.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, node: NodeInfo, filters?: readonly FilterPlugin[]): Status | null {
    const nominated = this.nominator.nominatedPodsForNode(node.name);
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, node, filters);
    let stateOut = state;
    let nodeOut = node;
    let added = false;
    for (const np of nominated) {
      if (np.priority >= pod.priority && np.uid !== pod.uid) {
        if (!added) {
          stateOut = state.clone();
          nodeOut = node.clone();
          added = true;
        }
        nodeOut.addPod(np);
        const s = this.runPreFilterExtensionAddPod(stateOut, pod, np, nodeOut);
        if (s !== null) return s;
      }
    }
    const first = this.runFilterPlugins(stateOut, pod, nodeOut, filters);
    if (!added || first !== null) return first;
    return this.runFilterPlugins(state, pod, node, filters);
  }

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, node: NodeInfo): Status | null {
    for (const pl of this.preFilterPlugins) {
      if (!pl.addPod || state.skipFilterPlugins.has(pl.name)) continue;
      const s = pl.addPod(state, podToSchedule, podToAdd, node);
      if (s !== null && s.code !== Code.Success) return errorStatus(`running AddPod on PreFilter plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, node: NodeInfo): Status | null {
    for (const pl of this.preFilterPlugins) {
      if (!pl.removePod || state.skipFilterPlugins.has(pl.name)) continue;
      const s = pl.removePod(state, podToSchedule, podToRemove, node);
      if (s !== null && s.code !== Code.Success) return errorStatus(`running RemovePod on PreFilter plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  /**
   * PostFilter plugins run in order until one succeeds (a nomination) or says preemption cannot
   * help; otherwise their messages are joined ("no new claims to deallocate, preemption: ...").
   */
  runPostFilterPlugins(state: CycleState, pod: PodInfo, statuses: NodeToStatus): { nominatingInfo: NominatingInfo | null; status: Status } {
    let result: NominatingInfo | null = null;
    const reasons: string[] = [];
    let rejector = '';
    for (const pl of this.postFilterPlugins) {
      const { nominatingInfo, status } = pl.postFilter(state, pod, statuses);
      if (status.code === Code.Success) return { nominatingInfo, status };
      if (status.code === Code.UnschedulableAndUnresolvable) return { nominatingInfo, status: status.withPlugin(pl.name) };
      if (!status.isRejected()) return { nominatingInfo: null, status: errorStatus(status.message()).withPlugin(pl.name) };
      if (nominatingInfo && nominatingInfo.mode !== 'noop') result = nominatingInfo;
      reasons.push(...status.reasons);
      rejector ||= pl.name;
    }
    return { nominatingInfo: result, status: new Status(Code.Unschedulable, reasons).withPlugin(rejector) };
  }

  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): { status: Status | null; skipped: string[] } {
    const skipped: string[] = [];
    for (const pl of this.preScorePlugins) {
      let s: Status | null;
      try {
        s = pl.preScore(state, pod, nodes);
      } catch (err) {
        s = errorStatus(errorMessage(err));
      }
      if (s === null || s.code === Code.Success) continue;
      if (s.code === Code.Skip) {
        skipped.push(pl.name);
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      return { status: errorStatus(`running PreScore plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name), skipped };
    }
    return { status: null, skipped };
  }

  /**
   * Score, NormalizeScore, then weight: the totals are what selectHost compares. The arrays are
   * reused by the next cycle: read the table before scheduling another pod.
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): ScoreTable | Status {
    const plugins = this.scorePlugins.filter((p) => !state.skipScorePlugins.has(p.name));
    const n = nodes.length;
    const totals = this.buffer(0, n);
    totals.fill(0);
    const raw: Float64Array[] = [];
    const normalized: Float64Array[] = [];
    const weights: number[] = [];
    for (let p = 0; p < plugins.length; p++) {
      const pl = plugins[p]!;
      const scores = this.buffer(1 + 2 * p, n);
      try {
        if (pl.scoreNodes) pl.scoreNodes(state, pod, nodes, scores);
        else for (let i = 0; i < n; i++) scores[i] = pl.score(state, pod, nodes[i]!);
      } catch (err) {
        return errorStatus(`plugin "${pl.name}" failed with: ${errorMessage(err)}`).withPlugin(pl.name);
      }
      raw.push(scores);
      let norm = scores;
      if (pl.normalizeScore) {
        norm = this.buffer(2 + 2 * p, n);
        norm.set(scores);
        const s = pl.normalizeScore(state, pod, norm, nodes);
        if (s !== null && s.code !== Code.Success) return errorStatus(`plugin "${pl.name}" failed with: ${s.message()}`).withPlugin(pl.name);
      }
      normalized.push(norm);
      const weight = this.scoreWeights.get(pl.name) ?? 1;
      weights.push(weight);
      for (let i = 0; i < n; i++) {
        const v = norm[i]!;
        if (v > MAX_NODE_SCORE || v < MIN_NODE_SCORE) {
          return errorStatus(
            `plugin "${pl.name}" returns an invalid score ${v}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
          ).withPlugin(pl.name);
        }
        totals[i] = totals[i]! + v * weight;
      }
    }
    return { plugins: plugins.map((p) => p.name), weights, raw, normalized, totals };
  }

  /** A reusable score array of length n. */
  private buffer(slot: number, n: number): Float64Array {
    let b = this.scoreBuffers[slot];
    if (!b || b.buffer.byteLength < n * 8) {
      b = new Float64Array(Math.max(n, 64));
      this.scoreBuffers[slot] = b;
    }
    return b.length === n ? b : b.subarray(0, n);
  }

  runReservePluginsReserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    for (const pl of this.reservePlugins) {
      const s = pl.reserve(state, pod, nodeName);
      if (s === null || s.code === Code.Success) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return errorStatus(`running Reserve plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  /** Unreserve runs in reverse order, as upstream does, so state unwinds like a stack. */
  runReservePluginsUnreserve(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) this.reservePlugins[i]!.unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    for (const pl of this.permitPlugins) {
      const s = pl.permit(state, pod, nodeName);
      if (s === null || s.code === Code.Success) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return errorStatus(`running Permit plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  async runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null> {
    for (const pl of this.preBindPlugins) {
      const s = await pl.preBind(state, pod, nodeName);
      if (s === null || s.code === Code.Success || s.code === Code.Skip) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return errorStatus(`running PreBind plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  async runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null> {
    for (const pl of this.bindPlugins) {
      const s = await pl.bind(state, pod, nodeName);
      if (s !== null && s.code === Code.Skip) continue;
      if (s === null || s.code === Code.Success) return null;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return errorStatus(`running Bind plugin "${pl.name}": ${s.message()}`).withPlugin(pl.name);
    }
    return null;
  }

  runPostBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (const pl of this.postBindPlugins) pl.postBind(state, pod, nodeName);
  }

  /** QueueSort's Less over two queued pods. */
  less(a: Parameters<QueueSortPlugin['less']>[0], b: Parameters<QueueSortPlugin['less']>[1]): boolean {
    return this.queueSortPlugin.less(a, b);
  }

  /** Whether filtering must consider nominated pods this cycle. */
  hasNominatedPods(): boolean {
    return !this.nominator.empty();
  }

  hasPostFilterPlugins(): boolean {
    return this.postFilterPlugins.length > 0;
  }
}

function intersect(a: ReadonlySet<string> | null, b: ReadonlySet<string>): Set<string> {
  if (a === null) return new Set(b);
  const out = new Set<string>();
  for (const n of a) if (b.has(n)) out.add(n);
  return out;
}

function errorMessage(err: unknown): string {
  if (err instanceof PluginError) return err.message;
  throw err;
}
