/**
 * The extension host's end of the engine worker (src/extension/engine/worker.ts): starts the
 * worker with a heap limit of its own (resourceLimits.maxOldGenerationSizeMb, the
 * kubesim.engine.maxHeapMB setting), sends it typed calls and awaits their replies, keeps the
 * tree's objects (RemoteClusterView), the clock's state and the machines from its stream, and
 * forwards the language server's mirror events. Every message from the worker is checked
 * (parseFromEngine) before it is used.
 *
 * When the worker dies (its heap exhausted, an uncaught error, an exit) every call waiting for
 * a reply fails with an EngineCrashedError whose message says what happened in words a user can
 * act on, and `onCrash` is told once; nothing of the extension host goes with it. No vscode
 * import: the tests and the bench drive it in plain node.
 */
import { Worker } from 'node:worker_threads';
import { copyEngineSettings, ENGINE_PROTOCOL, parseFromEngine, RESULTS, type EngineCalls, type EngineMethod, type EngineSettings, type FromEngine, type Machine, type ToEngine } from '../../protocol/engine';
import type { MirrorSyncParams } from '../../protocol/language-server';
import type { JsonObject } from '../../engine/api/types';
import type { HostMessage } from '../../protocol/panel';
import { RemoteClusterView } from './remote-view';

/** The engine's heap by default (MB): a 30,000-pod cluster needs about 4 GB today (docs/benchmarks.md). */
export const DEFAULT_ENGINE_HEAP_MB = 8192;
/** How long an orderly stop may take before the worker is terminated. */
const STOP_TIMEOUT_MS = 10_000;
/** With a save first (a big cluster writes hundreds of MB). */
const SAVE_STOP_TIMEOUT_MS = 120_000;

export class EngineCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineCrashedError';
  }
}

/** A call the worker answered with an error (kubectl's text, or why the call was refused), with a Node system error's code when it had one. */
export class EngineCallError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface EngineClientOptions {
  /** dist/engine-worker.mjs. */
  workerFile: string;
  settings: EngineSettings;
  /** The worker's old-generation heap limit in MB. */
  maxHeapMB: number;
  /** Where the cluster comes from (src/protocol/engine.ts's StartMessage): 'saved' unless told. */
  from?: 'saved' | 'fresh' | 'snapshot';
  /** With from 'snapshot': the snapshot (the worker checks it), or an exported snapshot's path. */
  restore?: unknown;
  restoreFile?: string;
  /** The workspace storage's cluster.json, which the worker loads and saves to; none: nothing is saved. */
  persistence?: { file: string };
  /** kubesim/mirrorSync to the language server. */
  mirror(params: MirrorSyncParams): void;
  /** What the user should hear of (an engine failure that paused the clock, a save that failed, a damaged save moved aside), or a line for the output. */
  onNotice?(severity: 'error' | 'warning' | 'log', message: string): void;
  /** The worker died; the message says why, for the user. */
  onCrash?(message: string): void;
}

type Pending = { method: EngineMethod; resolve: (v: unknown) => void; reject: (e: Error) => void };

/** What a dead worker's end means, for the user. */
export function crashMessage(err: unknown, maxHeapMB: number): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the simulated cluster ran out of memory: its engine may use at most ${maxHeapMB} MB (the kubesim.engine.maxHeapMB setting). Reset the cluster (or raise the setting) to go on.`;
  }
  const text = err instanceof Error ? err.message : String(err);
  return `the simulated cluster's engine stopped: ${text}. Reset the cluster to go on.`;
}

export class EngineClient {
  readonly view = new RemoteClusterView();
  /** Messages from the worker refused by the check, with the reason (newest last). */
  readonly rejected: string[] = [];
  machines: readonly Machine[] = [];
  clock: { state: 'running' | 'paused'; speed: number } = { state: 'paused', speed: 1 };
  seed = '';
  /** Virtual now as of the latest view batch. */
  time = 0;
  /** The longest the extension host's thread spent on one message from the worker (ms), and how many it handled. */
  readonly handling = { maxMs: 0, messages: 0 };
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly pacerListeners = new Set<(state: 'running' | 'paused', speed: number) => void>();
  private readonly machineListeners = new Set<(machines: readonly Machine[]) => void>();
  private readonly objectListeners = new Map<number, () => void>();
  private readonly panelListeners = new Map<number, (message: HostMessage) => void>();
  private readonly etcdListeners = new Set<(members: readonly JsonObject[]) => void>();
  private crashed: string | undefined;
  private disposing = false;
  private started: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private readonly exited: Promise<number>;

  private constructor(
    private readonly worker: Worker,
    private readonly options: EngineClientOptions,
  ) {
    worker.on('message', (raw: unknown) => {
      const start = performance.now();
      this.receive(raw);
      const ms = performance.now() - start;
      this.handling.messages++;
      if (ms > this.handling.maxMs) this.handling.maxMs = ms;
    });
    worker.on('error', (err) => this.crash(crashMessage(err, options.maxHeapMB)));
    this.exited = new Promise((resolve) =>
      worker.on('exit', (code) => {
        if (!this.disposing) this.crash(crashMessage(new Error(`the worker exited with code ${code}`), options.maxHeapMB));
        resolve(code);
      }),
    );
  }

  /** Starts the worker and the cluster in it; resolves once the cluster runs (its first listing is on its way). */
  static async start(options: EngineClientOptions): Promise<EngineClient> {
    const worker = new Worker(options.workerFile, { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMB }, stdout: false, stderr: false });
    const client = new EngineClient(worker, options);
    const ready = new Promise<void>((resolve, reject) => (client.started = { resolve, reject }));
    const from = options.from ?? (options.restore !== undefined || options.restoreFile !== undefined ? 'snapshot' : 'saved');
    client.send({
      type: 'start',
      protocol: ENGINE_PROTOCOL,
      settings: copyEngineSettings(options.settings),
      from,
      ...(options.restore !== undefined ? { restore: options.restore } : {}),
      ...(options.restoreFile !== undefined ? { restoreFile: options.restoreFile } : {}),
      ...(options.persistence ? { persistence: { file: options.persistence.file } } : {}),
    });
    try {
      await ready;
    } catch (err) {
      await client.dispose();
      throw err;
    }
    return client;
  }

  /** Whether the worker died (the message says why). */
  get crashReason(): string | undefined {
    return this.crashed;
  }

  /** One call to the engine; its reply, checked. */
  call<M extends EngineMethod>(method: M, params: EngineCalls[M]['params']): Promise<EngineCalls[M]['result']> {
    if (this.crashed) return Promise.reject(new EngineCrashedError(this.crashed));
    if (this.disposing) return Promise.reject(new EngineCrashedError('the simulated cluster was stopped'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      try {
        this.send({ type: 'call', id, method, params } as ToEngine);
      } catch (err) {
        this.settle(id, new EngineCallError(`kubesim engine: the call ${method} could not be sent: ${err instanceof Error ? err.message : String(err)}`));
      }
    });
  }

  onPacer(listener: (state: 'running' | 'paused', speed: number) => void): () => void {
    this.pacerListeners.add(listener);
    return () => this.pacerListeners.delete(listener);
  }

  onMachines(listener: (machines: readonly Machine[]) => void): () => void {
    this.machineListeners.add(listener);
    return () => this.machineListeners.delete(listener);
  }

  /** Calls `changed` on each objectChanged of the watch. */
  onObjectChanged(watchId: number, changed: () => void): () => void {
    this.objectListeners.set(watchId, changed);
    return () => this.objectListeners.delete(watchId);
  }

  /** The messages of a panel's feed (panelOpen). */
  onPanel(panelId: number, listener: (message: HostMessage) => void): () => void {
    this.panelListeners.set(panelId, listener);
    return () => this.panelListeners.delete(panelId);
  }

  onEtcdMembers(listener: (members: readonly JsonObject[]) => void): () => void {
    this.etcdListeners.add(listener);
    return () => this.etcdListeners.delete(listener);
  }

  /** Stops the cluster (saved first if `save`) and the worker (terminated if it does not end in time). */
  async dispose(save = false): Promise<void> {
    if (this.disposing) {
      await this.exited;
      return;
    }
    this.disposing = true;
    this.view.stop();
    if (!this.crashed) {
      this.worker.postMessage({ type: 'stop', save } satisfies ToEngine);
      const timer = setTimeout(() => void this.worker.terminate(), save ? SAVE_STOP_TIMEOUT_MS : STOP_TIMEOUT_MS);
      await this.exited;
      clearTimeout(timer);
    } else {
      await this.worker.terminate();
    }
    for (const p of this.pending.values()) p.reject(new EngineCrashedError('the simulated cluster was stopped'));
    this.pending.clear();
  }

  /**
   * Posts a message. Values VS Code hands out (a setting's object, read through its proxies) are
   * not structured-cloneable: such a message goes as its plain JSON copy.
   */
  private send(m: ToEngine): void {
    try {
      this.worker.postMessage(m);
    } catch (err) {
      if ((err as { name?: unknown }).name !== 'DataCloneError') throw err;
      this.worker.postMessage(JSON.parse(JSON.stringify(m)) as ToEngine);
    }
  }

  private receive(raw: unknown): void {
    const parsed = parseFromEngine(raw);
    if (!parsed.ok) {
      this.reject(parsed.error);
      // A stream message is acknowledged even when refused, so the stream goes on.
      const type = (raw as { type?: unknown } | null)?.type;
      if (type === 'view' || type === 'mirror') this.send({ type: 'ack' });
      const id = (raw as { id?: unknown } | null)?.id;
      if (type === 'reply' && typeof id === 'number') this.settle(id, new EngineCallError(`kubesim engine: a malformed reply was refused: ${parsed.error}`));
      return;
    }
    this.handle(parsed.message);
  }

  private handle(m: FromEngine): void {
    switch (m.type) {
      case 'started':
        this.machines = m.machines;
        this.seed = m.seed;
        this.clock = { ...m.clock };
        this.started?.resolve();
        this.started = undefined;
        return;
      case 'startFailed':
        this.started?.reject(new Error(m.message));
        this.started = undefined;
        return;
      case 'reply': {
        if (!m.ok) return this.settle(m.id, new EngineCallError(m.message, m.code));
        const p = this.pending.get(m.id);
        if (!p) return;
        if (!RESULTS[p.method](m.result)) return this.settle(m.id, new EngineCallError(`kubesim engine: the reply to ${p.method} has the wrong shape`));
        this.pending.delete(m.id);
        p.resolve(m.result);
        return;
      }
      case 'view':
        this.time = m.time;
        try {
          this.view.apply(m.changes);
        } finally {
          this.view.synced = true;
          this.send({ type: 'ack' });
        }
        return;
      case 'mirror':
        try {
          this.options.mirror(m.params);
        } finally {
          this.send({ type: 'ack' });
        }
        return;
      case 'pacer':
        this.clock = { state: m.state, speed: m.speed };
        for (const l of [...this.pacerListeners]) l(m.state, m.speed);
        return;
      case 'machines':
        this.machines = m.machines;
        for (const l of [...this.machineListeners]) l(m.machines);
        return;
      case 'notice':
        this.options.onNotice?.(m.severity, m.message);
        return;
      case 'objectChanged':
        this.objectListeners.get(m.watchId)?.();
        return;
      case 'panel':
        try {
          this.panelListeners.get(m.panelId)?.(m.message);
        } finally {
          this.send({ type: 'ack', panelId: m.panelId });
        }
        return;
      case 'etcdMembers':
        for (const l of [...this.etcdListeners]) l(m.members);
        return;
    }
  }

  private settle(id: number, err: Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.reject(err);
  }

  private reject(reason: string): void {
    this.rejected.push(reason);
    if (this.rejected.length > 100) this.rejected.shift();
  }

  private crash(message: string): void {
    if (this.crashed) return;
    this.crashed = message;
    this.view.stop();
    this.started?.reject(new EngineCrashedError(message));
    this.started = undefined;
    for (const p of this.pending.values()) p.reject(new EngineCrashedError(message));
    this.pending.clear();
    this.options.onCrash?.(message);
  }
}
