/**
 * ScheduleOne: the scheduling cycle (find a node, run PostFilter on failure, assume, Reserve,
 * Permit) runs synchronously; the binding cycle (PreBind, Bind, PostBind) runs asynchronously
 * against the API server while the next pod is already being scheduled. Failures are reported
 * as kube-scheduler reports them: a FailedScheduling event, the PodScheduled=False condition, and
 * the pod handed back to the queue.
 */
import type { Clock } from '../clock';
import type { Random } from '../random';
import { ScheduleAlgorithm, filterVerdicts, scoreDetails, type CycleTrace } from './algorithm';
import type { Pod, PodCondition } from './api';
import type { Cache } from './cache/cache';
import { PodInfo } from './cache/pod-info';
import { CycleState } from './framework/cycle-state';
import { EVENTS } from './framework/events';
import type { NominatingInfo } from './framework/interface';
import { Diagnosis, fitErrorMessage } from './framework/node-to-status';
import type { QueuedPodInfo } from './framework/queued-pod-info';
import type { Framework } from './framework/runtime';
import { CODE_NAMES, Code, Status } from './framework/status';
import type { SchedulerHost } from './host';
import type { DefaultPreemption } from './plugins/default-preemption';
import type { SchedulingQueue } from './queue/scheduling-queue';
import type { PodRef, RecordDetail, SchedulerRecorder } from './record';

/** validation.NoteLengthLimit: the longest Event note. */
export const NOTE_LENGTH_LIMIT = 1024;

export const CLEAR_NOMINATED_NODE: NominatingInfo = { mode: 'override', nodeName: '' };

/** What the cycle functions need of the scheduler. */
export interface SchedulerCore {
  readonly clock: Clock;
  readonly random: Random;
  readonly host: SchedulerHost;
  readonly cache: Cache;
  readonly queue: SchedulingQueue;
  readonly framework: Framework;
  readonly algorithm: ScheduleAlgorithm;
  readonly preemption: DefaultPreemption | undefined;
  readonly recorder: SchedulerRecorder | undefined;
  latestPod(namespace: string, name: string): Pod | undefined;
}

/** A failed attempt: the status, and for a FitError the diagnosis the message is built from. */
interface Failure {
  status: Status;
  fitError?: { diagnosis: Diagnosis; numAllNodes: number };
  nominatingInfo: NominatingInfo | null;
}

export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

const failureMessage = (f: Failure): string => (f.fitError ? fitErrorMessage(f.fitError.numAllNodes, f.fitError.diagnosis) : f.status.message());

export function scheduleOne(core: SchedulerCore, pInfo: QueuedPodInfo): void {
  const pod = pInfo.pod;
  if (pod.metadata.deletionTimestamp) {
    core.host.recordEvent({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: `skip schedule deleting pod: ${pod.metadata.namespace}/${pod.metadata.name}` });
    core.queue.done(pInfo.podInfo.uid);
    return;
  }
  // An update may requeue a pod that is already assumed; its binding is in flight.
  if (core.cache.isAssumedPod(pInfo.podInfo.uid)) {
    core.queue.done(pInfo.podInfo.uid);
    return;
  }
  const detail: RecordDetail = core.recorder?.detail() ?? 'off';
  const state = new CycleState();
  const cycle = core.queue.schedulingCycle;
  const { result, trace } = core.algorithm.schedulePod(state, pInfo.podInfo, detail);

  if (result.kind !== 'scheduled') {
    let failure: Failure;
    if (result.kind === 'error') {
      failure = { status: result.status, nominatingInfo: CLEAR_NOMINATED_NODE };
    } else {
      failure = { status: new Status(Code.Unschedulable), fitError: { diagnosis: result.diagnosis, numAllNodes: result.numAllNodes }, nominatingInfo: null };
      if (core.framework.hasPostFilterPlugins()) {
        if (core.preemption) core.preemption.lastOutcome = null;
        const post = core.framework.runPostFilterPlugins(state, pInfo.podInfo, result.diagnosis.nodeToStatus);
        result.diagnosis.postFilterMsg = post.status.message();
        failure.nominatingInfo = post.nominatingInfo;
      } else {
        failure.nominatingInfo = CLEAR_NOMINATED_NODE;
      }
    }
    emitAttempt(core, pInfo, cycle, detail, trace, { failure });
    handleSchedulingFailure(core, pInfo, failure);
    return;
  }

  // Assume: the next cycle already sees the pod on its node while the binding is in flight.
  const assumed = new PodInfo({ ...pod, spec: { ...pod.spec, nodeName: result.node } }, pInfo.podInfo);
  core.cache.assumePod(assumed);
  core.queue.deleteNominatedPodIfExists(assumed.uid);

  const reserve = core.framework.runReservePluginsReserve(state, assumed, result.node);
  const permit = reserve === null ? core.framework.runPermitPlugins(state, assumed, result.node) : null;
  const rejected = reserve ?? permit;
  if (rejected !== null) {
    core.framework.runReservePluginsUnreserve(state, assumed, result.node);
    // kube-scheduler logs a failed ForgetPod and goes on (kubesim keeps no component logs).
    core.cache.forgetPod(assumed);
    const failure: Failure = { status: rejected, nominatingInfo: CLEAR_NOMINATED_NODE };
    if (rejected.isRejected()) {
      const d = new Diagnosis();
      d.nodeToStatus.set(result.node, rejected);
      d.addPluginStatus(rejected);
      failure.fitError = { diagnosis: d, numAllNodes: 1 };
    }
    emitAttempt(core, pInfo, cycle, detail, trace, { failure });
    handleSchedulingFailure(core, pInfo, failure);
    return;
  }
  emitAttempt(core, pInfo, cycle, detail, trace, { node: result.node, evaluated: result.evaluatedNodes, feasible: result.feasibleNodes });
  const node = result.node;
  core.clock.queueTask(() => bindingCycle(core, state, pInfo, assumed, node, cycle), { label: `kube-scheduler: bind ${pInfo.key}` });
}

async function bindingCycle(core: SchedulerCore, state: CycleState, pInfo: QueuedPodInfo, assumed: PodInfo, node: string, cycle: number): Promise<void> {
  // Failures from here on are not "unschedulable": the pod goes to backoff and is retried.
  core.queue.done(assumed.uid);
  let status = await core.framework.runPreBindPlugins(state, assumed, node);
  if (status === null) status = await core.framework.runBindPlugins(state, assumed, node);
  core.cache.finishBinding(assumed.uid);
  if (status === null) {
    core.host.recordEvent({
      regarding: assumed.pod,
      type: 'Normal',
      reason: 'Scheduled',
      action: 'Binding',
      note: `Successfully assigned ${assumed.namespace}/${assumed.name} to ${node}`,
    });
    core.framework.runPostBindPlugins(state, assumed, node);
    emitBinding(core, assumed, cycle, node, null);
    return;
  }
  emitBinding(core, assumed, cycle, node, status.message());
  core.framework.runReservePluginsUnreserve(state, assumed, node);
  // The assumed pod's resources are free again: as if a bound pod were deleted. A pod no longer
  // assumed (the informer saw its binding stored after all, or its deletion) frees nothing:
  // kube-scheduler logs the failed ForgetPod and moves no pods (kubesim keeps no component logs).
  if (core.cache.forgetPod(assumed).ok) {
    core.queue.moveAllToActiveOrBackoffQueue(EVENTS.AssignedPodDelete, assumed.pod, undefined, (p) => !status!.isRejected() || p.metadata.uid !== assumed.uid);
  }
  handleSchedulingFailure(core, pInfo, { status, nominatingInfo: CLEAR_NOMINATED_NODE });
}

/** handleSchedulingFailure: requeue, nominate, and tell the user why (event + condition). */
export function handleSchedulingFailure(core: SchedulerCore, pInfo: QueuedPodInfo, failure: Failure): void {
  const reason = failure.status.isRejected() || failure.fitError ? 'Unschedulable' : 'SchedulerError';
  const message = failureMessage(failure);
  if (failure.fitError) {
    pInfo.unschedulablePlugins = new Set(failure.fitError.diagnosis.unschedulablePlugins);
    pInfo.pendingPlugins = new Set(failure.fitError.diagnosis.pendingPlugins);
  }
  const cached = core.latestPod(pInfo.podInfo.namespace, pInfo.podInfo.name);
  // A pod that is gone, or that got bound meanwhile, is not requeued.
  if (cached && !cached.spec.nodeName) {
    pInfo.podInfo = cached === pInfo.pod ? pInfo.podInfo : new PodInfo(cached, pInfo.podInfo);
    core.queue.addUnschedulableIfNotPresent(pInfo);
  } else {
    core.queue.done(pInfo.podInfo.uid);
  }
  core.queue.addNominatedPod(pInfo.podInfo, failure.nominatingInfo);
  const pod = cached ?? pInfo.pod;
  core.host.recordEvent({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note: truncateMessage(message) });
  updatePod(core, pod, { type: 'PodScheduled', status: 'False', reason, message }, failure.nominatingInfo);
}

/** updatePod: patch only what changed (podutil.UpdatePodCondition ignores an identical condition). */
function updatePod(core: SchedulerCore, pod: Pod, condition: PodCondition, nominating: NominatingInfo | null): void {
  const status = pod.status ?? {};
  const nnnChanged = nominating?.mode === 'override' && (status.nominatedNodeName ?? '') !== nominating.nodeName;
  const old = status.conditions?.find((c) => c.type === condition.type);
  const generation = pod.metadata.generation;
  const full: PodCondition = {
    ...condition,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    lastProbeTime: null,
    lastTransitionTime: old && old.status === condition.status && old.lastTransitionTime ? old.lastTransitionTime : core.clock.rfc3339(),
  };
  const conditionChanged =
    !old ||
    old.status !== full.status ||
    (old.reason ?? '') !== (full.reason ?? '') ||
    (old.message ?? '') !== (full.message ?? '') ||
    (old.lastProbeTime ?? null) !== null ||
    old.lastTransitionTime !== full.lastTransitionTime ||
    old.observedGeneration !== full.observedGeneration;
  if (!conditionChanged && !nnnChanged) return;
  void core.host
    .updatePodStatus(pod, { ...(conditionChanged ? { condition: full } : {}), ...(nnnChanged ? { nominatedNodeName: nominating!.nodeName } : {}) })
    .catch(() => {
      // kube-scheduler only logs a failed status update; the next attempt writes it again.
    });
}

const podRef = (p: PodInfo): PodRef => ({
  namespace: p.namespace,
  name: p.name,
  uid: p.uid,
  ...(p.pod.metadata.resourceVersion ? { resourceVersion: p.pod.metadata.resourceVersion } : {}),
});

function emitAttempt(
  core: SchedulerCore,
  pInfo: QueuedPodInfo,
  cycle: number,
  detail: RecordDetail,
  trace: CycleTrace,
  outcome: { failure: Failure } | { node: string; evaluated: number; feasible: number },
): void {
  if (detail === 'off' || !core.recorder) return;
  const { scores, ranking } = scoreDetails(trace, detail);
  const failure = 'failure' in outcome ? outcome.failure : undefined;
  const preemption = failure?.fitError && core.preemption?.lastOutcome && core.framework.hasPostFilterPlugins() ? core.preemption.lastOutcome : undefined;
  const rejected = failure?.fitError?.diagnosis.nodeToStatus.len() ?? 0;
  const filters = filterVerdicts(trace);
  core.recorder.emit({
    type: 'scheduler.attempt',
    component: 'kube-scheduler',
    pod: podRef(pInfo.podInfo),
    cycle,
    attempt: pInfo.attempts,
    outcome: failure ? (failure.fitError ? 'unschedulable' : 'error') : 'scheduled',
    ...('node' in outcome ? { node: outcome.node } : { message: failureMessage(failure!) }),
    numAllNodes: trace.numAllNodes,
    evaluatedNodes: 'node' in outcome ? outcome.evaluated : rejected,
    feasibleNodes: 'node' in outcome ? outcome.feasible : 0,
    searchStart: trace.searchStart,
    numNodesToFind: trace.numNodesToFind,
    preFilterSkipped: trace.preFilterSkipped,
    ...(trace.preFilterStatus
      ? { preFilterStatus: { plugin: trace.preFilterStatus.plugin, code: CODE_NAMES[trace.preFilterStatus.code], reasons: trace.preFilterStatus.reasons } }
      : {}),
    ...(trace.preFilterNodes ? { preFilterNodes: trace.preFilterNodes } : {}),
    filterPlugins: trace.filterPlugins,
    ...(filters ? { filters } : {}),
    rejectionsByPlugin: trace.rejectionsByPlugin,
    ...(trace.scores ? { scorePlugins: trace.scores.plugins.map((name, i) => ({ name, weight: trace.scores!.weights[i]! })) } : {}),
    ...(trace.preScoreSkipped ? { preScoreSkipped: trace.preScoreSkipped } : {}),
    ...(scores ? { scores } : {}),
    ranking,
    ...(preemption ? { preemption } : {}),
  });
}

function emitBinding(core: SchedulerCore, pod: PodInfo, cycle: number, node: string, error: string | null): void {
  if (!core.recorder || core.recorder.detail() === 'off') return;
  core.recorder.emit({
    type: 'scheduler.binding',
    component: 'kube-scheduler',
    pod: podRef(pod),
    cycle,
    node,
    outcome: error === null ? 'bound' : 'failed',
    ...(error === null ? {} : { message: error }),
  });
}
