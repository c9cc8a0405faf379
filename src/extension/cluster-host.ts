/**
 * The running cluster on the extension host's side (no vscode import: the session loads this
 * bundle on first use). It wires createCluster to the host's event loop: a ClockHost that
 * yields every ~20 ms of wall time (docs/architecture.md, invariant 8) and a Pacer on setTimeout and
 * performance.now. The editor's informers (cluster-view.ts) and the language server's mirror
 * feed (mirror-feed.ts) watch it as an API client; user intent (apply, delete, node and workload
 * operations) goes out as API requests with the current user's identity, so RBAC answers.
 */
import { createCluster, type Cluster } from '../engine/cluster';
import { alarmText, EtcdClient, SLOW_DISK_FSYNC_MS, type LatencySetting, type MemberStatus } from '../engine/store/etcdserver';
import { defragmentMember } from '../engine/store/etcdserver/maintenance';
import type { KubeObject } from '../engine/api/types';
import { formatKubectlError } from '../engine/kubectl/format';
import { StatusError, type Status } from '../engine/api/status';
import { ADMIN_USER, type UserInfo } from '../engine/apiserver/authn/user';
import { componentUserAgent, type Client } from '../engine/client/client';
import { SharedInformerFactory } from '../engine/client/informer';
import { SERVICEACCOUNTS } from '../engine/client/resources';
import { cordon, drain, uncordon } from '../engine/kubectl/node';
import { rolloutRestart, rolloutUndo, scale, type DeploymentRef, type ScalableRef, type WorkloadRef } from '../engine/kubectl/workload';
import { applyDocument, type ApplyResult } from '../engine/kubectl/apply';
import { parseManifest } from '../engine/apiserver/decode';
import { Pacer, type WallClock } from '../engine/pacer';
import { stepToNextChange } from '../engine/step';
import { describeRecord } from '../engine/timeline/describe';
import { PANEL_AGENT_SUFFIX } from '../engine/timeline/noise';
import { DEFAULT_SLICE_MS, slicingClockHost } from '../host/clock-host';
import { realWallClock } from '../host/wall-clock';
import type { Taint } from '../engine/kubelet/api';
import type { SavedTrace, TraceBuffer } from '../engine/trace/buffer';
import type { MirrorSyncParams } from '../protocol/language-server';
import type { SelfSignedCertificate } from '../http/tls';
import { InformerClusterView } from './cluster-view';
import { serveCluster, type EndpointUser, type ServedApi } from './endpoint/serve';
import type { Identity } from './identity';
import { liveErrorYaml, liveObjectYaml } from './live-yaml';
import { deleteManifestObject, manifestObjects, type ObjectRef } from './manifest-objects';
import { MirrorFeed } from './mirror-feed';
import { StateLog } from './panel/state-log';
import type { PanelCluster } from './panel/host';
import type { FieldValidation, KubeSimSettings } from './settings';
import { CLUSTER_SNAPSHOT_FORMAT, type ClusterSnapshot } from './snapshot';
import type { ClusterSummary, StepReport } from './status-text';

const EDITOR_AGENT = componentUserAgent('kubesim-vscode');
/** The panel's own reads (time travel) say so in their User-Agent, so it never shows them as the user's. */
const PANEL_AGENT = componentUserAgent('kubesim-vscode', PANEL_AGENT_SUFFIX);
const ROLEBINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' };
const CLUSTERROLEBINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' };

export interface ClusterHostOptions {
  settings: KubeSimSettings;
  /** Start from a saved cluster instead of a new one. */
  restore?: ClusterSnapshot;
  /** With a restored cluster: the trace saved with it, so the panel's story goes on. */
  trace?: SavedTrace;
  /** kubesim/mirrorSync to the language server. */
  mirror: (params: MirrorSyncParams) => void;
  /** The simulation stopped on an engine failure (the clock is paused). */
  onError: (err: unknown) => void;
  wall?: WallClock;
}

function userInfo(id: Identity): UserInfo {
  return { username: id.username, uid: '', groups: [...id.groups], extra: {} };
}

function taints(settings: KubeSimSettings): Taint[] {
  return settings.nodes.taints.map((t) => (t.value ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect }));
}

/**
 * The kubeconfig's identities, named as `kubesim serve` names them: the admin (current), and the
 * editor's user when that is someone else.
 */
export function endpointUsers(user: Identity): EndpointUser[] {
  const users: EndpointUser[] = [{ context: 'kubesim', user: 'kubesim-admin', info: ADMIN_USER }];
  if (user.username !== ADMIN_USER.username) users.push({ context: `kubesim-${user.username}`, user: user.username, info: userInfo(user) });
  return users;
}

/** kubectl's text for a failure: a Status error as kubectl prints it, anything else as is. */
function errorText(err: unknown): string {
  if (err instanceof StatusError) return formatKubectlError(err.status).trimEnd();
  return err instanceof Error ? err.message : String(err);
}

function nodeReady(node: KubeObject): boolean {
  const conditions = (node.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Runs `step` over the items, giving the host's event loop a turn whenever a slice has run
 * DEFAULT_SLICE_MS (a manifest of a thousand documents must not freeze the editor).
 */
async function sliced<T, R>(items: readonly T[], step: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let start = performance.now();
  for (const item of items) {
    out.push(await step(item));
    if (performance.now() - start >= DEFAULT_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      start = performance.now();
    }
  }
  return out;
}

/** A node or workload operation's outcome: kubectl's lines, or its error. */
export type OperationResult = { ok: true; lines: string[] } | { ok: false; message: string };

async function operation(run: () => Promise<string | string[]>): Promise<OperationResult> {
  try {
    const out = await run();
    return { ok: true, lines: Array.isArray(out) ? out : [out] };
  } catch (err) {
    return { ok: false, message: errorText(err) };
  }
}

/** The simulated etcd from the settings: its members, the latency model (the engine's default unless set) and the backend quota. */
function etcdOptions(settings: KubeSimSettings): { members: number; latency?: LatencySetting; quotaBackendBytes?: number } {
  const e = settings.etcd;
  const parts = { ...(e.apiserverMs !== undefined ? { apiserverMs: e.apiserverMs } : {}), ...(e.rttMs !== undefined ? { rttMs: e.rttMs } : {}), ...(e.walFsyncMs !== undefined ? { walFsyncMs: e.walFsyncMs } : {}) };
  const quota = e.quotaBackendBytes !== 0 ? { quotaBackendBytes: e.quotaBackendBytes } : {};
  if (e.latency === 'instant') return { members: e.members, latency: 'instant', ...quota };
  if (e.latency === 'model' || Object.keys(parts).length > 0) return { members: e.members, latency: Object.keys(parts).length > 0 ? parts : 'model', ...quota };
  return { members: e.members, ...quota };
}

/** Faults on a member, and etcd's maintenance (compact the history, defragment a member's bbolt file, disarm the alarms). */
export type EtcdMemberAction = 'stop' | 'start' | 'partition' | 'heal' | 'slow' | 'compact' | 'defragment' | 'disarm';

export class ClusterHost {
  user: Identity;
  fieldValidation: FieldValidation;
  private readonly factory: SharedInformerFactory;
  private readonly feed: MirrorFeed;
  private disposed = false;
  private served: ServedApi | undefined;

  private constructor(
    readonly cluster: Cluster,
    readonly pacer: Pacer,
    readonly view: InformerClusterView,
    factory: SharedInformerFactory,
    feed: MirrorFeed,
    readonly stateLog: StateLog,
    settings: KubeSimSettings,
  ) {
    this.factory = factory;
    this.feed = feed;
    this.user = settings.user;
    this.fieldValidation = settings.fieldValidation;
  }

  static async start(options: ClusterHostOptions): Promise<ClusterHost> {
    const { settings, restore } = options;
    const cluster = await createCluster({
      seed: restore?.seed ?? settings.seed,
      startTime: restore?.time,
      traceCapacity: settings.traceBufferSize,
      clockHost: slicingClockHost(DEFAULT_SLICE_MS),
      nodes: {
        count: settings.nodes.count,
        cpu: settings.nodes.cpu,
        memory: settings.nodes.memory,
        pods: settings.nodes.pods,
        labels: settings.nodes.labels,
        taints: taints(settings),
        zones: settings.nodes.zones,
      },
      restore: restore && { store: restore.store, nodes: restore.nodes, trace: options.trace },
      metricsServer: settings.metricsServer,
      etcd: etcdOptions(settings),
    });
    const admin = cluster.client(undefined, EDITOR_AGENT);
    const factory = new SharedInformerFactory({ client: admin, clock: cluster.clock, random: cluster.random.fork('kubesim-vscode'), component: 'kubesim-vscode' });
    const view = new InformerClusterView(factory, cluster.clock);
    const feed = new MirrorFeed(factory, cluster.server.registry.all(), options.mirror);
    const machines = cluster.nodes().map((node) => ({ node, running: cluster.kubelet(node)?.isRunning ?? false }));
    const stateLog = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines });
    factory.start();
    const pacer = new Pacer(cluster.clock, options.wall ?? realWallClock, options.onError);
    pacer.setSpeed(settings.speed);
    const host = new ClusterHost(cluster, pacer, view, factory, feed, stateLog, settings);
    // The informers list in clock tasks due now: run them, and the clock as far as their lists
    // take (a few ms of etcd's time with the latency model, none with instant), then feed the
    // language server the full picture.
    await cluster.advance(0);
    await cluster.drive(view.whenSynced());
    feed.replace();
    if (!restore || restore.clock.state === 'running') pacer.resume();
    return host;
  }

  get trace(): TraceBuffer {
    return this.cluster.trace;
  }

  /** The admin, for the editor's own reads (live documents, Switch User's list). */
  get adminClient(): Client {
    return this.cluster.client(undefined, EDITOR_AGENT);
  }

  /** The admin, for the reads the control-plane panel makes (time travel), under the panel's User-Agent. */
  get panelClient(): Client {
    return this.cluster.client(undefined, PANEL_AGENT);
  }

  /** What the control-plane panel's feed reads (src/extension/panel/host.ts). */
  panelCluster(): PanelCluster {
    const clock = this.cluster.clock;
    return { trace: this.trace, client: this.panelClient, state: this.stateLog, logs: this.cluster.logs, etcd: this.cluster.etcd, now: () => clock.now() };
  }

  /** Pauses and moves to the cluster's next change (src/engine/step.ts). */
  async stepToNextChange(): Promise<StepReport> {
    this.pacer.pause();
    const { clock, trace } = this.cluster;
    const result = await this.pacer.stepWith(() => stepToNextChange(clock, trace));
    const first = result.changes[0];
    return { stopped: result.stopped, elapsed: result.elapsed, time: clock.now(), changes: result.changes.length, ...(first ? { first: describeRecord(first) } : {}) };
  }

  /** The current user, for what the user asks for. */
  userClient(): Client {
    return this.cluster.client(userInfo(this.user), EDITOR_AGENT);
  }

  /** kubectl apply of a manifest's documents (server-side apply, field manager kubesim), as the current user. */
  apply(file: string, text: string, dryRun = false): Promise<ApplyResult[]> {
    const client = this.userClient();
    const options = { dryRun, fieldValidation: this.fieldValidation };
    return sliced(parseManifest(text, file), (doc) => applyDocument(client, doc, options));
  }

  /** kubectl delete -f: each document's object, as the current user. */
  deleteManifest(file: string, text: string): Promise<ApplyResult[]> {
    const client = this.userClient();
    return sliced(manifestObjects(client, file, text), (r) => deleteManifestObject(client, file, r));
  }

  /** The objects a manifest names (for Open Live Object from an editor). */
  manifestObjects(file: string, text: string): ObjectRef[] {
    return manifestObjects(this.userClient(), file, text).flatMap((r) => (r.ref.ok ? [r.ref.value] : []));
  }

  nodeNames(): readonly string[] {
    return this.cluster.nodes();
  }

  isNodeRunning(name: string): boolean {
    return this.cluster.kubelet(name)?.isRunning ?? false;
  }

  addNode(settings: KubeSimSettings): Promise<OperationResult> {
    return operation(async () => {
      const name = await this.cluster.addNode({ cpu: settings.nodes.cpu, memory: settings.nodes.memory, pods: settings.nodes.pods, labels: settings.nodes.labels, taints: taints(settings) });
      return `node/${name} joined`;
    });
  }

  stopNode(name: string): Promise<OperationResult> {
    return operation(async () => {
      this.cluster.stopNode(name);
      return `node/${name} stopped (its kubelet is silent)`;
    });
  }

  startNode(name: string): Promise<OperationResult> {
    return operation(async () => {
      await this.cluster.startNode(name);
      return `node/${name} started`;
    });
  }

  cordon(name: string): Promise<OperationResult> {
    return operation(() => cordon(this.userClient(), name));
  }

  uncordon(name: string): Promise<OperationResult> {
    return operation(() => uncordon(this.userClient(), name));
  }

  /**
   * kubectl drain --ignore-daemonsets --delete-emptydir-data: cordon, evict, then (as kubectl
   * waits) "pod/x evicted" for each pod once it is gone and "node/y drained". While the clock is
   * paused the pods cannot go: the lines stop at the evictions.
   */
  drain(name: string): Promise<OperationResult> {
    return operation(async () => {
      const lines = await drain(this.userClient(), name, { ignoreDaemonSets: true, deleteEmptyDirData: true });
      const evicted = lines.filter((l) => l.startsWith('evicting pod ')).map((l) => l.slice('evicting pod '.length));
      if (!(await this.podsGone(evicted))) return lines;
      return [...lines, ...evicted.map((key) => `pod/${key.slice(key.indexOf('/') + 1)} evicted`), `node/${name} drained`];
    });
  }

  /** Resolves true once none of the pods ("namespace/name") is left, false if the clock stops first. */
  private podsGone(keys: readonly string[]): Promise<boolean> {
    const gone = () => keys.every((k) => this.view.get('pods', k) === undefined);
    return new Promise((resolve) => {
      const check = (): void => {
        if (!gone() && this.pacer.current.state === 'running' && !this.disposed) return;
        stopView();
        stopPacer();
        resolve(gone());
      };
      const stopView = this.view.onChange(check);
      const stopPacer = this.pacer.onChange(check);
      check();
    });
  }

  scale(ref: ScalableRef, replicas: number): Promise<OperationResult> {
    return operation(() => scale(this.userClient(), ref, replicas));
  }

  rolloutRestart(ref: WorkloadRef): Promise<OperationResult> {
    return operation(() => rolloutRestart(this.userClient(), ref, this.cluster.clock));
  }

  rolloutUndo(ref: DeploymentRef, toRevision?: number): Promise<OperationResult> {
    return operation(() => rolloutUndo(this.userClient(), ref, toRevision));
  }

  /** The object as `kubectl get -o yaml` shows it to the current user, or kubectl's error as comments. */
  async objectYaml(ref: ObjectRef): Promise<string> {
    const res = await this.userClient().request({ verb: 'get', group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name: ref.name });
    if (res.code >= 400) return liveErrorYaml(formatKubectlError(res.body as Status));
    return liveObjectYaml(res.body as KubeObject);
  }

  /** Calls `changed` whenever the object changes (a watch on its name); returns the stop function. */
  watchObject(ref: ObjectRef, changed: () => void): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    const request = { group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, options: { fieldSelector: `metadata.name=${ref.name}` } };
    this.adminClient
      .watch(request, () => changed())
      .then((handle) => {
        if (stopped) handle.stop();
        else stop = () => handle.stop();
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /**
   * Who the cluster knows of, for Switch User: the users and service accounts that role
   * bindings name, and the service accounts outside kube-system.
   */
  async knownSubjects(): Promise<{ spec: string; description: string }[]> {
    const admin = this.adminClient;
    const found = new Map<string, string>();
    const bindings = [
      ...(await admin.resource(ROLEBINDINGS).list()).items,
      ...(await admin.resource(CLUSTERROLEBINDINGS).list()).items,
    ] as unknown as { metadata: { name?: string; namespace?: string }; kind?: string; roleRef?: { kind?: string; name?: string }; subjects?: { kind?: string; name?: string; namespace?: string }[] }[];
    for (const b of bindings) {
      for (const subject of b.subjects ?? []) {
        const role = `${b.roleRef?.kind ?? 'Role'} ${b.roleRef?.name ?? ''}${b.metadata.namespace ? ` in ${b.metadata.namespace}` : ''}`;
        if (subject.kind === 'User' && subject.name && !subject.name.startsWith('system:')) found.set(subject.name, `bound to ${role}`);
        if (subject.kind === 'ServiceAccount' && subject.name && subject.namespace && subject.namespace !== 'kube-system') {
          found.set(`system:serviceaccount:${subject.namespace}:${subject.name}`, `service account, bound to ${role}`);
        }
      }
    }
    for (const sa of (await admin.resource(SERVICEACCOUNTS).list()).items) {
      const ns = sa.metadata.namespace ?? '';
      const spec = `system:serviceaccount:${ns}:${sa.metadata.name ?? ''}`;
      if (ns !== 'kube-system' && !found.has(spec)) found.set(spec, 'service account');
    }
    return [...found].sort(([a], [b]) => a.localeCompare(b)).map(([spec, description]) => ({ spec, description }));
  }

  async summary(): Promise<ClusterSummary> {
    const { revision } = await this.cluster.store.status();
    const nodes = this.view.objects('nodes');
    const ready = nodes.filter(nodeReady).length;
    const pods = { running: 0, pending: 0, failed: 0 };
    for (const p of this.view.objects('pods')) {
      const phase = (p.status as { phase?: string } | undefined)?.phase;
      if (phase === 'Running') pods.running++;
      else if (phase === 'Pending') pods.pending++;
      else if (phase === 'Failed') pods.failed++;
    }
    const { state, speed } = this.pacer.current;
    return { revision, nodes: { total: nodes.length, ready }, pods, clock: state, speed, time: this.cluster.clock.now(), user: this.user.username };
  }

  /** Everything needed to carry on later: taken in one synchronous step, so it is consistent. */
  snapshot(): ClusterSnapshot {
    const store = this.cluster.store.snapshot?.();
    if (!store) throw new Error('kubesim: only the memory store can be saved');
    const { state, speed } = this.pacer.current;
    return {
      format: CLUSTER_SNAPSHOT_FORMAT,
      seed: this.cluster.seed,
      time: this.cluster.clock.now(),
      clock: { state, speed },
      nodes: this.cluster.nodes().map((name) => {
        const kubelet = this.cluster.kubelet(name)!;
        return { config: kubelet.config, running: kubelet.isRunning };
      }),
      store,
    };
  }

  /**
   * Serves the cluster's Kubernetes API over HTTPS on 127.0.0.1 for kubectl, as `kubesim serve`
   * does, with tokens for the admin and the current user. One endpoint at a time: serving again
   * closes the earlier one; disposing the host closes it too.
   */
  async serveApi(port: number, tls?: SelfSignedCertificate): Promise<ServedApi> {
    await this.served?.close();
    this.served = undefined;
    if (this.disposed) throw new Error('kubesim: the cluster was stopped');
    this.served = await serveCluster(this.cluster, { port, users: endpointUsers(this.user), tls });
    return this.served;
  }

  /** The simulated etcd's members as the engine reports them (undefined with a real etcd). */
  etcdMembers(): MemberStatus[] | undefined {
    return this.cluster.etcd?.status();
  }

  /**
   * A fault on an etcd member (what `kubesim apply --etcd-fault ACTION:MEMBER` does), or etcd's
   * maintenance as etcdctl runs it: compact (the cluster's history up to the current revision,
   * through Raft; `member` is the endpoint asked), defragment (that member's bbolt file), disarm
   * (every alarm, through Raft). The lines are etcdctl's.
   */
  etcdAction(action: EtcdMemberAction, member: string): Promise<OperationResult> {
    return operation(async () => {
      const etcd = this.cluster.etcd;
      if (!etcd) throw new Error('kubesim: the cluster is stored in a real etcd; its members are not simulated');
      const m = etcd.member(member);
      switch (action) {
        case 'stop':
          etcd.stop(m.name);
          return `etcd member ${m.name} stopped`;
        case 'start':
          etcd.start(m.name);
          return `etcd member ${m.name} started`;
        case 'partition':
          etcd.partition(m.name);
          return `etcd member ${m.name} cut off from the other members`;
        case 'heal':
          etcd.heal(m.name);
          return `etcd member ${m.name} healed (network and disk)`;
        case 'slow':
          etcd.slowDisk(m.name);
          return `etcd member ${m.name}'s disk is slow (each WAL fsync takes ${SLOW_DISK_FSYNC_MS} ms)`;
        case 'compact': {
          const store = this.cluster.store;
          const { revision } = await this.cluster.drive(store.status());
          await this.cluster.drive(store.compact(revision));
          return `compacted revision ${revision}`;
        }
        case 'defragment': {
          const r = defragmentMember(etcd, m.name, etcd.trace, this.cluster.clock);
          return `Finished defragmenting etcd member[${m.name}] (db size ${r.dbSizeBeforeBytes} bytes before, ${r.dbSizeAfterBytes} after)`;
        }
        case 'disarm': {
          const store = this.cluster.store;
          if (!(store instanceof EtcdClient)) throw new Error('kubesim: the cluster is stored in a real etcd; its members are not simulated');
          const disarmed = await this.cluster.drive(store.alarmDisarmAll());
          return disarmed.length > 0 ? disarmed.map(alarmText) : 'no alarm was raised: nothing to disarm';
        }
      }
    });
  }

  /** The language server restarted: give it the full picture again. */
  resyncMirror(): void {
    this.feed.replace();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.served?.close();
    this.pacer.dispose();
    await this.pacer.idle();
    this.feed.stop();
    this.stateLog.stop();
    this.view.stop();
    this.factory.shutdown();
    await this.cluster.close();
  }
}
