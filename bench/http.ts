/**
 * The HTTP facade under load: W watchers (default 200) watch ConfigMaps over HTTPS while a writer
 * sends R writes/s (default 500: creates, updates and deletes) for D seconds (default 60). Every
 * watcher must see every event once, in order (resourceVersions strictly increase), and end with
 * the state a fresh list shows. Reports write latency (p50/p99; kube-apiserver's SLO for mutating
 * calls is p99 <= 1 s) and watch delivery figures. Watchers and the writer run in worker threads,
 * the cluster (a bare API server at x1 real time) on the main thread. server_cpu_s is the whole
 * process's CPU while the writer runs (watchers and writer included); server_thread_cpu_s and
 * server_thread_waiting_s are the main thread's time on a CPU and waiting for one (the kernel's
 * schedstat): on a shared machine the wait, not the work, is what stretches the latencies.
 *
 * The store is compared side by side: three Raft members under the latency model (the cluster's
 * default) beside one member in instant mode, each in its own run.
 *
 *   npm run bench -- http [--json] [--watchers 200] [--rate 500] [--duration 60] [--etcd 3/model,1/instant]
 */
import { Agent, request } from 'node:https';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createCluster } from '../src/engine/cluster';
import { ADMIN_USER } from '../src/engine/apiserver/authn/user';
import { Pacer } from '../src/engine/pacer';
import { realWallClock } from '../src/host/wall-clock';
import { startApiEndpoint } from '../src/http';
import { parseEtcdModes, type EtcdMode } from './etcd-modes';
import { loadavg } from 'node:os';
import { Reporter, nowMs, percentile, schedstat, type BenchSuite } from './report';

const NAMESPACE = 'bench';
const NAMES = 1000;
const WATCHER_THREADS = 4;

interface Target {
  url: string;
  ca: string;
  token: string;
}

interface WatcherJob extends Target {
  kind: 'watchers';
  count: number;
  fromRevision: string;
}

interface WriterJob extends Target {
  kind: 'writer';
  rate: number;
  durationMs: number;
}

interface WatcherReport {
  events: number;
  bookmarks: number;
  /** Events whose resourceVersion was not above the one before. */
  outOfOrder: number;
  lastRevision: number;
  /** name -> resourceVersion of what the watcher believes exists. */
  state: Record<string, string>;
  errors: string[];
}

interface WriterReport {
  writes: number;
  failures: number;
  latenciesMs: number[];
  lastRevision: number;
  elapsedMs: number;
}

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function send(t: Target, agent: Agent, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${t.token}`, Accept: 'application/json' };
    if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
    const req = request(`${t.url}${path}`, { method, headers, ca: t.ca, agent }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// --- worker threads -------------------------------------------------------------------------

/**
 * The type, name and resourceVersion of a watch event line, read without parsing the whole
 * object: the watchers would otherwise spend more CPU than the server they load. The first
 * "name" and "resourceVersion" of a ConfigMap event are its metadata's.
 */
function event(line: string): { type: string; name: string; resourceVersion: string; line: string } {
  const field = (key: string): string => {
    const at = line.indexOf(`"${key}":"`);
    return at < 0 ? '' : line.slice(at + key.length + 4, line.indexOf('"', at + key.length + 4));
  };
  return { type: field('type'), name: field('name'), resourceVersion: field('resourceVersion'), line };
}

function runWatchers(job: WatcherJob): void {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity, ca: job.ca });
  const reports: WatcherReport[] = [];
  let ready = 0;
  let finalRevision = Infinity;
  const doneWhenCaughtUp = () => {
    if (reports.every((r) => r.lastRevision >= finalRevision)) parentPort!.postMessage({ kind: 'report', reports });
  };
  for (let i = 0; i < job.count; i++) {
    const report: WatcherReport = { events: 0, bookmarks: 0, outOfOrder: 0, lastRevision: 0, state: {}, errors: [] };
    reports.push(report);
    const path = `/api/v1/namespaces/${NAMESPACE}/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=${job.fromRevision}`;
    const req = request(`${job.url}${path}`, { headers: { Authorization: `Bearer ${job.token}` }, ca: job.ca, agent }, (res) => {
      if (++ready === job.count) parentPort!.postMessage({ kind: 'ready' });
      let buffer = '';
      res.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const e = event(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          if (e.type === 'ERROR') {
            report.errors.push(e.line);
            continue;
          }
          const rv = Number(e.resourceVersion);
          if (e.type === 'BOOKMARK') {
            report.bookmarks++;
            if (rv < report.lastRevision) report.outOfOrder++;
          } else {
            report.events++;
            if (rv <= report.lastRevision) report.outOfOrder++;
            if (e.type === 'DELETED') delete report.state[e.name];
            else report.state[e.name] = e.resourceVersion;
          }
          report.lastRevision = Math.max(report.lastRevision, rv);
        }
        if (finalRevision !== Infinity) doneWhenCaughtUp();
      });
    });
    req.on('error', (err) => report.errors.push(String(err)));
    req.end();
  }
  parentPort!.on('message', (m: { kind: 'finish'; revision: number }) => {
    finalRevision = m.revision;
    doneWhenCaughtUp();
  });
}

async function runWriter(job: WriterJob): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: job.ca });
  const exists = new Set<string>();
  /** The write in flight per name: the next one on that name waits for it (no self-made conflicts). */
  const previous = new Map<string, Promise<unknown>>();
  const latencies: number[] = [];
  let failures = 0;
  let lastRevision = 0;
  const inflight: Promise<void>[] = [];
  const total = Math.round((job.rate * job.durationMs) / 1000);
  const start = nowMs();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / job.rate;
    const wait = due - nowMs();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const name = `cm-${i % NAMES}`;
    const base = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } });
    let method: string;
    let path = `${base}/${name}`;
    if (!exists.has(name)) {
      exists.add(name);
      method = 'POST';
      path = base;
    } else if (i % 7 === 0) {
      exists.delete(name);
      method = 'DELETE';
    } else {
      method = 'PUT';
    }
    let t0 = 0;
    const op = (previous.get(name) ?? Promise.resolve()).then(() => {
      t0 = nowMs();
      return send(job, agent, method, path, method === 'DELETE' ? undefined : body);
    });
    previous.set(name, op.catch(() => undefined));
    inflight.push(
      op.then(
        (res) => {
          latencies.push(nowMs() - t0);
          if (res.status >= 300) failures++;
          else {
            const rv = Number((JSON.parse(res.body) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? 0);
            lastRevision = Math.max(lastRevision, rv);
          }
        },
        () => void failures++,
      ),
    );
  }
  await Promise.all(inflight);
  const report: WriterReport = { writes: total, failures, latenciesMs: latencies, lastRevision, elapsedMs: nowMs() - start };
  parentPort!.postMessage(report);
  agent.destroy();
}

// --- the suite ------------------------------------------------------------------------------

function spawn<T>(job: WatcherJob | WriterJob, onMessage: (m: T, w: Worker) => void): Worker {
  const w = new Worker(__filename, { workerData: job, argv: process.argv.slice(2) });
  w.on('message', (m: T) => onMessage(m, w));
  w.on('error', (err) => {
    throw err;
  });
  return w;
}

const suite: BenchSuite = async (args) => {
  if (!isMainThread) {
    const job = workerData as WatcherJob | WriterJob;
    if (job.kind === 'watchers') runWatchers(job);
    else await runWriter(job);
    return;
  }
  const r = Reporter.fromArgs(args);
  const watchers = option(args, '--watchers', 200);
  const rate = option(args, '--rate', 500);
  const durationMs = option(args, '--duration', 60) * 1000;
  const at = args.indexOf('--etcd');
  for (const etcd of parseEtcdModes('http', at >= 0 ? (args[at + 1] ?? '') : '3/model,1/instant')) await watchLoad(r, etcd, watchers, rate, durationMs);
};

/** One run of the load against a bare API server on the given store. */
async function watchLoad(r: Reporter, etcd: EtcdMode, watchers: number, rate: number, durationMs: number): Promise<void> {
  const cluster = await createCluster({ seed: 'bench-http', bare: true, etcd: { members: etcd.members, latency: etcd.latency } });
  const endpoint = await startApiEndpoint({ api: cluster.server, clock: cluster.clock });
  const pacer = new Pacer(cluster.clock, realWallClock);
  pacer.resume();
  const target: Target = { url: endpoint.url, ca: endpoint.ca, token: cluster.server.tokens.issue(ADMIN_USER) };
  const admin = new Agent({ keepAlive: true, ca: endpoint.ca });
  await send(target, admin, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }));
  const listed = JSON.parse((await send(target, admin, 'GET', `/api/v1/namespaces/${NAMESPACE}/configmaps`)).body) as { metadata: { resourceVersion: string } };
  const fromRevision = listed.metadata.resourceVersion;

  r.note(`http: ${etcd.text}: ${watchers} watchers, ${rate} writes/s for ${durationMs / 1000}s`);
  const threads: Worker[] = [];
  const reports: WatcherReport[] = [];
  let readyThreads = 0;
  let reported = 0;
  let allReady!: () => void;
  let allReported!: () => void;
  const ready = new Promise<void>((res) => (allReady = res));
  const done = new Promise<void>((res) => (allReported = res));
  for (let i = 0; i < WATCHER_THREADS; i++) {
    const count = Math.floor(watchers / WATCHER_THREADS) + (i < watchers % WATCHER_THREADS ? 1 : 0);
    threads.push(
      spawn<{ kind: 'ready' } | { kind: 'report'; reports: WatcherReport[] }>({ kind: 'watchers', ...target, count, fromRevision }, (m) => {
        if (m.kind === 'ready' && ++readyThreads === WATCHER_THREADS) allReady();
        if (m.kind === 'report') {
          reports.push(...m.reports);
          if (++reported === WATCHER_THREADS) allReported();
        }
      }),
    );
  }
  await ready;
  const cpuBefore = process.cpuUsage();
  const schedBefore = schedstat();
  const writer = await new Promise<WriterReport>((resolve) => spawn<WriterReport>({ kind: 'writer', ...target, rate, durationMs }, (m, w) => {
    resolve(m);
    void w.terminate();
  }));
  const caughtUpStart = nowMs();
  for (const t of threads) t.postMessage({ kind: 'finish', revision: writer.lastRevision });
  const timeout = new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), 60_000).unref());
  const outcome = await Promise.race([done.then(() => 'done' as const), timeout]);
  const catchUpMs = nowMs() - caughtUpStart;
  const cpu = process.cpuUsage(cpuBefore);
  const schedAfter = schedstat();
  const seconds = (ns: number | undefined): number | null => (ns === undefined ? null : Number((ns / 1e9).toFixed(1)));

  const final = JSON.parse((await send(target, admin, 'GET', `/api/v1/namespaces/${NAMESPACE}/configmaps`)).body) as { items: { metadata: { name: string; resourceVersion: string } }[] };
  const truth = new Map(final.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
  const expectedEvents = writer.writes - writer.failures;
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let stateMismatches = 0;
  let errors = 0;
  for (const w of reports) {
    lost += Math.max(0, expectedEvents - w.events);
    duplicated += Math.max(0, w.events - expectedEvents);
    outOfOrder += w.outOfOrder;
    errors += w.errors.length;
    const names = Object.keys(w.state);
    if (names.length !== truth.size || names.some((n) => truth.get(n) !== w.state[n])) stateMismatches++;
  }
  const sorted = [...writer.latenciesMs].sort((a, b) => a - b);
  r.record({
    bench: 'http.watch-load',
    etcd: etcd.text,
    watchers,
    watchers_reporting: reports.length,
    writes: writer.writes,
    write_failures: writer.failures,
    writes_per_s: Math.round((writer.writes / writer.elapsedMs) * 1000),
    write_p50_ms: Number(percentile(sorted, 50).toFixed(2)),
    write_p99_ms: Number(percentile(sorted, 99).toFixed(2)),
    write_max_ms: Number((sorted[sorted.length - 1] ?? NaN).toFixed(2)),
    events_per_watcher: expectedEvents,
    events_delivered: reports.reduce((n, w) => n + w.events, 0),
    lost_events: lost + (reports.length < watchers ? (watchers - reports.length) * expectedEvents : 0),
    duplicated_events: duplicated,
    out_of_order: outOfOrder,
    final_state_mismatches: stateMismatches,
    watch_errors: errors,
    catch_up_ms: Math.round(catchUpMs),
    caught_up: outcome === 'done',
    server_cpu_s: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
    server_thread_cpu_s: seconds(schedBefore && schedAfter && schedAfter.run - schedBefore.run),
    server_thread_waiting_s: seconds(schedBefore && schedAfter && schedAfter.wait - schedBefore.wait),
    load_1m: Number(loadavg()[0]!.toFixed(1)), flushes: (globalThis as any).__fl, flushed_events: (globalThis as any).__ev,
  });
  for (const t of threads) await t.terminate();
  admin.destroy();
  pacer.dispose();
  await pacer.idle();
  await endpoint.close();
  await cluster.close();
}

export default suite;
