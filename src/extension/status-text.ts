/**
 * The status bar item's text and tooltip: the etcd revision, the nodes, the pods running and
 * pending, and the clock (running or paused, and its speed); the tooltip also says where the
 * API endpoint serves, while it does.
 */

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
