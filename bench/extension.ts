/**
 * The extension host's longest block while a big apply settles: what the extension runs for
 * "KubeSim: Apply" of a manifest of Deployments (ClusterHost.start with the extension's
 * settings, its Pacer at x100 on the real wall clock, the apply as the current user, the
 * informers of the Cluster tree, the state log of the panel and the language server's mirror
 * feed, whose notifications are serialized as the language client would), until every pod is
 * Ready in the tree's view. A probe on the host's event loop (a 5 ms interval, the gap between
 * its runs beyond 5 ms) and perf_hooks.monitorEventLoopDelay record how long the loop was held.
 *
 *   extension.block  block_max_ms (the probe's longest gap: what a keystroke could wait),
 *                    block_p99_ms, loop_delay_max_ms (monitorEventLoopDelay), wall_ms, peak heap
 *                    of the extension host's thread (the engine's too when it runs there)
 *
 *   npm run bench -- extension [--json] [--engine thread,worker] [--nodes 125] [--pods-per-node 253]
 *                              [--deployments 300] [--replicas 100] [--max-heap-mb 8192]
 *
 * engine=thread runs the cluster in the extension host's own thread (as before issue 13);
 * engine=worker runs it in the engine worker (src/extension/engine), the extension host's thread
 * receiving the tree's stream and the mirror's events as the extension does. Side by side in one run.
 *
 * The defaults are a 30,000-pod cluster: 125 workers (kubesim.nodes.count) accepting 253 pods
 * each (kubesim.nodes.pods), as many as a node's /24 podCIDR has addresses for (host-local's .2 to
 * .254): the DaemonSets' pods use the host's network, the 30,000 and the system's own fit with
 * room. (With more pods a node than addresses, the pods past the 253rd stay ContainerCreating:
 * the earlier default of 100 nodes x 320 stopped at 25,300 Ready for that.) The machine's load
 * (os.loadavg) is printed with the figures: the probe measures the thread's wall-clock gaps, and
 * a shared machine's other processes show in it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import path from 'node:path';
import { ClusterHost } from '../src/extension/cluster-host';
import { DEFAULT_ENGINE_HEAP_MB, EngineClient } from '../src/extension/engine/client';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../src/extension/settings';
import type { ViewChange } from '../src/extension/view-types';
import type { MirrorSyncParams } from '../src/protocol/language-server';
import { gc, heapUsedBytes, nowMs, percentile, Reporter, type BenchSuite } from './report';
import { deploymentsManifest } from './manifests';

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

const PROBE_MS = 5;

/** The gaps of a PROBE_MS interval beyond PROBE_MS: how long each turn of the loop was held. */
class BlockProbe {
  private readonly gaps: number[] = [];
  private last = nowMs();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly histogram = monitorEventLoopDelay({ resolution: 10 });
  peakHeap = 0;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => {
      const now = nowMs();
      this.gaps.push(Math.max(0, now - this.last - PROBE_MS));
      this.last = now;
      if (this.gaps.length % 20 === 0) this.peakHeap = Math.max(this.peakHeap, heapUsedBytes());
    }, PROBE_MS);
  }

  /** The longest gap so far. */
  get maxSoFar(): number {
    let m = 0;
    for (const g of this.gaps) if (g > m) m = g;
    return m;
  }

  stop(): { max: number; p99: number; p999: number; over50: number; samples: number; loopDelayMax: number; loopDelayP99: number } {
    clearInterval(this.timer);
    this.histogram.disable();
    const sorted = [...this.gaps].sort((a, b) => a - b);
    return {
      max: sorted.at(-1) ?? 0,
      p99: percentile(sorted, 99),
      p999: percentile(sorted, 99.9),
      over50: sorted.filter((g) => g > 50).length,
      samples: sorted.length,
      loopDelayMax: this.histogram.max / 1e6,
      loopDelayP99: this.histogram.percentile(99) / 1e6,
    };
  }
}


/** What the bench needs of a running cluster, however it is hosted. */
interface BenchHost {
  apply(file: string, text: string): Promise<{ action: string; message: string }[]>;
  onViewChange(listener: (changes: readonly ViewChange[]) => void): () => void;
  /** The status bar's read. */
  summary(): Promise<{ pods: { running: number } }>;
  /** The worker's messages: the longest the host's thread spent on one (the deserialization is before it). */
  handling?: { maxMs: number; messages: number };
  dispose(): Promise<void>;
}

async function threadHost(settings: KubeSimSettings, mirror: (p: MirrorSyncParams) => void): Promise<BenchHost> {
  const host = await ClusterHost.start({ settings, mirror, onError: (err) => console.error(err) });
  return {
    apply: (file, text) => host.apply(file, text),
    onViewChange: (l) => host.view.onChange(l),
    summary: () => host.summary(),
    dispose: () => host.dispose(),
  };
}

/** The same, in the engine worker: what the extension host's thread then does is receive the stream. */
async function workerHost(settings: KubeSimSettings, mirror: (p: MirrorSyncParams) => void, maxHeapMB: number): Promise<BenchHost> {
  const client = await EngineClient.start({ workerFile: path.join(__dirname, 'engine-worker.mjs'), settings, maxHeapMB, mirror, onNotice: (_severity, m) => console.error(m), onCrash: (m) => console.error(m) });
  return {
    apply: (file, text) => client.call('apply', { file, text, dryRun: false }),
    onViewChange: (l) => client.view.onChange(l),
    summary: () => client.call('summary', {}),
    handling: client.handling,
    dispose: () => client.dispose(),
  };
}

const mb = (bytes: number): number => Math.round(bytes / 1e6);

function isReady(o: ViewChange['object']): boolean {
  const conditions = (o.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

async function run(r: Reporter, mode: 'thread' | 'worker', settings: KubeSimSettings, deployments: number, replicas: number, maxHeapMB: number, progressMs: number): Promise<void> {
  const pods = deployments * replicas;
  let mirrorBytes = 0;
  // The language client serializes each notification to its server (JSON over IPC).
  const mirror = (p: MirrorSyncParams): void => {
    mirrorBytes += JSON.stringify(p).length;
  };
  gc();
  const setupStart = nowMs();
  const host = mode === 'thread' ? await threadHost(settings, mirror) : await workerHost(settings, mirror, maxHeapMB);
  const setupMs = nowMs() - setupStart;
  const ready = new Set<string>();
  // Pods Running as the cluster's own informers count them (the status bar's summary): ahead of the tree's view when its stream lags.
  let running = 0;
  let resolveReady: () => void = () => undefined;
  const allReady = new Promise<void>((resolve) => (resolveReady = resolve));
  // The status bar: a summary at most every 250 ms after changes.
  let summaryTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = host.onViewChange((changes) => {
    lastProgress = nowMs();
    for (const c of changes) {
      if (c.kind !== 'pods') continue;
      if (c.type !== 'DELETED' && isReady(c.object)) ready.add(c.key);
      else ready.delete(c.key);
    }
    if (ready.size >= pods) resolveReady();
    summaryTimer ??= setTimeout(() => {
      summaryTimer = undefined;
      void host.summary().then((s) => (running = s.pods.running));
    }, 250);
  });
  // A run whose view stops changing for 3 minutes of wall time ends there (its ready count says how far it got).
  let lastProgress = nowMs();
  const stall = setInterval(() => {
    if (nowMs() - lastProgress > 180_000) resolveReady();
  }, 1000);
  const progress = setInterval(() => r.note(`  ${mode}: ${Math.round((nowMs() - start) / 1000)}s wall, ${ready.size}/${pods} Ready in the tree (${running} Running in the cluster), heap ${mb(heapUsedBytes())} MB, longest block so far ${probe.maxSoFar.toFixed(1)} ms, load ${loadavg()[0]!.toFixed(1)}`), progressMs);
  const probe = new BlockProbe();
  const start = nowMs();
  const results = await host.apply('bench.yaml', deploymentsManifest(deployments, replicas));
  const applyMs = nowMs() - start;
  const failed = results.find((x) => x.action === 'failed');
  if (failed) throw new Error(failed.message);
  await allReady;
  const wallMs = nowMs() - start;
  const block = probe.stop();
  clearInterval(progress);
  clearInterval(stall);
  stop();
  if (summaryTimer) clearTimeout(summaryTimer);
  r.record({
    bench: 'extension.block',
    engine: mode,
    nodes: settings.nodes.count,
    pods,
    ready: ready.size,
    block_max_ms: Math.round(block.max * 10) / 10,
    block_p99_ms: Math.round(block.p99 * 10) / 10,
    block_p999_ms: Math.round(block.p999 * 10) / 10,
    blocks_over_50ms: block.over50,
    probe_samples: block.samples,
    loop_delay_max_ms: Math.round(block.loopDelayMax * 10) / 10,
    loop_delay_p99_ms: Math.round(block.loopDelayP99 * 10) / 10,
    setup_ms: Math.round(setupMs),
    apply_ms: Math.round(applyMs),
    wall_ms: Math.round(wallMs),
    host_peak_heap_mb: mb(Math.max(probe.peakHeap, heapUsedBytes())),
    // The whole process (both threads), since it started: with both engines in one run, the worker's figure includes the thread run's peak.
    max_rss_mb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
    mirror_mb: mb(mirrorBytes),
    ...(host.handling ? { messages: host.handling.messages, message_max_ms: Math.round(host.handling.maxMs * 10) / 10 } : {}),
    load1: Math.round(loadavg()[0]! * 10) / 10,
  });
  await host.dispose();
}

const suite: BenchSuite = async (args) => {
  const r = Reporter.fromArgs(args);
  const nodes = Number(option(args, '--nodes', '125'));
  const podsPerNode = Number(option(args, '--pods-per-node', '253'));
  const deployments = Number(option(args, '--deployments', '300'));
  const replicas = Number(option(args, '--replicas', '100'));
  const settings: KubeSimSettings = {
    ...DEFAULT_SETTINGS,
    nodes: { ...DEFAULT_SETTINGS.nodes, count: nodes, pods: podsPerNode },
    speed: 100,
    persistence: false,
  };
  r.note(`extension.block: ${nodes} nodes (${podsPerNode} pods each), ${deployments} Deployments x ${replicas} pods, speed x100; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const maxHeapMB = Number(option(args, '--max-heap-mb', String(DEFAULT_ENGINE_HEAP_MB)));
  for (const mode of option(args, '--engine', 'thread,worker').split(',')) {
    if (mode !== 'thread' && mode !== 'worker') throw new Error(`--engine: thread or worker, got ${mode}`);
    await run(r, mode, settings, deployments, replicas, maxHeapMB, Number(option(args, '--progress-s', '30')) * 1000);
    gc();
  }
};

export default suite;
