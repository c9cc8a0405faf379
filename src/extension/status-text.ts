/**
 * The status bar item's text and tooltip: the etcd revision, the nodes, the pods running and
 * pending, and the clock (running or paused, and its speed); the tooltip also says where the
 * API endpoint serves, while it does. Also what a Step to next change did, in one line.
 */
import type { Described } from '../engine/timeline/describe';

export interface ClusterSummary {
  revision: number;
  nodes: { total: number; ready: number };
  pods: { running: number; pending: number; failed: number };
  clock: 'running' | 'paused';
  speed: number;
  /** Virtual time, ms since the epoch. */
  time: number;
  user: string;
}

export function speedLabel(speed: number): string {
  return `x${speed}`;
}

export function statusBarText(s: ClusterSummary | undefined): string {
  if (!s) return '$(server-environment) KubeSim';
  const clock = s.clock === 'running' ? `$(play) ${speedLabel(s.speed)}` : '$(debug-pause) paused';
  const nodes = s.nodes.ready === s.nodes.total ? `${s.nodes.total} nodes` : `${s.nodes.ready}/${s.nodes.total} nodes ready`;
  return `$(server-environment) rev ${s.revision} · ${nodes} · ${s.pods.running} running, ${s.pods.pending} pending · ${clock}`;
}

/** `extra`: lines about what else runs (the API endpoint), before the click hint. */
export function statusBarTooltip(s: ClusterSummary | undefined, extra: readonly string[] = []): string {
  if (!s) return 'KubeSim: the simulated Kubernetes 1.35 cluster starts when you first use it.\nClick to open the control plane.';
  const time = new Date(s.time).toISOString().replace('.000Z', 'Z');
  return [
    'KubeSim: simulated Kubernetes 1.35',
    `etcd revision ${s.revision}`,
    `Nodes: ${s.nodes.total} (${s.nodes.ready} Ready)`,
    `Pods: ${s.pods.running} running, ${s.pods.pending} pending, ${s.pods.failed} failed`,
    `Clock: ${s.clock === 'running' ? `running at ${speedLabel(s.speed)}` : 'paused'}, virtual time ${time}`,
    `User: ${s.user}`,
    ...extra,
    'Click to open the control plane.',
  ].join('\n');
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(3)}s`;
  const m = Math.floor(ms / 60_000);
  const rest = Math.round((ms - m * 60_000) / 1000);
  return rest ? `${m}m${rest}s` : `${m}m`;
}

/** What a Step to next change did: where it stopped, how far the clock moved, the first change. */
export interface StepReport {
  readonly stopped: 'change' | 'idle' | 'horizon';
  readonly elapsed: number;
  /** Virtual time after the step, ms since the epoch. */
  readonly time: number;
  readonly first?: Described;
  readonly changes: number;
}

/** "KubeSim: +1s: kubelet/kubesim-worker sandbox-created default/web-…: pod IP 10.244.2.2 (and 1 more change)". */
export function stepText(r: StepReport): string {
  const time = new Date(r.time).toISOString().replace('.000Z', 'Z');
  if (r.stopped === 'idle' || !r.first) return r.stopped === 'horizon' ? `KubeSim: no change in the next ${duration(r.elapsed)} of virtual time (heartbeats only); now ${time}` : 'KubeSim: nothing is pending';
  const more = r.changes > 1 ? ` (and ${r.changes - 1} more ${r.changes === 2 ? 'change' : 'changes'})` : '';
  const rev = r.first.revision !== undefined ? `rev ${r.first.revision} ` : '';
  return `KubeSim: +${duration(r.elapsed)}: ${rev}${r.first.actor} ${r.first.text}${more}`;
}
