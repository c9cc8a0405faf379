/**
 * kubectl get pods: READY counts ready containers (and started sidecars), STATUS is printPod's
 * one-word summary (Init:1/2, Init:CrashLoopBackOff, ContainerCreating, CrashLoopBackOff,
 * Completed, NotReady, Terminating, SchedulingGated, ...), RESTARTS adds "(2m ago)" after the
 * most recent restart.
 */
import type { KubeObject } from '../../api/types';
import { AGE, NAME } from '../common';
import { POD_IP, POD_NODE_NAME, POD_NOMINATED_NODE_NAME, POD_READINESS_GATES } from '../descriptions';
import { age, hasTrueCondition, int, noneIfEmpty, obj, objs, str } from '../format';
import { col, tablePrinter, wide, type TableRowCondition } from '../table';
import { own } from '../../api/own';

const NODE_UNREACHABLE_REASON = 'NodeLost';

const podConditions: Record<string, TableRowCondition[]> = {
  Succeeded: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
  Failed: [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }],
};

interface Restarts {
  count: number;
  /** ms of the most recent termination before a restart, or 0. */
  last: number;
}

function lastTermination(status: Record<string, unknown>, r: Restarts): void {
  const finished = str(obj(obj(status.lastState).terminated).finishedAt);
  const t = finished ? Date.parse(finished) : NaN;
  if (!Number.isNaN(t) && t > r.last) r.last = t;
}

function terminatedReason(terminated: Record<string, unknown>, prefix: string): string {
  const reason = str(terminated.reason);
  if (reason) return prefix + reason;
  const signal = int(terminated.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${int(terminated.exitCode)}`;
}

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

/** printPod's READY, STATUS and RESTARTS cells. */
export function podSummary(pod: KubeObject, now: number): PodSummary {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of objs(status.conditions)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initSpecs = objs(spec.initContainers);
  const sidecars = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)));
  const total = objs(spec.containers).length + sidecars.size;
  let ready = 0;
  const all: Restarts = { count: 0, last: 0 };
  const sidecar: Restarts = { count: 0, last: 0 };

  let initializing = false;
  const initStatuses = objs(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    const state = obj(c.state);
    const isSidecar = sidecars.has(str(c.name));
    all.count += int(c.restartCount);
    lastTermination(c, all);
    if (isSidecar) {
      sidecar.count += int(c.restartCount);
      lastTermination(c, sidecar);
    }
    const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
    const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (isSidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') reason = `Init:${str(waiting.reason)}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
    break;
  }

  let restarts = all;
  if (!initializing || hasTrueCondition(status.conditions, 'Initialized')) {
    restarts = { ...sidecar };
    let hasRunning = false;
    const statuses = objs(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      const state = obj(c.state);
      restarts.count += int(c.restartCount);
      lastTermination(c, restarts);
      const waiting = obj(state.waiting);
      const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
      if (str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (c.ready === true && state.running !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasTrueCondition(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  const deleting = pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  if (deleting && status.reason === NODE_UNREACHABLE_REASON) reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsText = String(restarts.count);
  if (restarts.count !== 0 && restarts.last > 0) restartsText = `${restarts.count} (${age(new Date(restarts.last).toISOString(), now)} ago)`;
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

function readinessGates(pod: KubeObject): string {
  const gates = objs(obj(pod.spec).readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = objs(obj(pod.status).conditions);
  let trueCount = 0;
  for (const gate of gates) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (c?.status === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

export const podPrinter = tablePrinter<PodSummary>(
  [
    NAME,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.', (r) => r.view.ready),
    col('Status', 'string', 'The aggregate status of the containers in this pod.', (r) => r.view.status),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', (r) => r.view.restarts),
    AGE,
    wide('IP', 'string', POD_IP, (r) => noneIfEmpty(objs(r.status.podIPs)[0]?.ip)),
    wide('Node', 'string', POD_NODE_NAME, (r) => noneIfEmpty(r.spec.nodeName)),
    wide('Nominated Node', 'string', POD_NOMINATED_NODE_NAME, (r) => noneIfEmpty(r.status.nominatedNodeName)),
    wide('Readiness Gates', 'string', POD_READINESS_GATES, (r) => readinessGates(r.object)),
  ],
  { view: podSummary, conditions: (pod) => own(podConditions, str(obj(pod.status).phase)) },
);
