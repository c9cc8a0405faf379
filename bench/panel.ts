/**
 * The control-plane panel's pictures in real Chromium (headless, /usr/bin/chromium or CHROMIUM):
 * dist/webview.js on a page of its own, fed as the host feeds it ('state.reset', then 'state'
 * batches of 10,000 changes). The history is the one a cluster of 1,000 nodes and 30,000 pods
 * writes: every Node registered and Ready, every pod created, bound, ContainerCreating, Running
 * not Ready and Ready, then a rolling update that replaces every pod (old ones Terminating and
 * deleted, new ones through the same steps). Each version is a stored object turned into its view
 * by the host's own functions (src/extension/panel/state-views.ts), so the webview gets exactly
 * what the extension would send; the objects themselves are generated, not simulated (the
 * simulation of that cluster alone takes minutes: see the cluster suite).
 *
 *   panel.map    frame times while panning and zooming the map at the live revision
 *                (target: median <= 33 ms, p95 <= 50 ms)
 *   panel.scrub  replay jumps to random revisions over the whole history: from the timeline's
 *                request to the map drawn at that revision (target: p95 <= 100 ms)
 *   panel.graph  the Graph tab at 50, 200 and 1,000 boxes (Deployments, ReplicaSets, pods,
 *                EndpointSlices, Services): from opening the tab to every box drawn, ELK's time in
 *                its worker, and the longest the main thread was blocked meanwhile (the longest
 *                gap between animation frames, and the longest task Chromium reports); then the
 *                same graph laid out by ELK on the main thread, side by side
 *
 *   npm run bench -- panel [--json] [--nodes 1000] [--pods 30000] [--frames 300] [--jumps 100] [--profile FILE]
 *                          [--only map,scrub,graph] [--boxes 50,200,1000]
 *
 * --profile writes Chromium's CPU profile of the scrub jumps (a .cpuprofile, through CDP) and
 * prints the functions with the most self time.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '../src/engine/api/types';
import { deploymentView, endpointSliceView, nodeView, podView, replicaSetView, serviceView } from '../src/extension/panel/state-views';
import type { ObjectView, StateChange } from '../src/protocol/cluster-state';
import { percentile, Reporter, type BenchSuite } from './report';

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

const T0 = Date.UTC(2025, 0, 1);

/** The page's globals as the benchmark's in-page functions use them (bench compiles without the DOM library). */
interface Page {
  posted: { type: string }[];
  postMessage(message: unknown): void;
  requestAnimationFrame(fn: (t: number) => void): number;
  kubesimPanel: {
    history: { latestRevision: number; size: number };
    graph(): { pending: boolean; nodes: unknown[]; layoutMs: number | undefined; layoutThread: string | undefined };
    graphView: { elkInput(): unknown };
    mapView: { lastFrame: { revision: number | undefined; ms: number; stateMs: number; layoutMs: number }; panBy(dx: number, dy: number): void; zoomAt(f: number, x: number, y: number): void };
    app: { setReplay(r: number | undefined): void };
  };
}
type PodStep = 'created' | 'bound' | 'creating' | 'running' | 'ready' | 'terminating';

function nodeObject(i: number, rev: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${i}`, uid: `node-uid-${i}`, resourceVersion: String(rev), labels: { 'kubernetes.io/hostname': `node-${i}`, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
    spec: {},
    status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] },
  };
}

/** rs-12-a0000a lives in ns-12 (twenty namespaces). */
function namespaceOf(rs: string): string {
  return `ns-${Number(rs.split('-')[1]) % 20}`;
}

function podObject(name: string, uid: string, rs: string, node: string | undefined, step: PodStep, rev: number): KubeObject {
  const waiting = step === 'bound' || step === 'creating';
  const running = step === 'running' || step === 'ready' || step === 'terminating';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: namespaceOf(rs),
      uid,
      resourceVersion: String(rev),
      labels: { app: rs.replace(/-[a-z0-9]+$/, ''), 'pod-template-hash': rs.slice(-6) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: `uid-${rs}`, controller: true }],
      ...(step === 'terminating' ? { deletionTimestamp: '2025-01-01T00:10:00Z' } : {}),
    },
    spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    status: {
      phase: running ? 'Running' : 'Pending',
      conditions: [{ type: 'PodScheduled', status: node ? 'True' : 'False' }, { type: 'Ready', status: step === 'ready' || step === 'terminating' ? 'True' : 'False' }],
      ...(waiting || running
        ? { containerStatuses: [{ name: 'app', ready: step === 'ready' || step === 'terminating', restartCount: 0, state: running ? { running: { startedAt: '2025-01-01T00:00:05Z' } } : { waiting: { reason: 'ContainerCreating' } } }] }
        : {}),
    },
  };
}

/** The revision log of the whole story, in revision order, as the host's state log would hold it. */
export function history(nodes: number, pods: number): StateChange[] {
  const out: StateChange[] = [];
  let rev = 100;
  const put = (o: KubeObject, view: 'node' | 'pod'): void => {
    const time = T0 + rev * 2;
    out.push({ op: 'put', rev, time, view: view === 'node' ? nodeView(o) : podView(o, time) });
  };
  for (let i = 0; i < nodes; i++) put(nodeObject(i, ++rev), 'node');
  const replicaSets = Math.max(1, Math.round(pods / 100));
  const steps: PodStep[] = ['created', 'bound', 'creating', 'running', 'ready'];
  for (const generation of ['a', 'b']) {
    // A wave of 1,000 pods goes through its steps together (as a rollout's batches would).
    for (let start = 0; start < pods; start += 1000) {
      const end = Math.min(pods, start + 1000);
      for (const step of steps) {
        for (let i = start; i < end; i++) {
          const rs = `rs-${i % replicaSets}-${generation}0000${generation}`;
          const node = step === 'created' ? undefined : `node-${(i * 7 + (generation === 'b' ? 3 : 0)) % nodes}`;
          put(podObject(`${rs}-${i}`, `pod-${generation}-${i}`, rs, node, step, ++rev), 'pod');
        }
      }
      if (generation === 'b') {
        // The old generation's pods of this wave go: Terminating, then deleted.
        for (let i = start; i < end; i++) {
          const rs = `rs-${i % replicaSets}-a0000a`;
          put(podObject(`${rs}-${i}`, `pod-a-${i}`, rs, `node-${(i * 7) % nodes}`, 'terminating', ++rev), 'pod');
        }
        for (let i = start; i < end; i++) {
          const rs = `rs-${i % replicaSets}-a0000a`;
          rev++;
          out.push({ op: 'delete', rev, time: T0 + rev * 2, kind: 'Pod', namespace: namespaceOf(rs), name: `${rs}-${i}` });
        }
      }
    }
  }
  return out;
}

/**
 * A cluster of about `boxes` graph boxes, settled: Deployments of 46 Ready pods each, with their
 * ReplicaSet, a Service and its EndpointSlice (one endpoint a pod), 50 boxes a Deployment.
 */
export function graphHistory(boxes: number): { changes: StateChange[]; boxes: number } {
  const out: StateChange[] = [];
  let rev = 100;
  const time = (): number => T0 + rev * 2;
  // Each object's metadata takes the next revision; its change is stored at that revision.
  const put = (view: ObjectView): void => void out.push({ op: 'put', rev, time: time(), view });
  const perDeployment = 46;
  const deployments = Math.max(1, Math.round(boxes / (perDeployment + 4)));
  for (let n = 0; n < 4; n++) put(nodeView(nodeObject(n, ++rev)));
  let count = 0;
  for (let d = 0; d < deployments; d++) {
    const name = `app-${d}`;
    const ns = `ns-${d % 5}`;
    const rs = `${name}-5d8f7c6b9`;
    const labels = { app: name };
    const meta = (kind: string, n: string, extra: Record<string, unknown> = {}) => ({ name: n, namespace: ns, uid: `uid-${kind}-${ns}-${n}`, resourceVersion: String(++rev), generation: 1, ...extra });
    const owner = (kind: string, n: string) => [{ apiVersion: 'apps/v1', kind, name: n, uid: `uid-${kind}-${ns}-${n}`, controller: true }];
    const ready = { replicas: perDeployment, updatedReplicas: perDeployment, readyReplicas: perDeployment, availableReplicas: perDeployment, observedGeneration: 1 };
    put(deploymentView({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta('Deployment', name, { labels, annotations: { 'deployment.kubernetes.io/revision': '1' } }), spec: { replicas: perDeployment, selector: { matchLabels: labels }, strategy: { type: 'RollingUpdate' } }, status: { ...ready, conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }] } }));
    put(replicaSetView({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta('ReplicaSet', rs, { labels: { ...labels, 'pod-template-hash': '5d8f7c6b9' }, annotations: { 'deployment.kubernetes.io/revision': '1' }, ownerReferences: owner('Deployment', name) }), spec: { replicas: perDeployment, selector: { matchLabels: labels } }, status: { replicas: perDeployment, readyReplicas: perDeployment, availableReplicas: perDeployment } }));
    const endpoints: unknown[] = [];
    for (let i = 0; i < perDeployment; i++) {
      const pod = `${rs}-${i.toString(36).padStart(5, 'x')}`;
      const ip = `10.${d}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const o: KubeObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: meta('Pod', pod, { labels: { ...labels, 'pod-template-hash': '5d8f7c6b9' }, ownerReferences: owner('ReplicaSet', rs) }),
        spec: { nodeName: `node-${i % 4}`, containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
        status: { phase: 'Running', podIP: ip, conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2025-01-01T00:00:05Z' } } }] },
      };
      put(podView(o, time()));
      endpoints.push({ addresses: [ip], conditions: { ready: true, serving: true, terminating: false }, nodeName: `node-${i % 4}`, targetRef: { kind: 'Pod', namespace: ns, name: pod, uid: `uid-Pod-${ns}-${pod}` } });
    }
    put(serviceView({ apiVersion: 'v1', kind: 'Service', metadata: meta('Service', name), spec: { type: 'ClusterIP', clusterIP: `10.96.0.${d + 10}`, selector: labels, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } }));
    put(endpointSliceView({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: meta('EndpointSlice', `${name}-abcde`, { labels: { 'kubernetes.io/service-name': name }, ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: `uid-Service-${ns}-${name}`, controller: true }] }), addressType: 'IPv4', endpoints, ports: [{ port: 8080, protocol: 'TCP' }] }));
    count += perDeployment + 4;
  }
  return { changes: out, boxes: count };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a CPU profile: "41.2% layoutWith webview.js:1234". */
function topSelf(profile: CpuProfile, n: number): string[] {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const byFn = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (!t) continue;
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    byFn.set(name, (byFn.get(name) ?? 0) + t);
  }
  return [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, t]) => `${((100 * t) / total).toFixed(1)}% ${(t / 1000).toFixed(0)} ms ${name}`);
}

/**
 * panel.graph at one size: a fresh page synced with a settled cluster of about `boxes` boxes,
 * then the Graph tab opened (the first layout: the worker starts, ELK warms up), then one more
 * Deployment's worth of pods added (a second layout, warm). Meanwhile a requestAnimationFrame loop
 * records the longest gap between frames (the main thread blocked) and a PerformanceObserver the
 * longest task. Then the same ELK graph laid out on the main thread (elkjs's bundled build, the
 * one the panel used before), for the side-by-side figure.
 */
async function graphBench(r: Reporter, browser: import('playwright-core').Browser, panelPage: (theme?: string) => string, boxes: number): Promise<void> {
  const { changes, boxes: total } = graphHistory(boxes);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => r.note(`[pageerror] ${e.message}`));
    await page.goto(panelPage('dark'));
    await page.waitForFunction(() => (globalThis as unknown as Page).posted.some((m) => m.type === 'ready'));
    const last = changes[changes.length - 1]!.rev;
    await page.evaluate(({ heldFrom, total }) => (globalThis as unknown as Page).postMessage({ type: 'state.reset', heldFrom, heldFromTime: 0, capacity: 1_000_000, total }), { heldFrom: changes[0]!.rev, total: changes.length });
    await page.evaluate((json) => (globalThis as unknown as Page).postMessage({ type: 'state', changes: JSON.parse(json) }), JSON.stringify(changes));
    await page.waitForFunction((rev) => (globalThis as unknown as Page).kubesimPanel.history.latestRevision === rev, last, { timeout: 120_000 });
    // The watchdog: frame gaps and long tasks from here on.
    await page.evaluate(() => {
      const w = globalThis as unknown as { watch: { gap: number; task: number; run: boolean; reset(): void } } & Page;
      w.watch = { gap: 0, task: 0, run: true, reset: () => ((w.watch.gap = 0), (w.watch.task = 0)) };
      let prev = performance.now();
      const tick = (t: number): void => {
        w.watch.gap = Math.max(w.watch.gap, t - prev);
        prev = t;
        if (w.watch.run) w.requestAnimationFrame(tick);
      };
      w.requestAnimationFrame(tick);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.watch.task = Math.max(w.watch.task, e.duration);
      }).observe({ type: 'longtask' } as never);
    });
    const drawn = (n: number) =>
      page.waitForFunction((want) => {
        const g = (globalThis as unknown as Page).kubesimPanel.graph();
        return !g.pending && g.nodes.length >= want;
      }, n, { timeout: 600_000, polling: 50 });
    const watch = () => page.evaluate(() => (globalThis as unknown as { watch: { gap: number; task: number } }).watch);
    const reset = () => page.evaluate(() => (globalThis as unknown as { watch: { reset(): void } }).watch.reset());

    await reset();
    let t0 = Date.now();
    await page.locator('#tab-graph').click();
    await drawn(total);
    const firstMs = Date.now() - t0;
    const first = await page.evaluate(() => (globalThis as unknown as Page).kubesimPanel.graph());
    const firstWatch = await watch();

    // A second layout of a changed structure: one more Deployment's boxes.
    // (The generator is deterministic: the first Deployments' changes are the ones already sent.)
    const more = graphHistory(total + 50).changes.filter((c) => c.rev > last);
    await reset();
    t0 = Date.now();
    await page.evaluate((json) => (globalThis as unknown as Page).postMessage({ type: 'state', changes: JSON.parse(json) }), JSON.stringify(more));
    await drawn(total + 50);
    const secondMs = Date.now() - t0;
    const second = await page.evaluate(() => (globalThis as unknown as Page).kubesimPanel.graph());
    const secondWatch = await watch();

    // The same ELK graph on the main thread, as the panel laid it out before the worker.
    await page.addScriptTag({ path: path.resolve('node_modules/elkjs/lib/elk.bundled.js') });
    await reset();
    const mainMs = await page.evaluate(async () => {
      const w = globalThis as unknown as Page & { ELK: new () => { layout(g: unknown): Promise<unknown> } };
      const graph = w.kubesimPanel.graphView.elkInput();
      const elk = new w.ELK();
      const t = performance.now();
      await elk.layout(graph);
      return performance.now() - t;
    });
    await page.waitForTimeout(200);
    const mainWatch = await watch();
    await page.evaluate(() => ((globalThis as unknown as { watch: { run: boolean } }).watch.run = false));
    r.record({
      bench: 'panel.graph',
      boxes: second.nodes.length,
      thread: second.layoutThread ?? 'none',
      first_drawn_ms: firstMs,
      first_layout_ms: +(first.layoutMs ?? 0).toFixed(1),
      first_max_frame_gap_ms: +firstWatch.gap.toFixed(1),
      first_longest_task_ms: +firstWatch.task.toFixed(1),
      drawn_ms: secondMs,
      layout_ms: +(second.layoutMs ?? 0).toFixed(1),
      max_frame_gap_ms: +secondWatch.gap.toFixed(1),
      longest_task_ms: +secondWatch.task.toFixed(1),
      main_thread_layout_ms: +mainMs.toFixed(1),
      main_thread_max_frame_gap_ms: +mainWatch.gap.toFixed(1),
      main_thread_longest_task_ms: +mainWatch.task.toFixed(1),
    });
  } finally {
    await context.close();
  }
}

const suite: BenchSuite = async (args) => {
  const r = Reporter.fromArgs(args);
  const nodes = Number(option(args, '--nodes', '1000'));
  const pods = Number(option(args, '--pods', '30000'));
  const frames = Number(option(args, '--frames', '300'));
  const jumps = Number(option(args, '--jumps', '100'));
  const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) throw new Error(`panel bench: Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM)`);
  if (!existsSync(path.resolve('dist/webview.js'))) throw new Error('panel bench: dist/webview.js is missing (npm run build)');

  const only = new Set(option(args, '--only', 'map,scrub,graph').split(','));
  const boxes = option(args, '--boxes', '50,200,1000').split(',').map(Number).filter((n) => n > 0);

  // The browser helpers are plain ES modules of the e2e suites.
  const importer = new Function('p', 'return import(p)') as (p: string) => Promise<Record<string, unknown>>;
  const { launch } = (await importer(path.resolve('test/e2e/browser.mjs'))) as { launch: (exe?: string) => Promise<{ browser: import('playwright-core').Browser; close(): Promise<void> }> };
  const { panelPage } = (await importer(path.resolve('test/e2e/panel-page.mjs'))) as { panelPage: (theme?: string) => string };
  const { browser, close } = await launch(chromium);
  try {
    if (only.has('graph')) for (const n of boxes) await graphBench(r, browser, panelPage, n);
    if (!only.has('map') && !only.has('scrub')) return;
    r.note(`panel: generating the history of ${nodes} nodes and ${pods} pods...`);
    const changes = history(nodes, pods);
    const first = changes[0]!.rev;
    const last = changes[changes.length - 1]!.rev;
    r.note(`panel: ${changes.length} changes, revisions ${first}..${last}`);

    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.on('pageerror', (e) => r.note(`[pageerror] ${e.message}`));
    await page.goto(panelPage('dark'));
    await page.waitForFunction(() => (globalThis as unknown as Page).posted.some((m) => m.type === 'ready'));
    const syncStart = Date.now();
    await page.evaluate(({ heldFrom, total }) => (globalThis as unknown as Page).postMessage({ type: 'state.reset', heldFrom, heldFromTime: 0, capacity: 1_000_000, total }), { heldFrom: first, total: changes.length });
    for (let i = 0; i < changes.length; i += 10_000) {
      // One JSON string per batch: Playwright's argument serializer is slow on large object graphs.
      await page.evaluate((json) => (globalThis as unknown as Page).postMessage({ type: 'state', changes: JSON.parse(json) }), JSON.stringify(changes.slice(i, i + 10_000)));
    }
    await page.waitForFunction((rev) => (globalThis as unknown as Page).kubesimPanel.history.latestRevision === rev, last, { timeout: 600_000 });
    await page.waitForFunction((rev) => (globalThis as unknown as Page).kubesimPanel.mapView.lastFrame.revision === rev, last, { timeout: 120_000 });
    const held = await page.evaluate(() => (globalThis as unknown as Page).kubesimPanel.history.size);
    r.note(`panel: synced ${held} changes in ${Date.now() - syncStart} ms (sent through page.evaluate, not the extension host's postMessage)`);

    // panel.map: pan and zoom for `frames` animation frames, one camera move per frame.
    const map = await page.evaluate(async (n) => {
      const p = (globalThis as unknown as Page).kubesimPanel.mapView;
      const intervals: number[] = [];
      const draws: number[] = [];
      const frame = () => new Promise<number>((res) => (globalThis as unknown as Page).requestAnimationFrame(res));
      let last = await frame();
      for (let i = 0; i < n; i++) {
        const phase = Math.floor((i / n) * 4);
        if (phase === 0) p.zoomAt(1.03, 700, 350);
        else if (phase === 1) p.panBy(-23, -9);
        else if (phase === 2) p.zoomAt(1 / 1.04, 300, 500);
        else p.panBy(31, 14);
        const t = await frame();
        intervals.push(t - last);
        draws.push(p.lastFrame.ms);
        last = t;
      }
      return { intervals, draws };
    }, frames);
    const sorted = [...map.intervals].sort((a, b) => a - b);
    const drawSorted = [...map.draws].sort((a, b) => a - b);
    r.record({
      bench: 'panel.map',
      nodes,
      pods,
      frames,
      median_frame_ms: +percentile(sorted, 50).toFixed(1),
      p95_frame_ms: +percentile(sorted, 95).toFixed(1),
      max_frame_ms: +sorted[sorted.length - 1]!.toFixed(1),
      median_draw_ms: +percentile(drawSorted, 50).toFixed(1),
      p95_draw_ms: +percentile(drawSorted, 95).toFixed(1),
    });

    // panel.scrub: jumps to random revisions of the whole history, each until the map shows it.
    const targets: number[] = [];
    let seed = 12345;
    for (let i = 0; i < jumps; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      targets.push(first + (seed % (last - first)));
    }
    const profileFile = option(args, '--profile', '');
    const cdp = profileFile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const scrub = await page.evaluate(async (revs) => {
      const k = (globalThis as unknown as Page).kubesimPanel;
      const times: number[] = [];
      const parts: { state: number; layout: number; draw: number }[] = [];
      for (const rev of revs) {
        const t = performance.now();
        k.app.setReplay(rev);
        while (k.mapView.lastFrame.revision !== rev) await new Promise((res) => (globalThis as unknown as Page).requestAnimationFrame(res));
        times.push(performance.now() - t);
        const f = k.mapView.lastFrame;
        parts.push({ state: f.stateMs, layout: f.layoutMs, draw: f.ms });
      }
      k.app.setReplay(undefined);
      return { times, parts };
    }, targets);
    if (cdp) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
      writeFileSync(profileFile, JSON.stringify(profile));
      for (const line of topSelf(profile, 15)) r.note(`panel: profile: ${line}`);
    }
    const s = [...scrub.times].sort((a, b) => a - b);
    const med = (f: (p: { state: number; layout: number; draw: number }) => number) => +percentile(scrub.parts.map(f).sort((a, b) => a - b), 50).toFixed(1);
    r.record({
      bench: 'panel.scrub',
      revisions: last - first + 1,
      changes: changes.length,
      jumps,
      p50_ms: +percentile(s, 50).toFixed(1),
      p95_ms: +percentile(s, 95).toFixed(1),
      max_ms: +s[s.length - 1]!.toFixed(1),
      median_state_ms: med((p) => p.state),
      median_layout_ms: med((p) => p.layout),
      median_draw_ms: med((p) => p.draw),
    });
  } finally {
    await close();
  }
};

export default suite;
