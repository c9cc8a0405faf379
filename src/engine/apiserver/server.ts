/**
 * The API server: every request from every client (the editor, kubectl through the HTTP facade,
 * controllers, the scheduler, kubelets) goes through `handle` or `watch`, and is the only path
 * to the store. Each request leaves one trace record with every stage it passed.
 */
import { EtcdHealthCheck } from './etcd-health';
import type { Clock } from '../clock';
import type { Random } from '../random';
import { ResourceRegistry } from '../api/registry';
import type { StatusError } from '../api/status';
import type { JsonObject } from '../api/types';
import type { Store } from '../store/types';
import { TraceBuffer } from '../trace/buffer';
import type { ApiRequestRecord } from '../trace/apiserver';
import { statusTransitions, summarizeChange } from '../trace/diff';
import type { CompactionRecord } from '../trace/compaction';
import type { RevisionRecord } from '../trace/revision';
import type { CacheEvent } from './storage/watch-cache';
import { defaultAdmissionPlugins } from './admission';
import { warnIfDeprecated } from './deprecation';
import { Aggregator, ServiceUnavailableError } from './aggregator';
import { APIServiceRegistration } from './apiregistration/autoregister';
import { AvailableConditionController } from './apiregistration/availability';
import { ServiceAccountTokens } from './authn/service-account-tokens';
import type { AdmissionContext, AdmissionPlugin } from './admission/types';
import type { PodSecurityConfiguration } from './admission/podsecurity/config';
import { authenticate } from './authenticate';
import { CustomResources } from './customresources/catalog';
import { CrdController } from './customresources/controller';
import { APISERVER_USER } from './authn/user';
import { TokenAuthenticator } from './authn/tokens';
import { authorize } from './authorize';
import { forbiddenStatusError } from './authz/forbidden';
import type { Attributes, Authorizer, AuthorizerFactory } from './authz/types';
import { privilegedGroupAuthorizer, unionAuthorizer } from './authz/union';
import { RequestContext, type ServerParts } from './context';
import { resolveTarget, serveAggregated, serveRequest } from './dispatch';
import { toStatusError } from './errors';
import { startWatch } from './handlers/watch';
import type { ApiRequest, ApiResponse, NonResourceRequest, WatchHandle, WatchListener } from './request';
import type { ResourceInfo } from './resources';
import { ClusterStorage, type WatchCacheStatus } from './storage/cluster-storage';
import { Compactor, COMPACTION_INTERVAL_MS } from './storage/compactor';
import type { ObjectReader } from './storage/reader';
import type { ResourceStorage } from './storage/resource-storage';
import { strategyFor } from './strategies';
import { DEFAULT_SERVICE_NETWORK, ServiceAllocators, type ServiceNetwork } from './strategies/service/strategy';
import type { Strategy } from './strategies/types';
import { WriteAttribution } from './write-attribution';

/** How often watchers that asked for bookmarks get one (kube-apiserver: about a minute). */
export const BOOKMARK_INTERVAL_MS = 60 * 1000;

export interface ApiServerOptions {
  store: Store;
  clock: Clock;
  random: Random;
  /** The authorization mode: RBAC in a cluster; `alwaysAllow` only for tests that say so. */
  authorizer: AuthorizerFactory;
  trace?: TraceBuffer;
  /** Default: kube-apiserver 1.35's default plugins that kubesim implements. */
  admission?: AdmissionPlugin[];
  /** The PodSecurity plugin's configuration for the default plugins; default: privileged everywhere. */
  podSecurity?: PodSecurityConfiguration;
  registry?: ResourceRegistry;
  /** --anonymous-auth; default true. */
  anonymousAuth?: boolean;
  serviceNetwork?: ServiceNetwork;
  /** --etcd-compaction-interval; 0 turns periodic compaction off. Default 5 minutes. */
  compactionIntervalMs?: number;
  /** Events each resource's watch cache keeps at most. */
  watchCacheCapacity?: number;
  /** Virtual ms of kube-apiserver's own work on each request before it reaches storage (the latency model's); 0: none. */
  requestLatencyMs?: number;
}

export interface ApiServer {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /**
   * Authenticates and authorizes a non-resource request (discovery, /version, /healthz): an
   * error response (401, 403) to send instead of the content, or undefined to serve it.
   */
  authorizePath(request: NonResourceRequest): Promise<ApiResponse | undefined>;
  /** Starts a watch; events go to the listener until `stop()` (or an ERROR event). */
  watch(request: ApiRequest, listener: WatchListener): Promise<WatchHandle>;
  /** Cluster state for the server's own parts (authorizers, admission). */
  readonly reader: ObjectReader;
  /** The virtual clock its controllers (CRD establishing, APIService registration) run on. */
  readonly clock: Clock;
  readonly tokens: TokenAuthenticator;
  /** The signed service account tokens TokenRequest issues (the cluster's signing key). */
  readonly serviceAccountTokens: ServiceAccountTokens;
  readonly registry: ResourceRegistry;
  readonly trace: TraceBuffer;
  /** The APIServices other API servers serve (kube-aggregator). */
  readonly aggregator: Aggregator;
  /** One compaction round now (the periodic compactor's work); the revision compacted to, if any. */
  compact(): Promise<number | undefined>;
  /** The etcd health check of /healthz, /livez and /readyz: its error, or undefined when etcd answers. */
  etcdHealth(): Promise<string | undefined>;
  /** The watch caches' figures (kube-apiserver's apiserver_watch_cache_* metrics), per resource and summed. */
  watchCacheStatus(): WatchCacheStatus;
  close(): Promise<void>;
}

/** The wire body of an error the API server does not write as a Status. */
function rawBodyOf(err: unknown): ApiResponse['raw'] {
  return err instanceof ServiceUnavailableError ? { contentType: 'text/plain; charset=utf-8', text: err.text } : undefined;
}

class Server implements ApiServer, ServerParts {
  readonly clock: Clock;
  readonly random: Random;
  readonly trace: TraceBuffer;
  readonly registry: ResourceRegistry;
  readonly storage: ClusterStorage;
  readonly tokens: TokenAuthenticator;
  readonly serviceAccountTokens: ServiceAccountTokens;
  readonly authorizer: Authorizer;
  readonly admission: readonly AdmissionPlugin[];
  readonly admissionContext: AdmissionContext;
  readonly allocators: ServiceAllocators;
  readonly anonymousAuth: boolean;
  private readonly strategies = new Map<string, Strategy>();
  readonly customResources: CustomResources;
  readonly aggregator: Aggregator;
  private readonly crds: CrdController;
  private readonly apiServices: APIServiceRegistration;
  private readonly apiServiceAvailability: AvailableConditionController;
  private readonly compactor: Compactor;
  private readonly health: EtcdHealthCheck;
  private bookmarkTimer: ReturnType<Clock['setTimer']> | undefined;
  readonly writes = new WriteAttribution();
  private readonly requestLatencyMs: number;

  constructor(options: ApiServerOptions) {
    this.clock = options.clock;
    this.random = options.random;
    this.trace = options.trace ?? new TraceBuffer({ clock: options.clock });
    this.registry = options.registry ?? new ResourceRegistry();
    this.storage = new ClusterStorage(options.store, this.registry.all(), options.watchCacheCapacity, options.clock);
    this.tokens = new TokenAuthenticator();
    this.serviceAccountTokens = new ServiceAccountTokens();
    this.authorizer = unionAuthorizer([privilegedGroupAuthorizer(), options.authorizer(this.storage)]);
    this.admission = options.admission ?? defaultAdmissionPlugins({ podSecurity: options.podSecurity });
    this.allocators = new ServiceAllocators(options.serviceNetwork ?? DEFAULT_SERVICE_NETWORK, options.random.fork('service-allocation'));
    this.anonymousAuth = options.anonymousAuth ?? true;
    this.requestLatencyMs = options.requestLatencyMs ?? 0;
    this.admissionContext = {
      reader: this.storage,
      clock: this.clock,
      random: this.random,
      registry: this.registry,
      authorizer: this.authorizer,
      loopback: (request) => this.handle({ ...request, user: request.user ?? APISERVER_USER }),
    };
    this.customResources = new CustomResources(this.registry, this.storage, (s) => this.observe(s));
    this.aggregator = new Aggregator(this.registry);
    this.crds = new CrdController({ clock: this.clock, reader: this.storage, catalog: this.customResources, loopback: this.admissionContext.loopback });
    this.apiServices = new APIServiceRegistration({ clock: this.clock, reader: this.storage, loopback: this.admissionContext.loopback });
    this.apiServiceAvailability = new AvailableConditionController({ clock: this.clock, reader: this.storage, aggregator: this.aggregator, loopback: this.admissionContext.loopback });
    this.health = new EtcdHealthCheck(options.store, options.clock);
    this.compactor = new Compactor(
      options.store,
      options.clock,
      (rev) => {
        for (const s of this.storage.all()) s.cache.compact(rev);
        this.trace.emit<CompactionRecord>({ type: 'store.compaction', component: 'etcd', revision: rev });
      },
      options.compactionIntervalMs ?? COMPACTION_INTERVAL_MS,
    );
  }

  get reader(): ObjectReader {
    return this.storage;
  }

  watchCacheStatus(): WatchCacheStatus {
    return this.storage.watchCacheStatus();
  }

  async start(): Promise<void> {
    for (const s of this.storage.all()) this.observe(s);
    await this.storage.start();
    for (const svc of await this.storage.list({ group: '', resource: 'services' })) this.allocators.restore(svc);
    this.crds.start();
    this.apiServices.start();
    this.apiServiceAvailability.start();
    this.compactor.start();
    this.scheduleBookmarks();
  }

  // One record per revision: cohabiting resources (events.k8s.io Events) are views, not owners.
  private observe(s: ResourceStorage): void {
    s.cache.observer = (event) => this.recordRevision(s, event);
  }

  strategy(info: ResourceInfo): Strategy {
    const custom = this.customResources.strategy(info);
    if (custom) return custom;
    const id = `${info.group}/${info.resource}`;
    let s = this.strategies.get(id);
    if (!s) {
      s = strategyFor(info, this.allocators);
      this.strategies.set(id, s);
    }
    return s;
  }

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const ctx = new RequestContext(request, this);
    ctx.traceId = this.trace.reserve();
    const started = this.clock.now();
    let code: number;
    let body: JsonObject;
    let raw: ApiResponse['raw'];
    try {
      const user = await authenticate(ctx);
      ctx.user = user;
      await authorize(ctx, user);
      if (this.requestLatencyMs > 0) await this.processing();
      const result = await serveRequest(ctx);
      code = result.code;
      body = result.body;
    } catch (err) {
      const status = toStatusError(err);
      code = status.code;
      body = status.status as JsonObject;
      raw = rawBodyOf(err);
    }
    const record = this.record(ctx, code, body, undefined, this.clock.now() - started);
    const response: ApiResponse = { code, body, warnings: ctx.warnings, trace: record.id };
    if (code === 422 && ctx.fieldErrors) response.fieldErrors = ctx.fieldErrors;
    if (record.auditAnnotations) response.auditAnnotations = { ...record.auditAnnotations };
    if (raw) response.raw = raw;
    return response;
  }

  /** kube-apiserver's own work on a request (admission, validation, encoding), in virtual time. */
  private processing(): Promise<void> {
    return new Promise((resolve) => this.clock.setTimer(this.requestLatencyMs, resolve, { label: 'kube-apiserver request' }));
  }

  async authorizePath(request: NonResourceRequest): Promise<ApiResponse | undefined> {
    const { verb, path, ...identity } = request;
    const ctx = new RequestContext({ ...identity, verb: verb as ApiRequest['verb'], group: '', version: '', resource: '' }, this);
    let failure: StatusError | undefined;
    try {
      const user = await authenticate(ctx);
      ctx.user = user;
      const attrs: Attributes = {
        user,
        verb,
        isResourceRequest: false,
        path,
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
      };
      const d = await this.authorizer.authorize(attrs);
      if (d.decision === 'Allow') ctx.stage({ stage: 'authorization', verdict: 'passed', rule: d.reason });
      else {
        failure = forbiddenStatusError(attrs, d.reason);
        ctx.stage({ stage: 'authorization', verdict: 'rejected', rule: d.reason || undefined, detail: failure.message });
      }
    } catch (err) {
      failure = toStatusError(err);
    }
    const code = failure ? failure.code : 200;
    const body = failure ? (failure.status as JsonObject) : {};
    const record = this.record(ctx, code, body, path);
    return failure ? { code, body, warnings: ctx.warnings, trace: record.id } : undefined;
  }

  async watch(request: ApiRequest, listener: WatchListener): Promise<WatchHandle> {
    const ctx = new RequestContext({ ...request, verb: 'watch' }, this);
    let stop = (): void => undefined;
    let code = 200;
    let body: JsonObject = {};
    let raw: ApiResponse['raw'];
    try {
      const user = await authenticate(ctx);
      ctx.user = user;
      await authorize(ctx, user);
      // An aggregated API's backend answers (metrics-server serves no watches).
      const backend = this.aggregator.backendFor(request.group, request.version);
      if (backend) await serveAggregated(ctx, backend);
      const target = resolveTarget(ctx);
      warnIfDeprecated(ctx);
      const watcher = startWatch(ctx, target, listener);
      stop = () => watcher.stop();
    } catch (err) {
      const status = toStatusError(err);
      code = status.code;
      body = status.status as JsonObject;
      raw = rawBodyOf(err);
    }
    const record = this.record(ctx, code, body);
    const response: ApiResponse = { code, body, warnings: ctx.warnings, trace: record.id };
    if (raw) response.raw = raw;
    return { response, stop };
  }

  compact(): Promise<number | undefined> {
    return this.compactor.compactOnce();
  }

  etcdHealth(): Promise<string | undefined> {
    return this.health.check();
  }

  async close(): Promise<void> {
    this.crds.stop();
    this.apiServices.stop();
    this.apiServiceAvailability.stop();
    this.compactor.stop();
    this.clock.clearTimer(this.bookmarkTimer);
    this.bookmarkTimer = undefined;
    await this.storage.stop();
  }

  private scheduleBookmarks(): void {
    this.bookmarkTimer = this.clock.setTimer(
      BOOKMARK_INTERVAL_MS,
      () => {
        for (const s of this.storage.all()) s.cache.bookmark();
        this.scheduleBookmarks();
      },
      { daemon: true, label: 'apiserver: watch bookmarks' },
    );
  }

  /** One record per etcd revision, caused by the request that wrote it (docs/architecture.md, invariant 2). */
  private recordRevision(s: ResourceStorage, event: CacheEvent): void {
    const prev = event.prevObject ? Number(event.prevObject.metadata.resourceVersion ?? 0) : 0;
    const writer = this.writes.observed(event.key, prev, event.revision);
    const meta = event.object.metadata;
    const operation = event.type === 'ADDED' ? 'create' : event.type === 'DELETED' ? 'delete' : 'update';
    const { conditions, phase } = operation === 'delete' ? {} : statusTransitions(event.prevObject, event.object);
    this.trace.emit<RevisionRecord>({
      type: 'store.revision',
      component: 'etcd',
      cause: writer?.request,
      revision: event.revision,
      key: event.key,
      operation,
      group: s.type.group,
      resource: s.type.resource,
      namespace: meta.namespace,
      name: meta.name ?? '',
      actor: writer?.user,
      change: operation === 'update' ? summarizeChange(event.prevObject, event.object) : operation === 'create' ? 'created' : 'deleted',
      ...(conditions ? { conditions } : {}),
      ...(phase !== undefined ? { phase } : {}),
    });
  }

  private record(ctx: RequestContext, code: number, body: JsonObject, path?: string, durationMs = 0): ApiRequestRecord {
    const r = ctx.request;
    const failed = code >= 400;
    const record = this.emitRequest(ctx, r, failed, code, body, path, durationMs);
    ctx.finish();
    return record;
  }

  private emitRequest(ctx: RequestContext, r: ApiRequest, failed: boolean, code: number, body: JsonObject, path: string | undefined, durationMs: number): ApiRequestRecord {
    return this.trace.emit<ApiRequestRecord>({
      type: 'api.request',
      component: 'kube-apiserver',
      cause: r.cause,
      user: ctx.user?.username ?? '',
      groups: ctx.user?.groups ?? [],
      impersonatedBy: ctx.impersonatedBy,
      verb: r.verb,
      path,
      group: r.group,
      version: r.version,
      resource: r.resource,
      subresource: r.subresource,
      namespace: r.namespace,
      name: r.name ?? (r.verb === 'create' ? nameOf(body) : undefined),
      dryRun: ctx.dryRun,
      code,
      reason: failed ? String(body.reason ?? '') : undefined,
      message: failed ? String(body.message ?? '') : undefined,
      warnings: ctx.warnings.length > 0 ? [...ctx.warnings] : undefined,
      auditAnnotations: Object.keys(ctx.auditAnnotations).length > 0 ? { ...ctx.auditAnnotations } : undefined,
      stages: ctx.stages,
      revision: ctx.revision,
      ...(r.userAgent ? { userAgent: r.userAgent } : {}),
      ...(r.patchType ? { patchType: r.patchType } : {}),
      ...(durationMs > 0 ? { durationMs } : {}),
    }, ctx.traceId);
  }
}

function nameOf(body: JsonObject): string | undefined {
  const meta = body.metadata;
  return meta && typeof meta === 'object' && !Array.isArray(meta) && typeof meta.name === 'string' ? meta.name : undefined;
}

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const server = new Server(options);
  await server.start();
  return server;
}
