/**
 * DefaultPreemption (PostFilter): when no node fits, find the node where evicting lower-priority
 * pods would make room, nominate the pod to it and delete the victims, asynchronously as 1.35
 * does (SchedulerAsyncPreemption): until the deletions are issued the preemptor is held back by
 * this plugin's PreEnqueue.
 */
import type { Pod, PodCondition } from '../api';
import { DEFAULT_SCHEDULER_NAME } from '../api';
import { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import { Action, QueueingHint, type ClusterEventWithHint } from '../framework/events';
import type { EnqueueExtensions, Handle, PostFilterPlugin, PostFilterResult, PreEnqueuePlugin } from '../framework/interface';
import { Diagnosis, fitErrorMessage, type NodeToStatus } from '../framework/node-to-status';
import { Code, Status, errorStatus } from '../framework/status';
import { calculateNumCandidates, dryRunPreemption, pickOneNodeForPreemption, type Candidate } from './default-preemption/candidates';
import { Names } from './names';

export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NOT_ELIGIBLE_POLICY = 'not eligible due to preemptionPolicy=Never.';
export const NOT_ELIGIBLE_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';
export const WAITING_FOR_PREEMPTION = 'waiting for the preemption for this pod to be finished';

/** What one preemption attempt decided, for the scheduling record. */
export interface PreemptionOutcome {
  readonly nominatedNodeName?: string;
  readonly victims: readonly string[];
  readonly message: string;
}

export class DefaultPreemption implements PostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions {
  readonly name = Names.DefaultPreemption;
  /** Preemptors whose victims are still being deleted. */
  private readonly preempting = new Set<string>();
  /** The outcome of the latest PostFilter call (read by the scheduler for its record). */
  lastOutcome: PreemptionOutcome | null = null;

  constructor(private readonly handle: Handle) {}

  preEnqueue(pod: PodInfo): Status | null {
    return this.preempting.has(pod.uid) ? new Status(Code.UnschedulableAndUnresolvable, [WAITING_FOR_PREEMPTION]) : null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // Only so that the queue re-runs PreEnqueue for a held-back preemptor once victims go away.
    return [{ event: { resource: 'Pod', action: Action.Delete }, hint: () => QueueingHint.QueueSkip }];
  }

  postFilter(state: CycleState, pod: PodInfo, statuses: NodeToStatus): PostFilterResult {
    const { nominatingInfo, status, candidate } = this.preempt(state, pod, statuses);
    const msg = status.message();
    const message = msg ? 'preemption: ' + msg : '';
    this.lastOutcome = { nominatedNodeName: candidate?.name, victims: candidate?.victims.pods.map((v) => v.key) ?? [], message };
    return { nominatingInfo, status: msg ? new Status(status.code, [message]) : status };
  }

  private preempt(state: CycleState, pi: PodInfo, statuses: NodeToStatus): PostFilterResult & { candidate?: Candidate } {
    const latest = this.handle.latestPod(pi.namespace, pi.name);
    if (!latest) return { nominatingInfo: null, status: errorStatus(`pod "${pi.name}" not found`) };
    const pod = latest === pi.pod ? pi : new PodInfo(latest);
    const nominated = pod.pod.status?.nominatedNodeName ?? '';
    const eligible = this.eligibleToPreemptOthers(pod, nominated ? statuses.get(nominated) : null);
    if (eligible !== null) return { nominatingInfo: null, status: new Status(Code.Unschedulable, [eligible]) };

    const allNodes = this.handle.snapshot().list;
    if (allNodes.length === 0) return { nominatingInfo: null, status: errorStatus('no nodes available') };
    const potential = statuses.nodesForStatusCode(allNodes, Code.Unschedulable);
    let candidates: Candidate[] = [];
    let dryRunStatuses: NodeToStatus | null = null;
    if (potential.length === 0) {
      // Preemption will not help anywhere: drop a stale nomination.
      if (nominated) this.handle.clearNominatedNodeName([pod.pod]);
    } else {
      const offset = this.handle.random.int(potential.length);
      const now = this.handle.clock.now();
      const run = dryRunPreemption(this.handle.framework(), state, pod, potential, this.handle.listers.podDisruptionBudgets(), offset, calculateNumCandidates(potential.length), now);
      candidates = run.candidates;
      dryRunStatuses = run.statuses;
    }
    if (candidates.length === 0) {
      const d = new Diagnosis();
      if (dryRunStatuses) for (const [n, s] of dryRunStatuses.entries()) d.nodeToStatus.set(n, s);
      d.nodeToStatus.absentNodesStatus = new Status(Code.UnschedulableAndUnresolvable, [NOT_HELPFUL]);
      return { nominatingInfo: { mode: 'override', nodeName: '' }, status: new Status(Code.Unschedulable, [fitErrorMessage(allNodes.length, d)]) };
    }
    const best = pickOneNodeForPreemption(candidates, this.handle.clock.now());
    if (!best || best.name === '') return { nominatingInfo: null, status: new Status(Code.Unschedulable, ['no candidate node for preemption']) };
    this.prepareCandidateAsync(best, pod);
    return { nominatingInfo: { mode: 'override', nodeName: best.name }, status: new Status(Code.Success), candidate: best };
  }

  /** PodEligibleToPreemptOthers: null when eligible, else why not. */
  private eligibleToPreemptOthers(pod: PodInfo, nominatedNodeStatus: Status | null): string | null {
    if (pod.pod.spec.preemptionPolicy === 'Never') return NOT_ELIGIBLE_POLICY;
    const nominated = pod.pod.status?.nominatedNodeName;
    if (nominated) {
      // Rejected there for good: preempting again elsewhere is fine.
      if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return null;
      const node = this.handle.snapshot().get(nominated);
      if (node) {
        for (const p of node.pods) {
          if (p.priority < pod.priority && terminatingByPreemption(p.pod)) return NOT_ELIGIBLE_TERMINATING;
        }
      }
    }
    return null;
  }

  /**
   * prepareCandidateAsync: clear lower-priority nominations to the node, delete all victims but
   * the last, release the preemptor, delete the last (its deletion event then requeues it).
   */
  private prepareCandidateAsync(c: Candidate, preemptor: PodInfo): void {
    this.preempting.add(preemptor.uid);
    const lowerNominated = this.handle
      .nominatedPodsForNode(c.name)
      .filter((p) => p.priority < preemptor.priority)
      .map((p) => p.pod);
    if (lowerNominated.length > 0) this.handle.clearNominatedNodeName(lowerNominated);
    const victims = c.victims.pods;
    const run = async (): Promise<void> => {
      let failed = false;
      const results = await Promise.allSettled(victims.slice(0, -1).map((v) => this.preemptPod(c.name, preemptor, v)));
      if (results.some((r) => r.status === 'rejected')) failed = true;
      this.preempting.delete(preemptor.uid);
      try {
        await this.preemptPod(c.name, preemptor, victims[victims.length - 1]!);
      } catch {
        failed = true;
      }
      // A failed API call could leave the preemptor stuck among unschedulable pods.
      if (failed) this.handle.activate([preemptor.pod]);
    };
    this.handle.clock.queueTask(run, { label: `kube-scheduler: preempt for ${preemptor.key}` });
  }

  private async preemptPod(nodeName: string, preemptor: PodInfo, victim: PodInfo): Promise<void> {
    const condition: PodCondition = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'PreemptionByScheduler',
      lastTransitionTime: this.handle.clock.rfc3339(),
      message: `${preemptor.pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME}: preempting to accommodate a higher priority pod`,
    };
    await this.handle.host.deletePod(victim.pod, condition);
    this.handle.host.recordEvent({
      regarding: victim.pod,
      related: preemptor.pod,
      type: 'Normal',
      reason: 'Preempted',
      action: 'Preempting',
      note: `Preempted by pod ${preemptor.uid} on node ${nodeName}`,
    });
  }
}

function terminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata.deletionTimestamp) return false;
  return (pod.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.reason === 'PreemptionByScheduler');
}
