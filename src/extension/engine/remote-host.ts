/**
 * The running cluster as the extension's commands, tree, status bar and live documents use it,
 * with the cluster in the engine worker: ClusterHost's surface (cluster-host.ts) over
 * EngineClient's calls. What a widget reads synchronously (the tree's objects, the machines,
 * the clock's state, the etcd members) is the worker's stream as last received; everything
 * else is a call. No vscode import.
 */
import type { MemberStatus } from '../../engine/store/etcdserver';
import { copyEngineSettings, type ApplyReply, type EngineSettings, type EtcdMemberActionWire, type ObjectRefWire, type OperationReply, type ServedApiWire, type StepReply, type SummaryReply } from '../../protocol/engine';
import type { HostMessage } from '../../protocol/panel';
import type { PanelConnection } from '../panel/feed';
import type { Identity } from '../identity';
import type { TraceRecord } from '../../engine/trace/types';
import { checkClusterSnapshot, type ClusterSnapshot } from '../snapshot';
import { EngineClient, type EngineClientOptions } from './client';
import type { RemoteClusterView } from './remote-view';

/** EngineClient's options, with a snapshot of the shape a save has and the notices and crash the host must hear of. */
export interface RemoteHostOptions extends EngineClientOptions {
  restore?: ClusterSnapshot;
  onNotice(severity: 'error' | 'warning' | 'log', message: string): void;
  onCrash(message: string): void;
}

/** The clock as the status bar and the commands drive it. */
export class RemotePacer {
  constructor(private readonly engine: EngineClient) {}

  get current(): { state: 'running' | 'paused'; speed: number } {
    return this.engine.clock;
  }

  onChange(listener: (state: 'running' | 'paused', speed: number) => void): () => void {
    return this.engine.onPacer(listener);
  }

  pause(): Promise<null> {
    this.engine.clock = { ...this.engine.clock, state: 'paused' };
    return this.engine.call('pause', {});
  }

  resume(): Promise<null> {
    return this.engine.call('resume', {});
  }

  setSpeed(speed: number): Promise<null> {
    return this.engine.call('setSpeed', { speed });
  }
}

export interface RemoteServedApi extends ServedApiWire {
  close(): Promise<void>;
}

let nextWatch = 1;
let nextPanel = 1;

export class RemoteClusterHost {
  readonly pacer: RemotePacer;
  private userValue: Identity;
  private fieldValidationValue: EngineSettings['fieldValidation'];
  private members: MemberStatus[] | undefined;

  private constructor(
    readonly engine: EngineClient,
    settings: EngineSettings,
    members: MemberStatus[] | undefined,
  ) {
    this.pacer = new RemotePacer(engine);
    this.userValue = settings.user;
    this.fieldValidationValue = settings.fieldValidation;
    this.members = members;
    engine.onEtcdMembers((m) => (this.members = m as unknown as MemberStatus[]));
  }

  static async start(options: RemoteHostOptions): Promise<RemoteClusterHost> {
    const engine = await EngineClient.start(options);
    const members = (await engine.call('etcdMembers', {})) as unknown as MemberStatus[] | null;
    return new RemoteClusterHost(engine, options.settings, members ?? undefined);
  }

  get view(): RemoteClusterView {
    return this.engine.view;
  }

  get seed(): string {
    return this.engine.seed;
  }

  /** Whose identity applies and operations go out with (Switch User sets it). */
  get user(): Identity {
    return this.userValue;
  }

  set user(user: Identity) {
    this.userValue = user;
    void this.engine.call('setUser', { user }).catch(() => undefined);
  }

  get fieldValidation(): EngineSettings['fieldValidation'] {
    return this.fieldValidationValue;
  }

  set fieldValidation(v: EngineSettings['fieldValidation']) {
    this.fieldValidationValue = v;
    void this.engine.call('setFieldValidation', { fieldValidation: v }).catch(() => undefined);
  }

  apply(file: string, text: string, dryRun = false): Promise<ApplyReply[]> {
    return this.engine.call('apply', { file, text, dryRun });
  }

  deleteManifest(file: string, text: string): Promise<ApplyReply[]> {
    return this.engine.call('deleteManifest', { file, text });
  }

  manifestObjects(file: string, text: string): Promise<ObjectRefWire[]> {
    return this.engine.call('manifestObjects', { file, text });
  }

  nodeNames(): readonly string[] {
    return this.engine.machines.map((m) => m.node);
  }

  isNodeRunning(name: string): boolean {
    return this.engine.machines.find((m) => m.node === name)?.running ?? false;
  }

  onMachines(listener: () => void): () => void {
    return this.engine.onMachines(listener);
  }

  addNode(settings: EngineSettings): Promise<OperationReply> {
    return this.engine.call('addNode', { nodes: copyEngineSettings(settings).nodes });
  }

  stopNode(name: string): Promise<OperationReply> {
    return this.engine.call('node', { action: 'stop', name });
  }

  startNode(name: string): Promise<OperationReply> {
    return this.engine.call('node', { action: 'start', name });
  }

  cordon(name: string): Promise<OperationReply> {
    return this.engine.call('node', { action: 'cordon', name });
  }

  uncordon(name: string): Promise<OperationReply> {
    return this.engine.call('node', { action: 'uncordon', name });
  }

  drain(name: string): Promise<OperationReply> {
    return this.engine.call('node', { action: 'drain', name });
  }

  scale(ref: { kind: string; namespace?: string; name: string }, replicas: number): Promise<OperationReply> {
    return this.engine.call('scale', { ref, replicas });
  }

  rolloutRestart(ref: { kind: string; namespace?: string; name: string }): Promise<OperationReply> {
    return this.engine.call('rolloutRestart', { ref });
  }

  rolloutUndo(ref: { namespace?: string; name: string }, toRevision?: number): Promise<OperationReply> {
    return this.engine.call('rolloutUndo', { ref, ...(toRevision !== undefined ? { toRevision } : {}) });
  }

  objectYaml(ref: ObjectRefWire): Promise<string> {
    return this.engine.call('objectYaml', { ref });
  }

  /** Calls `changed` whenever the object changes; returns the stop function. */
  watchObject(ref: ObjectRefWire, changed: () => void): () => void {
    const watchId = nextWatch++;
    const off = this.engine.onObjectChanged(watchId, changed);
    void this.engine.call('watchObject', { watchId, ref }).catch(() => undefined);
    return () => {
      off();
      void this.engine.call('unwatchObject', { watchId }).catch(() => undefined);
    };
  }

  knownSubjects(): Promise<{ spec: string; description: string }[]> {
    return this.engine.call('knownSubjects', {});
  }

  summary(): Promise<SummaryReply> {
    return this.engine.call('summary', {});
  }

  stepToNextChange(): Promise<StepReply> {
    return this.engine.call('stepToNextChange', {});
  }

  /** Everything needed to carry on later, taken in one step in the worker (it crosses the thread boundary whole: exportSnapshot writes a file without that). */
  async snapshot(): Promise<ClusterSnapshot> {
    return checkClusterSnapshot(await this.engine.call('snapshot', {}));
  }

  /** Export Cluster Snapshot to a file, written by the worker. */
  exportSnapshot(file: string): Promise<{ revision: number; nodes: number }> {
    return this.engine.call('exportSnapshot', { file });
  }

  /** Writes the cluster to its save now (persistence on). */
  async save(): Promise<void> {
    await this.engine.call('save', {});
  }

  /** kubesim.persistence changed: saves now, or removes the save. */
  async setPersistence(on: boolean): Promise<void> {
    await this.engine.call('setPersistence', { on });
  }

  /** The trace's records from `fromId` on (as the panel's story has them). */
  async traceRecords(fromId = 0): Promise<TraceRecord[]> {
    return (await this.engine.call('traceRecords', { fromId })) as unknown as TraceRecord[];
  }

  /** Whether the worker died, and why. */
  get crashReason(): string | undefined {
    return this.engine.crashReason;
  }

  async serveApi(port: number, tls?: { key: string; cert: string }): Promise<RemoteServedApi> {
    const served = await this.engine.call('serveApi', { port, ...(tls ? { tls } : {}) });
    return { ...served, close: async () => void (await this.engine.call('closeApi', {}).catch(() => undefined)) };
  }

  /** The simulated etcd's members as the engine last reported them (undefined with a real etcd). */
  etcdMembers(): MemberStatus[] | undefined {
    return this.members;
  }

  onEtcdMembers(listener: () => void): () => void {
    return this.engine.onEtcdMembers(listener);
  }

  etcdAction(action: EtcdMemberActionWire, member: string): Promise<OperationReply> {
    return this.engine.call('etcdAction', { action, member });
  }

  /** The control-plane panel's feed, in the worker beside the cluster; its messages go to `post`. */
  async connectPanel(post: (message: HostMessage) => void): Promise<PanelConnection> {
    const panelId = nextPanel++;
    const off = this.engine.onPanel(panelId, post);
    await this.engine.call('panelOpen', { panelId });
    return {
      sync: async () => void (await this.engine.call('panelSync', { panelId })),
      hidden: async () => void (await this.engine.call('panelHidden', { panelId })),
      read: async (message) => void (await this.engine.call('panelRead', { panelId, message })),
      dispose: async () => {
        off();
        await this.engine.call('panelClose', { panelId }).catch(() => undefined);
      },
    };
  }

  resyncMirror(): void {
    void this.engine.call('resyncMirror', {}).catch(() => undefined);
  }

  /** Stops the cluster and its worker, saving it first if `save`. */
  dispose(save = false): Promise<void> {
    return this.engine.dispose(save);
  }
}

