/**
 * The whole control plane at scale, through the real cluster path (every write an API request,
 * every reader an informer on a watch):
 *
 *  scheduler    5,000 nodes (Node objects written through the API server), then 10,000 and
 *               50,000 pods created through the API server; then kube-scheduler (its informers,
 *               the default plugins, bindings through pods/binding, events, records) is started
 *               and schedules them. pods/s = pods bound / wall time from its start until the
 *               cluster settles; pods_per_cpu_s the same over the process's CPU time.
 *               (bench/scheduler.ts measures the algorithm alone against a fake API server.)
 *  deployments  createCluster with 1,000 nodes (kubelets, kube-controller-manager, scheduler),
 *               300 Deployments of 100 pods applied, until every pod is Ready (checked each
 *               virtual second): wall time, virtual time, peak heap and peak RSS.
 *               Run with the default store (3 etcd members, the latency model) and with one
 *               member at instant latency (today's timing before the model was on): the
 *               wall-time ratio is what the latency model and Raft cost. Each run has a fresh
 *               process of its own (this runner again, with node's flags and heap limit), so
 *               neither inherits the other's grown heap or compiled code; --in-process runs
 *               them one after the other in this process instead (the method before).
 *               --repeat N runs N rounds (pairs) of the modes, alternating which runs first
 *               (it meets the machine's load at another moment; in one process it also pays
 *               for compilation and a smaller heap): each round prints its wall and CPU ratio
 *               and load average, then the per-mode median wall and CPU time, every round's
 *               ratio, their median and the load before and after.
 *  large        the same with 5,000 nodes and 1,500 Deployments (150,000 pods): Kubernetes'
 *               published scalability limits.
 *  ceiling      the simulated etcd alone (3 members, no API server): W writers each putting
 *               1 KiB values in a loop for one virtual second, over a sweep of WAL fsync and
 *               round-trip time: writes/s the leader commits and the mean write latency, in
 *               virtual time (see docs/benchmarks.md for the formula they follow).
 *
 * Tracing stays on (a small ring buffer; scheduler records at 'summary' unless --detail says).
 *
 *   npm run bench -- cluster [--json] [--quick] [--only scheduler,deployments,large,ceiling] [--detail off|summary|full]
 *                            [--nodes N --deployments N --replicas N]   (sizes the deployments run)
 *                            [--etcd 3/model,1/instant]   (the stores the deployments run compares)
 *                            [--repeat N]   (N rounds of those stores, alternating which runs first; median ratio)
 *                            [--in-process]   (those runs in this process, one after the other, not each in a fresh one)
 *                            [--counts]   (the deployments run's work units per store: bench/work-counts.ts)
 *                            [--writers 1,16,256]   (the ceiling's writer counts)
 */
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import { createCluster, type Cluster } from '../src/engine/cluster';
import type { ClockHost } from '../src/engine/clock';
import { KubeScheduler } from '../src/engine/components/kube-scheduler';
import { applyManifestText } from '../src/engine/kubectl/apply';
import { NODES, PODS } from '../src/engine/client/resources';
import type { RecordDetail } from '../src/engine/scheduler/record';
import type { KubeObject } from '../src/engine/api/types';
import { Clock } from '../src/engine/clock';
import { Random } from '../src/engine/random';
import { createSimulatedEtcd } from '../src/engine/store/etcdserver';
import { deploymentManifest } from './manifests';
import { installWorkCounter } from './work-counts';
import { freshRunArgs, parseEtcdModes, parseRepeat, roundOrder, summarizeRounds, type DeploymentsRun, type EtcdMode, type ModeRound } from './etcd-modes';
import { Reporter, gc, heapUsedBytes, nowMs, type BenchRecord, type BenchSuite } from './report';

const TRACE_CAPACITY = 10_000;

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

/**
 * A ClockHost that samples the heap every few thousand clock steps and yields to the event loop
 * once per wall second (so a progress timer can report on a long virtual instant).
 */
function heapSampler(onYield?: () => void): { host: ClockHost; peak(): number; reset(): void } {
  let peak = 0;
  let calls = 0;
  let lastYield = nowMs();
  return {
    host: {
      yieldToHost: () => {
        onYield?.();
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            lastYield = nowMs();
            resolve();
          }),
        );
      },
      shouldYield: () => {
        if (++calls % 4096 !== 0) return false;
        peak = Math.max(peak, heapUsedBytes());
        return nowMs() - lastYield > 1000;
      },
    },
    peak: () => Math.max(peak, heapUsedBytes()),
    reset: () => {
      peak = 0;
    },
  };
}

const mb = (bytes: number): number => Math.round(bytes / 1e6);
const maxRssMb = (): number => Math.round((process.resourceUsage().maxRSS * 1024) / 1e6);

/** A Node as a kubelet would register it, written by the admin (scheduler_perf's fake nodes). */
function nodeObject(i: number): KubeObject {
  const name = `node-${i}`;
  const resources = { cpu: '4', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 10}`, 'kubernetes.io/os': 'linux' } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  };
}

function podObject(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'default' },
    spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
  };
}

async function schedulerThroughput(r: Reporter, nodes: number, pods: number, detail: RecordDetail): Promise<void> {
  const cluster = await createCluster({ seed: 'bench', bare: true, traceCapacity: TRACE_CAPACITY });
  const admin = cluster.client();
  for (let i = 0; i < nodes; i++) {
    await admin.resource(NODES).create(nodeObject(i));
    // What the node lifecycle controller does for a Ready node: drop the registration taint (TaintNodesByCondition).
    await admin.resource(NODES).patch(`node-${i}`, 'merge', { spec: { taints: null } });
  }
  await admin.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  // The pods first, the scheduler after: with the etcd latency model each awaited create moves
  // the virtual clock, so a scheduler already running would bind most pods inside the create
  // loop and the timed part below would not be the whole path. Started on the backlog, the
  // scheduler's informers list the pods, and every cycle, binding and Event is timed.
  await cluster.settle();
  gc();
  const createStart = nowMs();
  for (let i = 0; i < pods; i++) await admin.resource(PODS, 'default').create(podObject(i));
  const createMs = nowMs() - createStart;
  await cluster.settle();
  gc();
  const cpuBefore = process.cpuUsage();
  const start = nowMs();
  const scheduler = new KubeScheduler({ server: cluster.server, clock: cluster.clock, random: cluster.random, trace: cluster.trace, recordDetail: detail });
  await cluster.add(scheduler);
  const run = await cluster.settle({ maxSteps: 100_000_000 });
  const wall = nowMs() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const bound = (await admin.resource<KubeObject & { spec: { nodeName?: string } }>(PODS, 'default').list({ resourceVersion: '0' })).items.filter((p) => p.spec.nodeName).length;
  r.record({
    bench: 'cluster.scheduler',
    nodes,
    pods,
    detail,
    bound,
    settled: run.settled,
    create_ms: Math.round(createMs),
    creates_per_s: Math.round((pods / createMs) * 1000),
    wall_ms: Math.round(wall),
    pods_per_s: Math.round((bound / wall) * 1000),
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    /** Pods bound per second of this process's CPU: the figure a shared machine's load moves least. */
    pods_per_cpu_s: Math.round((bound / ((cpu.user + cpu.system) / 1e6)) || 0),
    heap_mb: mb(heapUsedBytes()),
  });
  await cluster.close();
}


async function readyPods(cluster: Cluster): Promise<number> {
  const pods = (await cluster.client().resource<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(PODS, 'default').list({ resourceVersion: '0' })).items;
  return pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
}

/**
 * Runs virtual time a second at a time until every pod is Ready (or nothing is left to do),
 * noting progress: the wall time measured is the time until all pods are Ready.
 */
async function untilReady(r: Reporter, cluster: Cluster, pods: number, wallStart: number, virtualStart: number, sampler: { peak(): number }): Promise<{ ready: number; quiescent: boolean }> {
  for (;;) {
    const steps = await cluster.advance(1000);
    const ready = await readyPods(cluster);
    r.note(`  +${Math.round((cluster.clock.now() - virtualStart) / 1000)}s virtual, ${Math.round((nowMs() - wallStart) / 1000)}s wall: ${ready}/${pods} Ready, heap ${mb(sampler.peak())} MB`);
    if (ready >= pods) return { ready, quiescent: false };
    if (steps === 0 && cluster.clock.isQuiescent()) return { ready, quiescent: true };
  }
}

async function deploymentsUntilReady(r: Reporter, bench: string, nodes: number, deployments: number, replicas: number, detail: RecordDetail, etcd?: EtcdMode, count = false, round?: number): Promise<{ wall: number; cpu: number }> {
  const counter = count ? installWorkCounter() : undefined;
  const sampler = heapSampler(counter ? () => counter.yielded() : undefined);
  const setupStart = nowMs();
  const cluster = await createCluster({
    seed: 'bench',
    nodes: { count: nodes },
    traceCapacity: TRACE_CAPACITY,
    schedulerRecordDetail: detail,
    clockHost: sampler.host,
    ...(etcd ? { etcd: { members: etcd.members, latency: etcd.latency } } : {}),
  });
  const setupMs = nowMs() - setupStart;
  const setupCounts = counter?.phase();
  counter?.attach(cluster);
  gc();
  sampler.reset();
  const heapBefore = heapUsedBytes();
  const virtualStart = cluster.clock.now();
  const start = nowMs();
  const cpuStart = process.cpuUsage();
  const admin = cluster.client();
  // Progress every 30 s of wall time: the store's revision (about ten per pod) and the heap. The
  // revision is a read through etcd at a moment of wall time: a counted run leaves it out, so
  // that its counts are the same on every run.
  const progress = counter
    ? undefined
    : setInterval(() => {
        void cluster.store.status().then((st) => r.note(`  ${Math.round((nowMs() - start) / 1000)}s wall: revision ${st.revision}, heap ${mb(heapUsedBytes())} MB`));
      }, 30_000);
  for (let i = 0; i < deployments; i++) {
    const [result] = await applyManifestText(admin, `app-${i}.yaml`, deploymentManifest(i, replicas));
    if (result?.action === 'failed') throw new Error(result.message);
  }
  const applyMs = nowMs() - start;
  const { ready } = await untilReady(r, cluster, deployments * replicas, start, virtualStart, sampler);
  const wall = nowMs() - start;
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(progress);
  const virtualMs = cluster.clock.now() - virtualStart;
  // A status read is a request like any other: with the latency model it needs the clock moved.
  const revision = (await cluster.drive(cluster.store.status())).revision;
  r.record({
    bench,
    ...(round !== undefined ? { round } : {}),
    ...(etcd ? { etcd: etcd.text } : {}),
    nodes,
    deployments,
    pods: deployments * replicas,
    ready,
    setup_ms: Math.round(setupMs),
    apply_ms: Math.round(applyMs),
    wall_ms: Math.round(wall),
    /** The process's CPU time over the same span: less sensitive than wall time to a loaded machine. */
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    virtual_s: Math.round(virtualMs / 1000),
    peak_heap_mb: mb(sampler.peak()),
    heap_growth_mb: mb(sampler.peak() - heapBefore),
    max_rss_mb: maxRssMb(),
    revision,
    load_1m: loadAverage(),
  });
  if (counter) {
    const counts = counter.finish(cluster);
    const prefix = (o: Record<string, number>, p: string) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${p}${k}`, v]));
    r.record({ bench: `${bench}.counts`, ...(etcd ? { etcd: etcd.text } : {}), ...prefix(setupCounts ?? {}, 'setup '), ...counts });
  }
  await cluster.close();
  return { wall, cpu: cpu.user + cpu.system };
}

/**
 * One run of cluster (b) with one store in a fresh process: this runner's script again, under
 * node's own flags (--expose-gc, the heap limit), with the run's arguments (freshRunArgs). The
 * child's records are printed here as they come, with `tags` added (its notes go to stderr as
 * they are); this process waits, idle, for it to exit. Returns the run's wall and CPU time (ms)
 * from its cluster.deployments record: the same span deploymentsUntilReady times in process
 * (apply until all Ready; the child's start-up and createCluster are not in it).
 */
function deploymentsInFreshProcess(r: Reporter, mode: EtcdMode, run: DeploymentsRun, tags: Record<string, string | number>): Promise<{ wall: number; cpu: number }> {
  const script = process.argv[1];
  if (!script) throw new Error('bench cluster: no script to start a fresh process with (use --in-process)');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, script, ...freshRunArgs(mode, run)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let result: { wall: number; cpu: number } | undefined;
    let buffered = '';
    const line = (text: string): void => {
      let row: BenchRecord;
      try {
        row = JSON.parse(text) as BenchRecord;
      } catch {
        r.note(text);
        return;
      }
      if (row.bench === 'cluster.deployments' && typeof row.wall_ms === 'number' && typeof row.cpu_ms === 'number') result = { wall: row.wall_ms, cpu: row.cpu_ms * 1000 };
      r.record({ ...row, ...tags });
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const text = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (text) line(text);
      }
    });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (buffered.trim()) line(buffered.trim());
      if (code !== 0) fail(new Error(`bench cluster: the run with etcd ${mode.text} exited with ${signal ?? code}`));
      else if (!result) fail(new Error(`bench cluster: the run with etcd ${mode.text} printed no cluster.deployments record`));
      else done(result);
    });
  });
}

/** The machine's 1-minute load average, printed beside wall times (the machine is shared). */
function loadAverage(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

/** The 1, 5 and 15-minute load averages, as uptime prints them. */
function loadAverages(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The simulated etcd's write rate in virtual time: `writers` clients (round-robin over the
 * members, as kube-apiserver's etcd client is) each put a 1 KiB value, wait for the answer, and
 * put again, for `durationMs` of virtual time. No API server: only etcd's own latency (client to
 * member, forward to the leader, replication, fsyncs, commit back to the member).
 */
async function writeCeiling(r: Reporter, fsyncMs: number, rttMs: number, writers: number, durationMs: number): Promise<void> {
  const clock = new Clock(0);
  const store = createSimulatedEtcd(clock, { members: 3, latency: { apiserverMs: 0, rttMs, walFsyncMs: fsyncMs }, random: new Random('bench') });
  const value = 'x'.repeat(1024);
  let writes = 0;
  let latencySum = 0;
  let stop = false;
  const wallStart = nowMs();
  const loops = Array.from({ length: writers }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const t0 = clock.now();
      await store.put({ key: `/bench/${w}/${i % 16}`, value });
      if (stop) break;
      writes++;
      latencySum += clock.now() - t0;
    }
  });
  await clock.advance(durationMs);
  stop = true;
  const counted = writes;
  const latency = latencySum / counted;
  // Let the writes in flight finish, so that the writers' loops end.
  await clock.settle();
  await Promise.all(loops);
  await store.close();
  const perS = (counted * 1000) / durationMs;
  r.record({
    bench: 'cluster.etcd-ceiling',
    members: 3,
    fsync_ms: fsyncMs,
    rtt_ms: rttMs,
    writers,
    writes_per_s: Math.round(perS),
    mean_latency_ms: Math.round(latency * 1000) / 1000,
    /** Little's law: the rate the writers' latency allows (writers / mean latency). */
    writers_over_latency: Math.round((writers * 1000) / latency),
    /** Entries per leader WAL write if the leader's disk is busy all the time (writes/s x fsync). */
    writes_per_fsync: Math.round(((perS * fsyncMs) / 1000) * 10) / 10,
    wall_ms: Math.round(nowMs() - wallStart),
  });
}

const suite: BenchSuite = async (args) => {
  const r = Reporter.fromArgs(args);
  const quick = args.includes('--quick');
  const only = new Set(option(args, '--only', 'scheduler,deployments,large,ceiling').split(','));
  const detail = option(args, '--detail', 'summary') as RecordDetail;
  if (only.has('scheduler')) {
    const nodes = quick ? 500 : 5000;
    for (const pods of quick ? [1000, 5000] : [10_000, 50_000]) {
      r.note(`cluster.scheduler: ${nodes} nodes, ${pods} pods, records ${detail}...`);
      await schedulerThroughput(r, nodes, pods, detail);
      gc();
    }
  }
  if (only.has('deployments')) {
    const nodes = Number(option(args, '--nodes', quick ? '100' : '1000'));
    const deployments = Number(option(args, '--deployments', quick ? '30' : '300'));
    const replicas = Number(option(args, '--replicas', '100'));
    const modes = parseEtcdModes('cluster', option(args, '--etcd', '3/model,1/instant'));
    const repeat = parseRepeat('cluster', args.includes('--repeat') ? option(args, '--repeat', '') : undefined);
    // In process when asked, or when there is only one run (this is then the fresh process).
    const inProcess = args.includes('--in-process') || (modes.length === 1 && repeat === 1);
    const method = inProcess ? 'one process' : 'fresh process per run';
    const run: DeploymentsRun = { nodes, deployments, replicas, detail, counts: args.includes('--counts') };
    const rounds: ModeRound[] = [];
    const loadBefore = loadAverages();
    for (let round = 0; round < repeat; round++) {
      const order = roundOrder(modes, round);
      const wall = new Map<string, number>();
      const cpu = new Map<string, number>();
      const roundLoad = loadAverage();
      for (const mode of order) {
        r.note(`cluster.deployments${repeat > 1 ? ` round ${round + 1}/${repeat}` : ''}: ${nodes} nodes, ${deployments} Deployments x ${replicas} pods, etcd ${mode.members} member(s), ${mode.latency} latency${inProcess ? '' : ', in a fresh process'}...`);
        const times = inProcess
          ? await deploymentsUntilReady(r, 'cluster.deployments', nodes, deployments, replicas, detail, mode, run.counts, repeat > 1 ? round + 1 : undefined)
          : await deploymentsInFreshProcess(r, mode, run, { ...(repeat > 1 ? { round: round + 1 } : {}), process: 'fresh' });
        wall.set(mode.text, times.wall);
        cpu.set(mode.text, times.cpu / 1000);
        gc();
      }
      rounds.push({ wall, cpu });
      if (modes.length === 2) {
        const [a, b] = [modes[0]!.text, modes[1]!.text];
        r.record({
          bench: 'cluster.deployments.wall-ratio',
          ...(repeat > 1 ? { round: round + 1, first: order[0]!.text } : {}),
          etcd: `${a} : ${b}`,
          method,
          ratio: round3(wall.get(a)! / wall.get(b)!),
          cpu_ratio: round3(cpu.get(a)! / cpu.get(b)!),
          target: 1.1,
          ...(repeat > 1 ? { load_1m_before: roundLoad, load_1m_after: loadAverage() } : {}),
        });
      }
    }
    if (repeat > 1) {
      const sum = summarizeRounds(modes, rounds);
      const loadAfter = loadAverages();
      r.record({
        bench: 'cluster.deployments.rounds',
        nodes,
        pods: deployments * replicas,
        rounds: repeat,
        method,
        ...Object.fromEntries(sum.modes.flatMap((m) => [[`median_wall_ms ${m.text}`, Math.round(m.medianWallMs)], [`median_cpu_ms ${m.text}`, Math.round(m.medianCpuMs)]])),
        ...(modes.length === 2
          ? {
              etcd: `${modes[0]!.text} : ${modes[1]!.text}`,
              median_ratio: round3(sum.medianRatio),
              median_cpu_ratio: round3(sum.medianCpuRatio),
              ratios: sum.ratios.map(round3).join(' '),
              cpu_ratios: sum.cpuRatios.map(round3).join(' '),
              target: 1.1,
            }
          : {}),
        load_before: loadBefore,
        load_after: loadAfter,
      });
    }
  }
  if (only.has('large')) {
    const [nodes, deployments] = quick ? [500, 150] : [5000, 1500];
    r.note(`cluster.large: ${nodes} nodes, ${deployments} Deployments x 100 pods...`);
    await deploymentsUntilReady(r, 'cluster.large', nodes, deployments, 100, detail);
  }
  if (only.has('ceiling')) {
    const writers = option(args, '--writers', quick ? '1,64' : '1,16,256').split(',').map(Number);
    for (const fsyncMs of [1, 2, 10]) {
      for (const rttMs of [0.2, 1, 5]) {
        for (const w of writers) await writeCeiling(r, fsyncMs, rttMs, w, 1000);
      }
    }
  }
};

export default suite;
