/**
 * The messages between the extension host and the engine worker (src/extension/engine-worker.ts,
 * a worker_threads Worker with a heap of its own). The cluster runs in the worker; the extension
 * side holds only what its widgets draw: the objects of the Cluster tree's kinds with their
 * kubectl rows (a stream of view changes), the clock's state, the machines, and the language
 * server's mirror feed, which it forwards. Everything else is a call with a reply.
 *
 * Both sides validate what they receive (`parseToEngine` in the worker, `parseFromEngine` in the
 * extension): a message of the wrong shape is refused with a reason, never acted on. Payloads
 * whose shape the engine defines (a manifest's apply results, a snapshot) are checked for their
 * envelope here and by their owners' own checks where they are used.
 */
import type { JsonObject, KubeObject } from '../engine/api/types';
import type { Status } from '../engine/api/status';
import type { MirrorSyncParams } from './language-server';
import { parseWebviewMessage, type GetDetailsMessage, type GetRevisionMessage, type HostMessage } from './panel';

export const ENGINE_PROTOCOL = 'kubesim/engine@1';

// ---- shared shapes ------------------------------------------------------------------------

/** The settings the engine is started from (the kubesim.* settings the cluster reads). */
export interface EngineSettings {
  readonly nodes: {
    readonly count: number;
    readonly cpu: string;
    readonly memory: string;
    readonly pods: number;
    readonly labels: Readonly<Record<string, string>>;
    readonly taints: readonly { readonly key: string; readonly value?: string; readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
    readonly zones: readonly string[];
  };
  readonly speed: number;
  readonly seed: string;
  readonly user: EngineIdentity;
  readonly fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  readonly traceBufferSize: number;
  readonly metricsServer: boolean;
  readonly etcd: { readonly members: number; readonly latency: 'default' | 'model' | 'instant'; readonly apiserverMs?: number; readonly rttMs?: number; readonly walFsyncMs?: number };
}

/** The engine's settings out of a larger settings object, copied plain (structured clone carries data only; the receiver owns its copy). */
export function copyEngineSettings(s: EngineSettings): EngineSettings {
  return {
    nodes: { ...s.nodes, labels: { ...s.nodes.labels }, taints: s.nodes.taints.map((t) => ({ ...t })), zones: [...s.nodes.zones] },
    speed: s.speed,
    seed: s.seed,
    user: { username: s.user.username, groups: [...s.user.groups] },
    fieldValidation: s.fieldValidation,
    traceBufferSize: s.traceBufferSize,
    metricsServer: s.metricsServer,
    etcd: { ...s.etcd },
  };
}

export interface EngineIdentity {
  readonly username: string;
  readonly groups: readonly string[];
}

/** The Cluster tree's kinds (src/extension/view-types.ts names the same). */
export const ENGINE_VIEW_KINDS = ['nodes', 'namespaces', 'deployments', 'replicasets', 'horizontalpodautoscalers', 'pods', 'services', 'endpointslices', 'events'] as const;
export type EngineViewKind = (typeof ENGINE_VIEW_KINDS)[number];

/** kubectl get's cell: what the API server's table printer puts in a row. */
export type WireCell = string | number | boolean | null;

/** One object's change as the engine's informers saw it, with its kubectl row printed at the change's virtual time. */
export interface WireViewChange {
  readonly kind: EngineViewKind;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly key: string;
  /** What the tree reads of the object (src/extension/view-summary.ts), not the whole object: the host reads that from the worker when it shows it. */
  readonly object: KubeObject;
  readonly row: Readonly<Record<string, WireCell>>;
  /** A pod's requests as the scheduler counts them (cpu in millicores, memory in bytes): the tree's node load. */
  readonly requests?: { readonly milliCPU: number; readonly memory: number };
}

export interface Machine {
  readonly node: string;
  readonly running: boolean;
}

export type OperationReply = { ok: true; lines: string[] } | { ok: false; message: string };

export interface ObjectRefWire {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

export interface ApplyReply {
  readonly file: string;
  readonly index: number;
  readonly ref: string;
  readonly action: 'created' | 'configured' | 'unchanged' | 'deleted' | 'failed';
  readonly message: string;
  readonly warnings: readonly string[];
  readonly object?: KubeObject;
  readonly status?: Status;
  readonly trace?: number;
}

export interface SummaryReply {
  readonly revision: number;
  readonly nodes: { readonly total: number; readonly ready: number };
  readonly pods: { readonly running: number; readonly pending: number; readonly failed: number };
  readonly clock: 'running' | 'paused';
  readonly speed: number;
  readonly time: number;
  readonly user: string;
}

export interface StepReply {
  readonly stopped: 'change' | 'idle' | 'horizon';
  readonly elapsed: number;
  readonly time: number;
  readonly changes: number;
  readonly first?: { readonly revision?: number; readonly actor: string; readonly text: string };
}

export const ETCD_MEMBER_ACTIONS = ['stop', 'start', 'partition', 'heal', 'slow', 'compact', 'defragment', 'disarm'] as const;
export type EtcdMemberActionWire = (typeof ETCD_MEMBER_ACTIONS)[number];

/** Each call: its parameters and what the reply carries. */
export interface EngineCalls {
  apply: { params: { file: string; text: string; dryRun: boolean }; result: ApplyReply[] };
  deleteManifest: { params: { file: string; text: string }; result: ApplyReply[] };
  manifestObjects: { params: { file: string; text: string }; result: ObjectRefWire[] };
  summary: { params: Record<string, never>; result: SummaryReply };
  setUser: { params: { user: EngineIdentity }; result: null };
  setFieldValidation: { params: { fieldValidation: EngineSettings['fieldValidation'] }; result: null };
  setSpeed: { params: { speed: number }; result: null };
  pause: { params: Record<string, never>; result: null };
  resume: { params: Record<string, never>; result: null };
  stepToNextChange: { params: Record<string, never>; result: StepReply };
  addNode: { params: { nodes: EngineSettings['nodes'] }; result: OperationReply };
  node: { params: { action: 'stop' | 'start' | 'cordon' | 'uncordon' | 'drain'; name: string }; result: OperationReply };
  scale: { params: { ref: { kind: string; namespace?: string; name: string }; replicas: number }; result: OperationReply };
  rolloutRestart: { params: { ref: { kind: string; namespace?: string; name: string } }; result: OperationReply };
  rolloutUndo: { params: { ref: { namespace?: string; name: string }; toRevision?: number }; result: OperationReply };
  objectYaml: { params: { ref: ObjectRefWire }; result: string };
  knownSubjects: { params: Record<string, never>; result: { spec: string; description: string }[] };
  etcdMembers: { params: Record<string, never>; result: JsonObject[] | null };
  etcdAction: { params: { action: EtcdMemberActionWire; member: string }; result: OperationReply };
  resyncMirror: { params: Record<string, never>; result: null };
  /** Calls back (objectChanged with the watch's id) whenever the object changes: a watch on its name. */
  watchObject: { params: { watchId: number; ref: ObjectRefWire }; result: null };
  unwatchObject: { params: { watchId: number }; result: null };
  /** The cluster as Export Cluster Snapshot saves it (src/extension/snapshot.ts's shape), taken in one step. */
  snapshot: { params: Record<string, never>; result: JsonObject };
  /** Start API Endpoint: serves the cluster over HTTPS on 127.0.0.1 (one endpoint at a time; serving again closes the earlier one). */
  serveApi: { params: { port: number; tls?: { key: string; cert: string } }; result: ServedApiWire };
  closeApi: { params: Record<string, never>; result: null };
  /** Writes the cluster to its save now (persistence on; nothing otherwise). */
  save: { params: Record<string, never>; result: null };
  /** kubesim.persistence turned on (saves now) or off (the save is removed). */
  setPersistence: { params: { on: boolean }; result: null };
  /** Export Cluster Snapshot: the worker writes the file (durably), so the cluster never crosses to the extension host. */
  exportSnapshot: { params: { file: string }; result: { revision: number; nodes: number } };
  /** The trace's records from `fromId` on (the extension-host tests read the story through it). */
  traceRecords: { params: { fromId: number }; result: JsonObject[] };
  /** The worker's V8 heap (bytes): what it uses, what it has reserved and the limit kubesim.engine.maxHeapMB set. */
  heap: { params: Record<string, never>; result: { used: number; total: number; limit: number } };
  /** The control-plane panel's feed (src/extension/panel/feed.ts) in the worker: its messages come as 'panel'. */
  panelOpen: { params: { panelId: number }; result: null };
  panelSync: { params: { panelId: number }; result: null };
  panelHidden: { params: { panelId: number }; result: null };
  /** A time-travel or details read the webview asked for (checked again here with parseWebviewMessage). */
  panelRead: { params: { panelId: number; message: GetRevisionMessage | GetDetailsMessage }; result: null };
  panelClose: { params: { panelId: number }; result: null };
}

export interface ServedApiWire {
  readonly port: number;
  readonly url: string;
  readonly tls: { readonly key: string; readonly cert: string };
  readonly kubeconfig: string;
  readonly contexts: readonly string[];
}

export type EngineMethod = keyof EngineCalls;

// ---- extension -> engine ------------------------------------------------------------------

export interface StartMessage {
  readonly type: 'start';
  readonly protocol: typeof ENGINE_PROTOCOL;
  readonly settings: EngineSettings;
  /**
   * Where the cluster comes from: the workspace's save if there is one ('saved'), a new one
   * ('fresh': the save is removed first, as Reset Cluster does), or a snapshot: `restore` (its
   * value, src/extension/snapshot.ts's shape) or `restoreFile` (an exported snapshot's path, read
   * in the worker). The worker checks a snapshot as a file's would be.
   */
  readonly from: 'saved' | 'fresh' | 'snapshot';
  readonly restore?: unknown;
  readonly restoreFile?: string;
  /** The workspace storage's cluster.json: the worker loads it, saves to it as the cluster changes (durably), and moves a damaged one aside. Absent: nothing is saved. */
  readonly persistence?: { readonly file: string };
}

export interface CallMessage<M extends EngineMethod = EngineMethod> {
  readonly type: 'call';
  readonly id: number;
  readonly method: M;
  readonly params: EngineCalls[M]['params'];
}

/** Stops the cluster (orderly: the worker saves it if `save`, closes it, then exits). */
export interface StopMessage {
  readonly type: 'stop';
  readonly save: boolean;
}

/**
 * The extension handled the last 'view' or 'mirror' message: the worker sends the next one. One
 * such message is in flight at a time, so the extension host takes the stream in turns of its
 * event loop, however fast the cluster changes (the worker coalesces meanwhile).
 */
export interface AckMessage {
  readonly type: 'ack';
  /** The panel whose message was handed to its webview ('panel' messages are acked per panel); absent: the stream's. */
  readonly panelId?: number;
}

export type ToEngine = StartMessage | CallMessage | StopMessage | AckMessage;

// ---- engine -> extension ------------------------------------------------------------------

export interface StartedMessage {
  readonly type: 'started';
  readonly machines: readonly Machine[];
  readonly seed: string;
  readonly clock: { readonly state: 'running' | 'paused'; readonly speed: number };
}

/** A start that failed (a snapshot that cannot be restored): the worker stays, waiting for another start or a stop. */
export interface StartFailedMessage {
  readonly type: 'startFailed';
  readonly message: string;
}

/** A failed call's reply: the error's text, and a Node system error's code (EADDRINUSE ...) when it had one, so the extension words it as it would have. */
export type ReplyMessage = { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly result: unknown } | { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly message: string; readonly code?: string };

/** A batch of the tree's changes (in the order the informers delivered them). */
export interface ViewMessage {
  readonly type: 'view';
  readonly changes: readonly WireViewChange[];
  /** Virtual now when the batch was sent. */
  readonly time: number;
}

export interface MirrorMessage {
  readonly type: 'mirror';
  readonly params: MirrorSyncParams;
}

export interface PacerMessage {
  readonly type: 'pacer';
  readonly state: 'running' | 'paused';
  readonly speed: number;
}

export interface MachinesMessage {
  readonly type: 'machines';
  readonly machines: readonly Machine[];
}

/**
 * Something the user should hear of: an engine failure that paused the clock, a save that could
 * not be written ('error'); a damaged save moved aside ('warning'); a line for the output ('log').
 * The text is complete ("KubeSim: ...").
 */
export interface NoticeMessage {
  readonly type: 'notice';
  readonly severity: 'error' | 'warning' | 'log';
  readonly message: string;
}

/** A watched object changed (watchObject). */
export interface ObjectChangedMessage {
  readonly type: 'objectChanged';
  readonly watchId: number;
}

/** The simulated etcd's members changed (an election, a fault): their status as the engine reports it. */
export interface EtcdMembersMessage {
  readonly type: 'etcdMembers';
  readonly members: readonly JsonObject[];
}

/** A message of the panel's feed for its webview, relayed as it is. */
export interface PanelMessage {
  readonly type: 'panel';
  readonly panelId: number;
  readonly message: HostMessage;
}

export type FromEngine = PanelMessage | StartedMessage | StartFailedMessage | ReplyMessage | ViewMessage | MirrorMessage | PacerMessage | MachinesMessage | NoticeMessage | ObjectChangedMessage | EtcdMembersMessage;

// ---- validation ---------------------------------------------------------------------------

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isStringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every(isString);
const optional = <T>(v: unknown, check: (x: unknown) => x is T): boolean => v === undefined || check(v);

/** Inputs are bounded: a manifest's text and a name at most this long. */
export const MAX_TEXT = 64 * 1024 * 1024;
const MAX_NAME = 1024;
const short = (v: unknown): v is string => isString(v) && v.length <= MAX_NAME;
/** A file's absolute path (the worker reads and writes only what the extension names). */
const isPath = (v: unknown): v is string => isString(v) && v.length > 0 && v.length <= 4096 && !v.includes('\0') && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v));

function identityError(v: unknown): string | undefined {
  if (!isRecord(v) || !short(v.username) || !isStrings(v.groups)) return 'user: expected { username, groups }';
  return undefined;
}

function nodesError(v: unknown): string | undefined {
  if (!isRecord(v)) return 'nodes: expected an object';
  if (!isInt(v.count) || v.count < 0 || v.count > 100_000) return 'nodes.count: expected an integer';
  if (!short(v.cpu) || !short(v.memory)) return 'nodes.cpu, nodes.memory: expected quantities';
  if (!isInt(v.pods) || v.pods < 1) return 'nodes.pods: expected a positive integer';
  if (!isStringMap(v.labels)) return 'nodes.labels: expected string labels';
  if (!Array.isArray(v.taints) || !v.taints.every((t) => isRecord(t) && short(t.key) && optional(t.value, isString) && (t.effect === 'NoSchedule' || t.effect === 'PreferNoSchedule' || t.effect === 'NoExecute'))) return 'nodes.taints: expected taints';
  if (!isStrings(v.zones) || v.zones.length === 0) return 'nodes.zones: expected zone names';
  return undefined;
}

/** Why the value is not EngineSettings, or undefined when it is. */
export function engineSettingsError(v: unknown): string | undefined {
  if (!isRecord(v)) return 'settings: expected an object';
  const nodes = nodesError(v.nodes);
  if (nodes) return nodes;
  if (!isFiniteNumber(v.speed) || v.speed <= 0) return 'speed: expected a positive number';
  if (!isString(v.seed)) return 'seed: expected a string';
  const user = identityError(v.user);
  if (user) return user;
  if (v.fieldValidation !== 'Strict' && v.fieldValidation !== 'Warn' && v.fieldValidation !== 'Ignore') return 'fieldValidation: expected Strict, Warn or Ignore';
  if (!isInt(v.traceBufferSize) || v.traceBufferSize < 1) return 'traceBufferSize: expected a positive integer';
  if (typeof v.metricsServer !== 'boolean') return 'metricsServer: expected a boolean';
  const e = v.etcd;
  if (!isRecord(e) || !isInt(e.members) || (e.latency !== 'default' && e.latency !== 'model' && e.latency !== 'instant')) return 'etcd: expected { members, latency }';
  for (const part of ['apiserverMs', 'rttMs', 'walFsyncMs'] as const) if (!optional(e[part], isFiniteNumber)) return `etcd.${part}: expected a number`;
  return undefined;
}

function kindRefError(v: unknown, needKind: boolean): string | undefined {
  if (!isRecord(v) || !short(v.name) || !optional(v.namespace, short) || (needKind && !short(v.kind))) return 'ref: expected { kind, namespace?, name }';
  return undefined;
}

function objectRefError(v: unknown): string | undefined {
  if (!isRecord(v) || !short(v.group) || !short(v.version) || !short(v.resource) || !short(v.kind) || !short(v.name) || !optional(v.namespace, short)) return 'ref: expected an object reference';
  return undefined;
}

const manifest = (p: Record<string, unknown>): string | undefined => (short(p.file) && isString(p.text) && p.text.length <= MAX_TEXT ? undefined : 'expected { file, text } (text at most 64 MiB)');
const none = (): string | undefined => undefined;

/** Each call's parameter check: the reason they are refused, or undefined. */
const PARAMS: { readonly [M in EngineMethod]: (p: Record<string, unknown>) => string | undefined } = {
  apply: (p) => manifest(p) ?? (typeof p.dryRun === 'boolean' ? undefined : 'dryRun: expected a boolean'),
  deleteManifest: manifest,
  manifestObjects: manifest,
  summary: none,
  setUser: (p) => identityError(p.user),
  setFieldValidation: (p) => (p.fieldValidation === 'Strict' || p.fieldValidation === 'Warn' || p.fieldValidation === 'Ignore' ? undefined : 'fieldValidation: expected Strict, Warn or Ignore'),
  setSpeed: (p) => (isFiniteNumber(p.speed) && p.speed > 0 ? undefined : 'speed: expected a positive number'),
  pause: none,
  resume: none,
  stepToNextChange: none,
  addNode: (p) => nodesError(p.nodes),
  node: (p) => (['stop', 'start', 'cordon', 'uncordon', 'drain'].includes(p.action as string) && short(p.name) ? undefined : 'expected { action: stop|start|cordon|uncordon|drain, name }'),
  scale: (p) => kindRefError(p.ref, true) ?? (isInt(p.replicas) && p.replicas >= 0 ? undefined : 'replicas: expected a non-negative integer'),
  rolloutRestart: (p) => kindRefError(p.ref, true),
  rolloutUndo: (p) => kindRefError(p.ref, false) ?? (optional(p.toRevision, isInt) ? undefined : 'toRevision: expected an integer'),
  objectYaml: (p) => objectRefError(p.ref),
  knownSubjects: none,
  etcdMembers: none,
  etcdAction: (p) => ((ETCD_MEMBER_ACTIONS as readonly string[]).includes(p.action as string) && short(p.member) ? undefined : `expected { action: ${ETCD_MEMBER_ACTIONS.join('|')}, member }`),
  resyncMirror: none,
  watchObject: (p) => (isInt(p.watchId) ? objectRefError(p.ref) : 'watchId: expected an integer'),
  unwatchObject: (p) => (isInt(p.watchId) ? undefined : 'watchId: expected an integer'),
  snapshot: none,
  serveApi: (p) => (isInt(p.port) && p.port >= 0 && p.port <= 65535 ? (p.tls === undefined || (isRecord(p.tls) && isString(p.tls.key) && isString(p.tls.cert)) ? undefined : 'tls: expected { key, cert }') : 'port: expected 0 to 65535'),
  closeApi: none,
  save: none,
  setPersistence: (p) => (typeof p.on === 'boolean' ? undefined : 'on: expected a boolean'),
  exportSnapshot: (p) => (isPath(p.file) ? undefined : 'file: expected a path'),
  traceRecords: (p) => (isInt(p.fromId) && p.fromId >= 0 ? undefined : 'fromId: expected a non-negative integer'),
  heap: none,
  panelOpen: (p) => panelIdError(p),
  panelSync: (p) => panelIdError(p),
  panelHidden: (p) => panelIdError(p),
  panelRead: (p) => {
    const id = panelIdError(p);
    if (id) return id;
    const m = parseWebviewMessage(p.message);
    if (!m.ok) return `message: ${m.error}`;
    return m.message.type === 'getRevision' || m.message.type === 'getDetails' ? undefined : 'message: expected getRevision or getDetails';
  },
  panelClose: (p) => panelIdError(p),
};

function panelIdError(p: Record<string, unknown>): string | undefined {
  return isInt(p.panelId) && p.panelId >= 0 ? undefined : 'panelId: expected a non-negative integer';
}

/** The messages the panel's webview understands (src/protocol/panel.ts's HostMessage). */
const HOST_MESSAGE_TYPES: readonly string[] = ['reset', 'records', 'revision', 'state.reset', 'state', 'details', 'showDetails', 'etcd.reset', 'etcd', 'showEtcd'];

const isMethod = (v: unknown): v is EngineMethod => isString(v) && Object.prototype.hasOwnProperty.call(PARAMS, v);

/** A message to the engine, checked (the worker acts only on what passes). */
export function parseToEngine(raw: unknown): Parsed<ToEngine> {
  if (!isRecord(raw)) return { ok: false, error: 'not an object' };
  switch (raw.type) {
    case 'start': {
      if (raw.protocol !== ENGINE_PROTOCOL) return { ok: false, error: `start: protocol ${JSON.stringify(raw.protocol)} is not ${ENGINE_PROTOCOL}` };
      const settings = engineSettingsError(raw.settings);
      if (settings) return { ok: false, error: `start: ${settings}` };
      if (raw.from !== 'saved' && raw.from !== 'fresh' && raw.from !== 'snapshot') return { ok: false, error: 'start: from: expected saved, fresh or snapshot' };
      if (raw.restore !== undefined && !isRecord(raw.restore)) return { ok: false, error: 'start: restore: expected a snapshot object' };
      if (raw.restoreFile !== undefined && !isPath(raw.restoreFile)) return { ok: false, error: 'start: restoreFile: expected a path' };
      if (raw.from === 'snapshot' && (raw.restore === undefined) === (raw.restoreFile === undefined)) return { ok: false, error: 'start: from snapshot: expected restore or restoreFile' };
      if (raw.persistence !== undefined && (!isRecord(raw.persistence) || !isPath(raw.persistence.file))) return { ok: false, error: 'start: persistence: expected { file }' };
      return { ok: true, message: raw as unknown as StartMessage };
    }
    case 'call': {
      if (!isInt(raw.id) || raw.id < 0) return { ok: false, error: 'call: id: expected a non-negative integer' };
      if (!isMethod(raw.method)) return { ok: false, error: `call: unknown method ${JSON.stringify(raw.method)}` };
      if (!isRecord(raw.params)) return { ok: false, error: `call ${raw.method}: params: expected an object` };
      const error = PARAMS[raw.method](raw.params);
      if (error) return { ok: false, error: `call ${raw.method}: ${error}` };
      return { ok: true, message: raw as unknown as CallMessage };
    }
    case 'stop':
      return typeof raw.save === 'boolean' ? { ok: true, message: { type: 'stop', save: raw.save } } : { ok: false, error: 'stop: save: expected a boolean' };
    case 'ack':
      if (raw.panelId === undefined) return { ok: true, message: { type: 'ack' } };
      return isInt(raw.panelId) && raw.panelId >= 0 ? { ok: true, message: { type: 'ack', panelId: raw.panelId } } : { ok: false, error: 'ack: panelId: expected a non-negative integer' };
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(raw.type)}` };
  }
}

const isKind = (v: unknown): v is EngineViewKind => (ENGINE_VIEW_KINDS as readonly unknown[]).includes(v);
const isCell = (v: unknown): v is WireCell => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const isMachines = (v: unknown): v is Machine[] => Array.isArray(v) && v.every((m) => isRecord(m) && isString(m.node) && typeof m.running === 'boolean');
const isClockState = (v: unknown): v is 'running' | 'paused' => v === 'running' || v === 'paused';

function viewChangeError(c: unknown): string | undefined {
  if (!isRecord(c) || !isKind(c.kind) || (c.type !== 'ADDED' && c.type !== 'MODIFIED' && c.type !== 'DELETED') || !isString(c.key)) return 'expected { kind, type, key, object, row }';
  if (!isRecord(c.object) || !isRecord(c.object.metadata)) return 'object: expected an object with metadata';
  if (!isRecord(c.row) || !Object.values(c.row).every(isCell)) return 'row: expected printer cells';
  if (c.requests !== undefined && (!isRecord(c.requests) || !isFiniteNumber(c.requests.milliCPU) || !isFiniteNumber(c.requests.memory))) return 'requests: expected { milliCPU, memory }';
  return undefined;
}

/** A message from the engine, checked (the extension acts only on what passes). */
export function parseFromEngine(raw: unknown): Parsed<FromEngine> {
  if (!isRecord(raw)) return { ok: false, error: 'not an object' };
  const ok = { ok: true as const, message: raw as unknown as FromEngine };
  switch (raw.type) {
    case 'started':
      if (!isMachines(raw.machines) || !isString(raw.seed) || !isRecord(raw.clock) || !isClockState(raw.clock.state) || !isFiniteNumber(raw.clock.speed)) return { ok: false, error: 'started: expected { machines, seed, clock }' };
      return ok;
    case 'startFailed':
      return isString(raw.message) ? ok : { ok: false, error: 'startFailed: message: expected a string' };
    case 'notice':
      return isString(raw.message) && (raw.severity === 'error' || raw.severity === 'warning' || raw.severity === 'log') ? ok : { ok: false, error: 'notice: expected { severity: error|warning|log, message }' };
    case 'reply':
      if (!isInt(raw.id)) return { ok: false, error: 'reply: id: expected an integer' };
      if (raw.ok === true) return 'result' in raw ? ok : { ok: false, error: 'reply: result missing' };
      if (raw.ok === false) return isString(raw.message) && optional(raw.code, short) ? ok : { ok: false, error: 'reply: expected { message, code? }' };
      return { ok: false, error: 'reply: ok: expected a boolean' };
    case 'view': {
      if (!Array.isArray(raw.changes) || !isFiniteNumber(raw.time)) return { ok: false, error: 'view: expected { changes, time }' };
      for (let i = 0; i < raw.changes.length; i++) {
        const error = viewChangeError(raw.changes[i]);
        if (error) return { ok: false, error: `view: change ${i}: ${error}` };
      }
      return ok;
    }
    case 'mirror': {
      const p = raw.params;
      if (!isRecord(p) || !optional(p.replace, (x): x is boolean => typeof x === 'boolean') || !Array.isArray(p.events)) return { ok: false, error: 'mirror: expected { replace?, events }' };
      if (!p.events.every((e) => isRecord(e) && (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') && isRecord(e.object))) return { ok: false, error: 'mirror: events: expected { type, object }' };
      return ok;
    }
    case 'pacer':
      return isClockState(raw.state) && isFiniteNumber(raw.speed) ? ok : { ok: false, error: 'pacer: expected { state, speed }' };
    case 'machines':
      return isMachines(raw.machines) ? ok : { ok: false, error: 'machines: expected [{ node, running }]' };
    case 'panel':
      return isInt(raw.panelId) && isRecord(raw.message) && HOST_MESSAGE_TYPES.includes(raw.message.type as string) ? ok : { ok: false, error: 'panel: expected { panelId, message } with a message the webview understands' };
    case 'objectChanged':
      return isInt(raw.watchId) ? ok : { ok: false, error: 'objectChanged: watchId: expected an integer' };
    case 'etcdMembers':
      return isMembers(raw.members) ? ok : { ok: false, error: 'etcdMembers: expected member statuses' };
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(raw.type)}` };
  }
}

/** The checks of each call's result, on the extension's side. */
export const RESULTS: { readonly [M in EngineMethod]: (v: unknown) => boolean } = {
  apply: (v) => Array.isArray(v) && v.every(isApplyReply),
  deleteManifest: (v) => Array.isArray(v) && v.every(isApplyReply),
  manifestObjects: (v) => Array.isArray(v) && v.every((r) => objectRefError(r) === undefined),
  summary: (v) => isRecord(v) && isInt(v.revision) && isRecord(v.nodes) && isRecord(v.pods) && isClockState(v.clock) && isFiniteNumber(v.speed) && isFiniteNumber(v.time) && isString(v.user),
  setUser: (v) => v === null,
  setFieldValidation: (v) => v === null,
  setSpeed: (v) => v === null,
  pause: (v) => v === null,
  resume: (v) => v === null,
  stepToNextChange: (v) => isRecord(v) && (v.stopped === 'change' || v.stopped === 'idle' || v.stopped === 'horizon') && isFiniteNumber(v.elapsed) && isFiniteNumber(v.time) && isInt(v.changes),
  addNode: isOperationReply,
  node: isOperationReply,
  scale: isOperationReply,
  rolloutRestart: isOperationReply,
  rolloutUndo: isOperationReply,
  objectYaml: isString,
  knownSubjects: (v) => Array.isArray(v) && v.every((s) => isRecord(s) && isString(s.spec) && isString(s.description)),
  etcdMembers: (v) => v === null || isMembers(v),
  etcdAction: isOperationReply,
  resyncMirror: (v) => v === null,
  watchObject: (v) => v === null,
  unwatchObject: (v) => v === null,
  snapshot: (v) => isRecord(v) && isString(v.format),
  serveApi: (v) => isRecord(v) && isInt(v.port) && isString(v.url) && isString(v.kubeconfig) && isStrings(v.contexts) && isRecord(v.tls) && isString(v.tls.key) && isString(v.tls.cert),
  closeApi: (v) => v === null,
  save: (v) => v === null,
  setPersistence: (v) => v === null,
  exportSnapshot: (v) => isRecord(v) && isInt(v.revision) && isInt(v.nodes),
  traceRecords: (v) => Array.isArray(v) && v.every((r) => isRecord(r) && isInt(r.id) && isString(r.type)),
  heap: (v) => isRecord(v) && isInt(v.used) && isInt(v.total) && isInt(v.limit),
  panelOpen: (v) => v === null,
  panelSync: (v) => v === null,
  panelHidden: (v) => v === null,
  panelRead: (v) => v === null,
  panelClose: (v) => v === null,
};

function isMembers(v: unknown): boolean {
  return Array.isArray(v) && v.every((m) => isRecord(m) && isString(m.name) && isString(m.role) && isString(m.state) && isInt(m.term) && isInt(m.commitIndex));
}

function isApplyReply(v: unknown): boolean {
  return isRecord(v) && isString(v.file) && isInt(v.index) && isString(v.ref) && ['created', 'configured', 'unchanged', 'deleted', 'failed'].includes(v.action as string) && isString(v.message) && isStrings(v.warnings);
}

function isOperationReply(v: unknown): boolean {
  if (!isRecord(v)) return false;
  return v.ok === true ? isStrings(v.lines) : v.ok === false && isString(v.message);
}
