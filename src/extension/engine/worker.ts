/**
 * The engine worker (dist/engine-worker.mjs): a worker_threads Worker in which the cluster runs,
 * with a heap of its own (resourceLimits from kubesim.engine.maxHeapMB), so that however big the
 * simulation grows the extension host's thread stays free and its heap untouched. One worker
 * holds one cluster: a ClusterHost (createCluster on a slicing ClockHost, the Pacer, the
 * informers of the tree, the language server's mirror feed) in an EngineSession, which restores
 * it from the workspace's save and saves it as it changes. It speaks src/protocol/engine.ts with
 * the extension: calls answered by replies, the tree's changes and the mirror's events streamed
 * through the Outbox, one message in flight at a time.
 *
 * Every message from the extension is checked (parseToEngine) before it is acted on; a refused
 * call is answered with the reason, a refused message of another kind is dropped.
 */
import { parentPort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { promises as fs } from 'node:fs';
import * as HostModule from '../cluster-host';
import type { ClusterHost } from '../cluster-host';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../settings';
import { checkClusterSnapshot, parseClusterSnapshot, snapshotJsonChunks } from '../snapshot';
import { SnapshotFile } from '../persistence';
import { writeFileDurably } from '../durable-file';
import { EngineSession } from './engine-session';
import { copyEngineSettings, parseToEngine, type CallMessage, type EngineCalls, type EngineMethod, type EngineSettings, type FromEngine, type Machine, type StartMessage, type WireViewChange } from '../../protocol/engine';
import type { ViewChange } from '../view-types';
import { viewSummary } from '../view-summary';
import { Outbox } from './outbox';
import { EventWindow } from './event-window';
import { RECENT_EVENTS } from '../view-queries';
import type { JsonObject } from '../../engine/api/types';
import type { ServedApi } from '../endpoint/serve';
import { PanelFeed } from '../panel/feed';
import type { HostMessage } from '../../protocol/panel';
import type { Pod } from '../../engine/scheduler/api';
import { computePodResources } from '../../engine/scheduler/cache/resource';

type Handlers = { [M in EngineMethod]: (host: ClusterHost, params: EngineCalls[M]['params'], worker: EngineWorker) => Promise<EngineCalls[M]['result']> | EngineCalls[M]['result'] };

/** Wall ms between two etcdMembers messages at most (a burst of elections makes one). */
const ETCD_MEMBERS_MS = 200;
/** Wall ms between two etcdMembers messages while only indexes move (the sidebar's commit index). */
const ETCD_PROGRESS_MS = 1000;

function settingsOf(s: EngineSettings, persistence: boolean): KubeSimSettings {
  // A fresh copy: the worker's own to change.
  return { ...DEFAULT_SETTINGS, ...(copyEngineSettings(s) as Pick<KubeSimSettings, keyof EngineSettings>), persistence };
}

/** Structured clone carries plain data only: results are made plain (no class instances, no functions). */
function plain<T>(value: T): T {
  return value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T);
}

export class EngineWorker {
  private host: ClusterHost | undefined;
  session: EngineSession | undefined;
  private readonly outbox: Outbox;
  private machinesSent = '';
  private stopping: Promise<void> | undefined;
  /** Live documents' watches, by the extension's id. */
  readonly watches = new Map<number, () => void>();
  served: ServedApi | undefined;
  /** The control-plane panels' feeds, by the extension's id. */
  readonly panels = new Map<number, PanelFeed>();
  /** Each panel's messages not yet acked by the extension (its feed's batches wait while there are any). */
  readonly panelsInFlight = new Map<number, number>();
  private etcdTimer: ReturnType<typeof setTimeout> | undefined;
  private etcdDue = 0;

  constructor(readonly post: (m: FromEngine) => void) {
    this.outbox = new Outbox(post, () => this.host?.cluster.clock.now() ?? 0);
  }

  /** One message from the extension. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseToEngine(raw);
    if (!parsed.ok) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      if ((raw as { type?: unknown } | null)?.type === 'call' && Number.isSafeInteger(id)) this.post({ type: 'reply', id: id as number, ok: false, message: `kubesim engine: refused: ${parsed.error}` });
      return;
    }
    const m = parsed.message;
    switch (m.type) {
      case 'start':
        return this.start(m);
      case 'call':
        return this.call(m);
      case 'ack':
        if (m.panelId !== undefined) {
          const n = this.panelsInFlight.get(m.panelId) ?? 0;
          if (n > 1) this.panelsInFlight.set(m.panelId, n - 1);
          else this.panelsInFlight.delete(m.panelId);
          return;
        }
        return this.outbox.ack();
      case 'stop':
        return this.stop(m.save);
    }
  }

  private async start(m: StartMessage): Promise<void> {
    if (this.session) return this.post({ type: 'startFailed', message: 'kubesim engine: a cluster is already running in this worker' });
    const settings = settingsOf(m.settings, m.persistence !== undefined);
    const notice = (severity: 'error' | 'warning' | 'log') => (message: string) => this.post({ type: 'notice', severity, message });
    const session = new EngineSession({
      load: () => HostModule,
      settings: () => settings,
      file: m.persistence ? new SnapshotFile(m.persistence.file) : undefined,
      mirror: (params) => this.outbox.mirrorSync(params),
      report: notice('error'),
      warn: notice('warning'),
      log: notice('log'),
    });
    this.session = session;
    try {
      let host: ClusterHost;
      if (m.from === 'fresh') host = await session.reset();
      else if (m.from === 'snapshot') host = await session.restore(m.restoreFile !== undefined ? parseClusterSnapshot(await fs.readFile(m.restoreFile, 'utf8')) : checkClusterSnapshot(m.restore));
      else host = await session.get();
      this.host = host;
      // Of the Events, the host keeps the newest the tree lists (event-window.ts).
      const events = new EventWindow(RECENT_EVENTS, function* () {
        for (const o of host.view.objects('events')) yield [keyOf(o), o] as const;
      });
      host.view.onChange((changes) => this.outbox.viewChanges(events.changes(changes).map((c) => this.wire(host, c))));
      host.pacer.onChange((state, speed) => this.post({ type: 'pacer', state, speed }));
      host.trace.subscribe((r) => {
        // A member's role or state at once; its commit and applied index as revisions are written.
        if (r.type === 'etcd.member') this.etcdChanged(host, ETCD_MEMBERS_MS);
        else if (r.type === 'store.revision') this.etcdChanged(host, ETCD_PROGRESS_MS);
      });
      const { state, speed } = host.pacer.current;
      // The informers' first listing, as the tree sees it on start.
      const first: WireViewChange[] = [];
      for (const kind of ['nodes', 'namespaces', 'deployments', 'replicasets', 'horizontalpodautoscalers', 'pods', 'services', 'endpointslices'] as const) {
        for (const o of host.view.objects(kind)) first.push(this.wire(host, { kind, type: 'ADDED', key: keyOf(o), object: o }));
      }
      for (const c of events.start()) first.push(this.wire(host, c));
      this.outbox.viewChanges(first);
      // 'started' comes after the first listing: the extension's tree is whole when the start resolves.
      this.outbox.afterViewChanges(() => this.post({ type: 'started', machines: this.machines(), seed: host.cluster.seed, clock: { state, speed } }));
    } catch (err) {
      this.session = undefined;
      this.post({ type: 'startFailed', message: err instanceof Error ? err.message : String(err) });
    }
  }

  private etcdChanged(host: ClusterHost, ms: number): void {
    const due = Date.now() + ms;
    if (this.etcdTimer && this.etcdDue <= due) return;
    if (this.etcdTimer) clearTimeout(this.etcdTimer);
    this.etcdDue = due;
    this.etcdTimer = setTimeout(() => {
      this.etcdTimer = undefined;
      const members = host.etcdMembers();
      if (members && this.host === host) this.post({ type: 'etcdMembers', members: plain(members) as unknown as JsonObject[] });
    }, ms);
  }

  private wire(host: ClusterHost, c: ViewChange): WireViewChange {
    const row = host.view.row(c.kind, c.object);
    // The host keeps what the tree reads, not the whole object (view-summary.ts).
    const object = viewSummary(c.kind, c.object);
    if (c.kind !== 'pods') return { kind: c.kind, type: c.type, key: c.key, object, row };
    const r = computePodResources(c.object as unknown as Pod).requests;
    return { kind: c.kind, type: c.type, key: c.key, object, row, requests: { milliCPU: r.milliCPU, memory: r.memory } };
  }

  private machines(): Machine[] {
    const host = this.host;
    return host ? host.nodeNames().map((node) => ({ node, running: host.isNodeRunning(node) })) : [];
  }

  /** Tells the extension when a machine joined, stopped or started (no API event says so). */
  private machinesChanged(): void {
    const machines = this.machines();
    const text = JSON.stringify(machines);
    if (text === this.machinesSent) return;
    this.machinesSent = text;
    this.post({ type: 'machines', machines });
  }

  private async call(m: CallMessage): Promise<void> {
    const host = this.host;
    if (!host) return this.post({ type: 'reply', id: m.id, ok: false, message: 'kubesim engine: no cluster is running' });
    try {
      const handler = HANDLERS[m.method] as (host: ClusterHost, params: unknown, worker: EngineWorker) => unknown;
      const result = await handler(host, m.params, this);
      this.post({ type: 'reply', id: m.id, ok: true, result: plain(result) });
      if (m.method === 'addNode' || m.method === 'node') this.machinesChanged();
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      this.post({ type: 'reply', id: m.id, ok: false, message: err instanceof Error ? err.message : String(err), ...(typeof code === 'string' ? { code } : {}) });
    }
  }

  /** Saves the cluster (if `save` and persistence is on), then stops it. */
  stop(save: boolean): Promise<void> {
    this.stopping ??= (async () => {
      this.outbox.close();
      if (this.etcdTimer) clearTimeout(this.etcdTimer);
      for (const stop of this.watches.values()) stop();
      this.watches.clear();
      for (const feed of this.panels.values()) await feed.dispose();
      this.panels.clear();
      if (save) await this.session?.dispose();
      else await this.session?.close();
      this.host = undefined;
    })();
    return this.stopping;
  }
}

function keyOf(o: { metadata: { namespace?: string; name?: string } }): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
}

const HANDLERS: Handlers = {
  apply: (h, p) => h.apply(p.file, p.text, p.dryRun),
  deleteManifest: (h, p) => h.deleteManifest(p.file, p.text),
  manifestObjects: (h, p) => h.manifestObjects(p.file, p.text),
  summary: (h) => h.summary(),
  setUser: (h, p) => {
    h.user = { username: p.user.username, groups: [...p.user.groups] };
    return null;
  },
  setFieldValidation: (h, p) => {
    h.fieldValidation = p.fieldValidation;
    return null;
  },
  setSpeed: (h, p) => {
    h.pacer.setSpeed(p.speed);
    return null;
  },
  pause: (h) => {
    h.pacer.pause();
    return null;
  },
  resume: (h) => {
    h.pacer.resume();
    return null;
  },
  stepToNextChange: (h) => h.stepToNextChange(),
  addNode: (h, p) => h.addNode(settingsOf({ ...DEFAULT_SETTINGS, nodes: p.nodes }, false)),
  node: (h, p) => {
    switch (p.action) {
      case 'stop':
        return h.stopNode(p.name);
      case 'start':
        return h.startNode(p.name);
      case 'cordon':
        return h.cordon(p.name);
      case 'uncordon':
        return h.uncordon(p.name);
      case 'drain':
        return h.drain(p.name);
    }
  },
  scale: (h, p) => h.scale(p.ref as Parameters<ClusterHost['scale']>[0], p.replicas),
  rolloutRestart: (h, p) => h.rolloutRestart(p.ref as Parameters<ClusterHost['rolloutRestart']>[0]),
  rolloutUndo: (h, p) => h.rolloutUndo(p.ref, p.toRevision),
  objectYaml: (h, p) => h.objectYaml(p.ref),
  knownSubjects: (h) => h.knownSubjects(),
  etcdMembers: (h) => (h.etcdMembers() as unknown as EngineCalls['etcdMembers']['result']) ?? null,
  etcdAction: (h, p) => h.etcdAction(p.action, p.member),
  resyncMirror: (h) => {
    h.resyncMirror();
    return null;
  },
  watchObject: (h, p, w) => {
    w.watches.get(p.watchId)?.();
    w.watches.set(p.watchId, h.watchObject(p.ref, () => w.post({ type: 'objectChanged', watchId: p.watchId })));
    return null;
  },
  unwatchObject: (_h, p, w) => {
    w.watches.get(p.watchId)?.();
    w.watches.delete(p.watchId);
    return null;
  },
  snapshot: (h) => h.snapshot() as unknown as JsonObject,
  save: async (_h, _p, w) => {
    await w.session?.save();
    return null;
  },
  setPersistence: async (_h, p, w) => {
    await w.session?.setPersistence(p.on);
    return null;
  },
  exportSnapshot: async (h, p) => {
    const snapshot = h.snapshot();
    await writeFileDurably(p.file, snapshotJsonChunks(snapshot));
    return { revision: snapshot.store.revision, nodes: snapshot.nodes.length };
  },
  traceRecords: (h, p) => h.trace.records().filter((r) => r.id >= p.fromId) as unknown as JsonObject[],
  heap: () => {
    // This thread's isolate: the engine's heap, apart from the extension host's.
    const s = getHeapStatistics();
    return { used: s.used_heap_size, total: s.total_heap_size, limit: s.heap_size_limit };
  },
  serveApi: async (h, p, w) => {
    const served = await h.serveApi(p.port, p.tls);
    w.served = served;
    return { port: served.port, url: served.url, tls: { key: served.tls.key, cert: served.tls.cert }, kubeconfig: served.kubeconfig, contexts: [...served.contexts] };
  },
  closeApi: async (_h, _p, w) => {
    await w.served?.close();
    w.served = undefined;
    return null;
  },
  panelOpen: async (h, p, w) => {
    await w.panels.get(p.panelId)?.dispose();
    const post = (message: HostMessage) => {
      w.panelsInFlight.set(p.panelId, (w.panelsInFlight.get(p.panelId) ?? 0) + 1);
      w.post({ type: 'panel', panelId: p.panelId, message });
    };
    w.panels.set(p.panelId, new PanelFeed(h.panelCluster(), post, () => !w.panelsInFlight.has(p.panelId)));
    return null;
  },
  panelSync: async (_h, p, w) => {
    await panel(w, p.panelId).sync();
    return null;
  },
  panelHidden: async (_h, p, w) => {
    await panel(w, p.panelId).hidden();
    return null;
  },
  panelRead: async (_h, p, w) => {
    await panel(w, p.panelId).read(p.message);
    return null;
  },
  panelClose: async (_h, p, w) => {
    await w.panels.get(p.panelId)?.dispose();
    w.panels.delete(p.panelId);
    w.panelsInFlight.delete(p.panelId);
    return null;
  },
};

function panel(w: EngineWorker, id: number): PanelFeed {
  const feed = w.panels.get(id);
  if (!feed) throw new Error(`kubesim engine: no panel ${id} is open`);
  return feed;
}

// Started as a worker: serve the extension on the parent port.
if (parentPort) {
  const port = parentPort;
  const worker = new EngineWorker((m) => port.postMessage(m));
  port.on('message', (raw: unknown) => {
    const done = (raw as { type?: unknown } | null)?.type === 'stop';
    void worker.receive(raw).finally(() => {
      if (done) port.close();
    });
  });
}
