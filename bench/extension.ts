/**
 * The extension host's longest block while a big apply settles: what the extension runs for
 * "KubeSim: Apply" of a manifest of Deployments (the cluster in the engine worker started from
 * dist/engine-worker.mjs with the same protocol, src/protocol/engine.ts, and the extension's
 * settings, its Pacer at x100 on the real wall clock, the apply as the current user, the tree's
 * stream and the language server's mirror feed, whose notifications are serialized as the
 * language client would), until every pod is Ready in the tree's view. A probe on the host's
 * event loop (a 5 ms interval, the gap between its runs beyond 5 ms) and
 * perf_hooks.monitorEventLoopDelay record how long the loop was held; the kernel's schedstat of
 * the host's thread says how much of the longest gap it was running (its own work, or its GC)
 * and how much it waited for a CPU (the machine's other processes).
 *
 *   extension.block  block_max_ms (the probe's longest gap: what a keystroke could wait),
 *                    block_max_oncpu_ms (of it, the thread on a CPU), oncpu_gap_max_ms (the most
 *                    CPU the thread used within any one gap), block_p99_ms, loop_delay_max_ms and
 *                    loop_delay_p99_ms (monitorEventLoopDelay), gc_max_ms (the host's longest GC
 *                    pause), wall_ms to all Ready, host_peak_heap_mb (the extension host's thread),
 *                    worker_peak_heap_mb (the engine's, sampled every second), max_rss_mb, load,
 *                    host_heap_after_gc_mb (what the host keeps once settled), host_view_events
 *
 *   npm run bench -- extension [--json] [--pods 3000] [--nodes PODS/30] [--replicas 100]
 *                              [--engine worker|thread|thread,worker] [--pods-per-node N]
 *                              [--max-heap-mb 8192] [--worker-file dist/engine-worker.mjs]
 *                              [--max-wall-s N: end there with the figures so far, ready < pods]
 *   npm run bench -- extension --json --pods 30000      # issue 13's figure: 1,000 nodes, 30,000 pods
 *
 * engine=worker (the default) is what the extension runs; engine=thread runs the cluster in the
 * extension host's own thread (as before issue 13) for comparison. The worker bundle is looked
 * for beside this bundle (dist/), then in dist/ of the checkout and of the working directory,
 * with the chunks it imports; a missing one is an error that names it, and a worker that does
 * not start in 5 minutes fails the run.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { ClusterHost } from '../src/extension/cluster-host';
import { DEFAULT_ENGINE_HEAP_MB, EngineClient } from '../src/extension/engine/client';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../src/extension/settings';
import type { ClusterView, ViewObject } from '../src/extension/view-types';
import type { MirrorSyncParams } from '../src/protocol/language-server';
import { gc, heapUsedBytes, nowMs, percentile, Reporter, schedstat, type BenchSuite } from './report';
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
  private lastSched = schedstat();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly histogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly gcObserver: PerformanceObserver;
  peakHeap = 0;
  gcMax = 0;
  /** The longest gap's time on a CPU and waiting for one (ms). */
  longest = { gap: 0, oncpu: NaN, waiting: NaN };
  /** The most CPU time the thread used within one gap (ms). */
  oncpuMax = 0;

  constructor() {
    this.histogram.enable();
    this.gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.duration > this.gcMax) this.gcMax = e.duration;
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
    this.timer = setInterval(() => {
      const now = nowMs();
      const sched = schedstat();
      const gap = Math.max(0, now - this.last - PROBE_MS);
      this.gaps.push(gap);
      if (sched && this.lastSched) {
        const oncpu = (sched.run - this.lastSched.run) / 1e6;
        if (oncpu > this.oncpuMax) this.oncpuMax = oncpu;
        if (gap > this.longest.gap) this.longest = { gap, oncpu, waiting: (sched.wait - this.lastSched.wait) / 1e6 };
      } else if (gap > this.longest.gap) this.longest = { gap, oncpu: NaN, waiting: NaN };
      this.last = now;
      this.lastSched = sched;
      if (this.gaps.length % 20 === 0) this.peakHeap = Math.max(this.peakHeap, heapUsedBytes());
    }, PROBE_MS);
  }

  /** The longest gap so far. */
  get maxSoFar(): number {
    return this.longest.gap;
  }

  stop(): { max: number; p99: number; p999: number; over50: number; samples: number; loopDelayMax: number; loopDelayP99: number } {
    clearInterval(this.timer);
    this.histogram.disable();
    this.gcObserver.disconnect();
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

/**
 * dist/engine-worker.mjs, with the chunks it imports: beside this bundle, then in dist/ of the
 * checkout and of the working directory (a bench bundle copied elsewhere still finds the build).
 */
export function findWorkerFile(given?: string): string {
  const candidates = given ? [path.resolve(given)] : [...new Set([path.join(__dirname, 'engine-worker.mjs'), path.resolve(__dirname, '..', 'dist', 'engine-worker.mjs'), path.resolve(process.cwd(), 'dist', 'engine-worker.mjs')])];
  const problems: string[] = [];
  for (const file of candidates) {
    if (!existsSync(file)) {
      problems.push(`${file}: not found`);
      continue;
    }
    const chunks = [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*["'](\.\/chunk-[\w-]+\.mjs)["']/g)].map((m) => m[1]!);
    const missing = [...new Set(chunks)].filter((c) => !existsSync(path.join(path.dirname(file), c)));
    if (missing.length === 0) return file;
    problems.push(`${file}: its chunks ${missing.join(', ')} are missing (a stale or partial copy of dist/)`);
  }
  throw new Error(`bench extension: no engine worker bundle to start (npm run build makes dist/engine-worker.mjs):\n  ${problems.join('\n  ')}`);
}

const START_TIMEOUT_MS = 300_000;

/** What the bench needs of a running cluster, however it is hosted. */
interface BenchHost {
  apply(file: string, text: string): Promise<{ action: string; message: string }[]>;
  /** The tree's view of the cluster, as the host keeps it. */
  readonly view: ClusterView;
  /** The status bar's read. */
  summary(): Promise<{ pods: { running: number } }>;
  /** The worker's messages: the longest the host's thread spent on one (the deserialization is before it). */
  handling?: { maxMs: number; messages: number };
  /** The engine worker's heap in use (bytes). */
  workerHeap?(): Promise<number>;
  dispose(): Promise<void>;
}

async function threadHost(settings: KubeSimSettings, mirror: (p: MirrorSyncParams) => void): Promise<BenchHost> {
  const host = await ClusterHost.start({ settings, mirror, onError: (err) => console.error(err) });
  return {
    apply: (file, text) => host.apply(file, text),
    view: host.view,
    summary: () => host.summary(),
    dispose: () => host.dispose(),
  };
}

/** The same, in the engine worker: what the extension host's thread then does is receive the stream. */
async function workerHost(settings: KubeSimSettings, mirror: (p: MirrorSyncParams) => void, maxHeapMB: number, workerFile: string): Promise<BenchHost> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`bench extension: the engine worker (${workerFile}) did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS)));
  const client = await Promise.race([EngineClient.start({ workerFile, settings, maxHeapMB, from: 'fresh', mirror, onNotice: (_severity, m) => console.error(m), onCrash: (m) => console.error(m) }), timeout]).finally(() => clearTimeout(timer));
  return {
    apply: (file, text) => client.call('apply', { file, text, dryRun: false }),
    view: client.view,
    summary: () => client.call('summary', {}),
    handling: client.handling,
    workerHeap: async () => (await client.call('heap', {})).used,
    dispose: () => client.dispose(),
  };
}

const mb = (bytes: number): number => Math.round(bytes / 1e6);

/** Ready as the tree shows a pod: kubectl's READY cell whole ("1/1"; the bench's pods have no readiness gates). */
function isReady(v: ViewObject | undefined): boolean {
  const [ready, total] = String(v?.row.ready ?? '').split('/');
  return ready !== undefined && ready === total && Number(total) > 0;
}

interface RunOptions {
  settings: KubeSimSettings;
  deployments: number;
  replicas: number;
  maxHeapMB: number;
  progressMs: number;
  workerFile: string;
  /** 0: no limit. */
  maxWallMs: number;
}

async function run(r: Reporter, mode: 'thread' | 'worker', o: RunOptions): Promise<void> {
  const { settings, deployments, replicas } = o;
  const pods = deployments * replicas;
  let mirrorBytes = 0;
  // The language client serializes each notification to its server (JSON over IPC).
  const mirror = (p: MirrorSyncParams): void => {
    mirrorBytes += JSON.stringify(p).length;
  };
  gc();
  const setupStart = nowMs();
  const host = mode === 'thread' ? await threadHost(settings, mirror) : await workerHost(settings, mirror, o.maxHeapMB, o.workerFile);
  const setupMs = nowMs() - setupStart;
  const ready = new Set<string>();
  // Pods Running as the cluster's own informers count them (the status bar's summary): ahead of the tree's view when its stream lags.
  let running = 0;
  let readyAt = 0;
  let resolveReady: () => void = () => undefined;
  const allReady = new Promise<void>((resolve) => (resolveReady = resolve));
  // The status bar: a summary at most every 250 ms after changes.
  let summaryTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = host.view.onChange((changes) => {
    lastProgress = nowMs();
    for (const c of changes) {
      if (c.kind !== 'pods') continue;
      if (c.type !== 'DELETED' && isReady(host.view.get('pods', c.key))) ready.add(c.key);
      else ready.delete(c.key);
    }
    if (ready.size >= pods && readyAt === 0) {
      readyAt = nowMs();
      resolveReady();
    }
    summaryTimer ??= setTimeout(() => {
      summaryTimer = undefined;
      void host.summary().then((s) => (running = s.pods.running), () => undefined);
    }, 250);
  });
  // A run whose view stops changing for 3 minutes of wall time ends there (its ready count says how far it got).
  let lastProgress = nowMs();
  const stall = setInterval(() => {
    if (nowMs() - lastProgress > 180_000) resolveReady();
  }, 1000);
  // The engine's heap, once a second (a call the worker answers between its turns).
  let workerPeak = 0;
  let sampling = false;
  const heapTimer = host.workerHeap
    ? setInterval(() => {
        if (sampling) return;
        sampling = true;
        void host.workerHeap!()
          .then((b) => (workerPeak = Math.max(workerPeak, b)), () => undefined)
          .finally(() => (sampling = false));
      }, 1000)
    : undefined;
  const progress = setInterval(() => r.note(`  ${mode}: ${Math.round((nowMs() - start) / 1000)}s wall, ${ready.size}/${pods} Ready in the tree (${running} Running in the cluster), host heap ${mb(heapUsedBytes())} MB${host.workerHeap ? `, worker heap peak ${mb(workerPeak)} MB` : ''}, longest block so far ${probe.maxSoFar.toFixed(1)} ms (on a CPU ${probe.longest.oncpu.toFixed(1)} ms, waiting for one ${probe.longest.waiting.toFixed(1)} ms; most CPU in one gap ${probe.oncpuMax.toFixed(1)} ms), load ${loadavg()[0]!.toFixed(1)}`), o.progressMs);
  const probe = new BlockProbe();
  const start = nowMs();
  // --max-wall-s bounds the apply's reply too (a big apply is answered after its last document).
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    if (o.maxWallMs > 0) deadlineTimer = setTimeout(() => resolve(undefined), o.maxWallMs);
  });
  const results = await Promise.race([host.apply('bench.yaml', deploymentsManifest(deployments, replicas)), deadline]);
  const applyMs = results ? nowMs() - start : NaN;
  const failed = results?.find((x) => x.action === 'failed');
  if (failed) throw new Error(failed.message);
  await Promise.race([allReady, deadline]);
  if (deadlineTimer) clearTimeout(deadlineTimer);
  const wallMs = (readyAt || nowMs()) - start;
  const block = probe.stop();
  clearInterval(progress);
  clearInterval(stall);
  if (heapTimer) clearInterval(heapTimer);
  if (host.workerHeap) workerPeak = Math.max(workerPeak, (await Promise.race([host.workerHeap(), new Promise<number>((resolve) => setTimeout(() => resolve(0), 10_000))])) || 0);
  stop();
  if (summaryTimer) clearTimeout(summaryTimer);
  const round = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);
  // What the host keeps (the tree's view and the rest) once the garbage is collected.
  gc();
  const retained = heapUsedBytes();
  r.record({
    bench: 'extension.block',
    engine: mode,
    nodes: settings.nodes.count,
    pods,
    ready: ready.size,
    block_max_ms: round(block.max),
    block_max_oncpu_ms: round(probe.longest.oncpu),
    block_max_waiting_ms: round(probe.longest.waiting),
    oncpu_gap_max_ms: round(probe.oncpuMax),
    block_p99_ms: round(block.p99),
    block_p999_ms: round(block.p999),
    blocks_over_50ms: block.over50,
    probe_samples: block.samples,
    loop_delay_max_ms: round(block.loopDelayMax),
    loop_delay_p99_ms: round(block.loopDelayP99),
    gc_max_ms: round(probe.gcMax),
    setup_ms: Math.round(setupMs),
    apply_ms: Number.isFinite(applyMs) ? Math.round(applyMs) : null,
    wall_ms: Math.round(wallMs),
    host_peak_heap_mb: mb(Math.max(probe.peakHeap, heapUsedBytes())),
    host_heap_after_gc_mb: mb(retained),
    // Events the host's view holds (engine=worker: the newest the tree lists; thread: every one).
    host_view_events: host.view.count('events'),
    ...(host.workerHeap ? { worker_peak_heap_mb: mb(workerPeak) } : {}),
    // The whole process (both threads), since it started: with both engines in one run, the worker's figure includes the thread run's peak.
    max_rss_mb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
    mirror_mb: mb(mirrorBytes),
    ...(host.handling ? { messages: host.handling.messages, message_max_ms: round(host.handling.maxMs) } : {}),
    load1: round(loadavg()[0]!),
  });
  await host.dispose();
}

const suite: BenchSuite = async (args) => {
  const r = Reporter.fromArgs(args);
  const totalPods = Number(option(args, '--pods', '3000'));
  const replicas = Number(option(args, '--replicas', '100'));
  // 30 pods a node, as issue 13's 1,000 nodes for 30,000 pods.
  const nodes = Number(option(args, '--nodes', String(Math.max(1, Math.ceil(totalPods / 30)))));
  const podsPerNode = Number(option(args, '--pods-per-node', String(DEFAULT_SETTINGS.nodes.pods)));
  const deployments = Math.ceil(totalPods / replicas);
  for (const [name, v] of [['--pods', totalPods], ['--replicas', replicas], ['--nodes', nodes], ['--pods-per-node', podsPerNode]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name}: expected a positive integer`);
  }
  if (nodes * Math.min(podsPerNode, 253) < deployments * replicas) throw new Error(`${nodes} nodes of ${podsPerNode} pods (and 253 addresses) each cannot hold ${deployments * replicas} pods: raise --nodes or --pods-per-node`);
  const settings: KubeSimSettings = {
    ...DEFAULT_SETTINGS,
    nodes: { ...DEFAULT_SETTINGS.nodes, count: nodes, pods: podsPerNode },
    speed: 100,
    persistence: false,
  };
  const engines = option(args, '--engine', 'worker').split(',');
  for (const mode of engines) if (mode !== 'thread' && mode !== 'worker') throw new Error(`--engine: thread or worker, got ${mode}`);
  const given = option(args, '--worker-file', '');
  const workerFile = engines.includes('worker') ? findWorkerFile(given || undefined) : '';
  r.note(`extension.block: ${nodes} nodes (${podsPerNode} pods each), ${deployments} Deployments x ${replicas} pods, speed x100${workerFile ? `, worker ${workerFile}` : ''}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const maxHeapMB = Number(option(args, '--max-heap-mb', String(DEFAULT_ENGINE_HEAP_MB)));
  for (const mode of engines) {
    await run(r, mode as 'thread' | 'worker', { settings, deployments, replicas, maxHeapMB, progressMs: Number(option(args, '--progress-s', '30')) * 1000, workerFile, maxWallMs: Number(option(args, '--max-wall-s', '0')) * 1000 });
    gc();
  }
};

export default suite;
