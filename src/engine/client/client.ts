/**
 * The in-process client every component uses (docs/architecture.md, invariant 1): a user identity and a
 * User-Agent (whose first segment is the default field manager) over ApiServer.handle/watch.
 * Failed responses become StatusErrors so callers test them with isNotFound/isConflict/...;
 * every request names its cause so the trace stays causal (invariant 2).
 *
 * Objects returned may be shared with caches and frozen: copy (deepCopy) before changing them.
 */
import type { GroupVersionResource, JsonObject, JsonValue, KubeObject } from '../api/types';
import type { UserInfo } from '../apiserver/authn/user';
import type {
  ApiRequest,
  ApiResponse,
  FieldValidation,
  PatchType,
  PropagationPolicy,
  RequestOptions,
  WatchHandle,
  WatchListener,
} from '../apiserver/request';
import type { ApiServer } from '../apiserver/server';
import { responseError } from './errors';
import type * as meta from '../api/generated/meta-v1';

/** A request as a component writes it: the client adds identity, User-Agent and cause. */
export type ClientRequest = Omit<ApiRequest, 'user' | 'token' | 'impersonate' | 'cause' | 'userAgent'>;

/** Told of each request a client sent, with the id of the request's trace record. */
export type RequestObserver = (traceId: number, request: ClientRequest, response: ApiResponse) => void;

export interface ClientOptions {
  server: ApiServer;
  user: UserInfo;
  /** "kube-controller-manager/v1.35.0 (linux/amd64) kubernetes/unknown/deployment-controller". */
  userAgent: string;
  cause?: number;
  onRequest?: RequestObserver;
}

/** The request options of a list (and of a deletecollection's selection). */
export type ListOptions = Pick<RequestOptions, 'labelSelector' | 'fieldSelector' | 'limit' | 'continue' | 'resourceVersion' | 'resourceVersionMatch'>;

/** The request options of a watch. */
export type WatchOptions = Pick<RequestOptions, 'labelSelector' | 'fieldSelector' | 'resourceVersion' | 'resourceVersionMatch' | 'allowWatchBookmarks' | 'sendInitialEvents'>;

export interface WriteOptions {
  dryRun?: boolean;
  /** Default: the User-Agent's first segment, as kube-apiserver derives it. */
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take the fields other managers own. */
  force?: boolean;
  subresource?: string;
}

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: boolean;
  subresource?: string;
}

/** metav1.DeleteOptions as a client sends them (dryRun as the ?dryRun=All it becomes). */
export type DeleteOptions = Pick<meta.DeleteOptions, 'gracePeriodSeconds' | 'preconditions'> & { dryRun?: boolean; propagationPolicy?: PropagationPolicy };

export interface ObjectList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** The well-known components' User-Agent, as client-go's DefaultKubernetesUserAgent builds it. */
export function componentUserAgent(command: string, suffix?: string): string {
  const base = `${command}/v1.35.0 (linux/amd64) kubernetes/unknown`;
  return suffix ? `${base}/${suffix}` : base;
}

export class Client {
  readonly server: ApiServer;
  readonly user: UserInfo;
  readonly userAgent: string;
  readonly cause: number | undefined;
  private readonly onRequest: RequestObserver | undefined;

  constructor(options: ClientOptions) {
    this.server = options.server;
    this.user = options.user;
    this.userAgent = options.userAgent;
    this.cause = options.cause;
    this.onRequest = options.onRequest;
  }

  /** The same identity, attributing its requests to `cause` and reporting them to `onRequest`. */
  scoped(cause: number | undefined, onRequest?: RequestObserver): Client {
    return new Client({ server: this.server, user: this.user, userAgent: this.userAgent, cause, onRequest });
  }

  /** A client for one resource, in one namespace (or all namespaces, or a cluster-scoped one). */
  resource<T extends KubeObject = KubeObject>(gvr: GroupVersionResource, namespace?: string): ResourceClient<T> {
    return new ResourceClient<T>(this, gvr, namespace);
  }

  /** Sends a request as is; the response may be a failure. */
  async request(request: ClientRequest): Promise<ApiResponse> {
    const response = await this.server.handle({ ...request, user: this.user, userAgent: this.userAgent, cause: this.cause });
    this.onRequest?.(response.trace, request, response);
    return response;
  }

  /** Sends a request; a failure (code >= 400) is thrown as a StatusError. */
  async send(request: ClientRequest): Promise<JsonObject> {
    const response = await this.request(request);
    if (response.code >= 400) throw responseError(response.code, response.body);
    return response.body;
  }

  /**
   * Starts a watch. A refused watch throws; a watch that cannot start from the requested
   * resourceVersion starts and delivers one ERROR event (410 Expired), as kube-apiserver does.
   */
  async watch(request: Omit<ClientRequest, 'verb'>, listener: WatchListener): Promise<WatchHandle> {
    const full: ClientRequest = { ...request, verb: 'watch' };
    const handle = await this.server.watch({ ...full, user: this.user, userAgent: this.userAgent, cause: this.cause }, listener);
    this.onRequest?.(handle.response.trace, full, handle.response);
    if (handle.response.code >= 400) throw responseError(handle.response.code, handle.response.body);
    return handle;
  }
}

function listQuery(o: ListOptions): RequestOptions {
  const q: RequestOptions = {};
  if (o.labelSelector) q.labelSelector = o.labelSelector;
  if (o.fieldSelector) q.fieldSelector = o.fieldSelector;
  if (o.limit !== undefined) q.limit = o.limit;
  if (o.continue) q.continue = o.continue;
  if (o.resourceVersion !== undefined) q.resourceVersion = o.resourceVersion;
  if (o.resourceVersionMatch) q.resourceVersionMatch = o.resourceVersionMatch;
  return q;
}

function writeQuery(o: WriteOptions & { force?: boolean }): RequestOptions {
  const q: RequestOptions = {};
  if (o.dryRun) q.dryRun = true;
  if (o.fieldManager !== undefined) q.fieldManager = o.fieldManager;
  if (o.fieldValidation) q.fieldValidation = o.fieldValidation;
  if (o.force !== undefined) q.force = o.force;
  return q;
}

function deleteQuery(o: DeleteOptions): RequestOptions {
  const q: RequestOptions = {};
  if (o.dryRun) q.dryRun = true;
  if (o.propagationPolicy) q.propagationPolicy = o.propagationPolicy;
  if (o.gracePeriodSeconds !== undefined) q.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.preconditions) q.preconditions = o.preconditions;
  return q;
}

/** client-go's typed interface for one resource: CoreV1().Pods(ns), AppsV1().Deployments(ns). */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    readonly client: Client,
    readonly gvr: GroupVersionResource,
    readonly namespace: string | undefined,
  ) {}

  private base(namespace = this.namespace): Pick<ClientRequest, 'group' | 'version' | 'resource' | 'namespace'> {
    const r = { group: this.gvr.group, version: this.gvr.version, resource: this.gvr.resource };
    return namespace ? { ...r, namespace } : r;
  }

  /** The namespace a write of `obj` goes to: the client's, else the object's own. */
  private namespaceOf(obj: KubeObject): string | undefined {
    return this.namespace ?? obj.metadata.namespace;
  }

  private nameOf(obj: KubeObject): string {
    return obj.metadata.name ?? '';
  }

  async get(name: string, options: { resourceVersion?: string } = {}): Promise<T> {
    const q: RequestOptions = options.resourceVersion !== undefined ? { resourceVersion: options.resourceVersion } : {};
    return (await this.client.send({ ...this.base(), verb: 'get', name, options: q })) as unknown as T;
  }

  async list(options: ListOptions = {}): Promise<ObjectList<T>> {
    return (await this.client.send({ ...this.base(), verb: 'list', options: listQuery(options) })) as unknown as ObjectList<T>;
  }

  async create(obj: T, options: WriteOptions = {}): Promise<T> {
    const request: ClientRequest = { ...this.base(this.namespaceOf(obj)), verb: 'create', body: { object: obj }, options: writeQuery(options) };
    return (await this.client.send(request)) as unknown as T;
  }

  async update(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, undefined, options);
  }

  async updateStatus(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, 'status', options);
  }

  private async put(obj: T, subresource: string | undefined, options: WriteOptions): Promise<T> {
    const request: ClientRequest = {
      ...this.base(this.namespaceOf(obj)),
      verb: 'update',
      name: this.nameOf(obj),
      body: { object: obj },
      options: writeQuery(options),
    };
    if (subresource) request.subresource = subresource;
    return (await this.client.send(request)) as unknown as T;
  }

  /** A JSON, merge or strategic merge patch (body as a value), or an apply patch. */
  async patch(name: string, patchType: PatchType, patch: JsonValue | KubeObject, options: PatchOptions = {}): Promise<T> {
    const request: ClientRequest = { ...this.base(), verb: 'patch', name, patchType, body: { object: patch }, options: writeQuery(options) };
    if (options.subresource) request.subresource = options.subresource;
    return (await this.client.send(request)) as unknown as T;
  }

  /** Server-side apply of a (partial) object: PATCH application/apply-patch+yaml. */
  async apply(obj: KubeObject, options: ApplyOptions): Promise<T> {
    const request: ClientRequest = {
      ...this.base(this.namespaceOf(obj as T)),
      verb: 'patch',
      name: obj.metadata.name ?? '',
      patchType: 'apply',
      body: { object: obj },
      options: writeQuery(options),
    };
    if (options.subresource) request.subresource = options.subresource;
    return (await this.client.send(request)) as unknown as T;
  }

  /** The deleted object, the object now being deleted, or a Status, as kube-apiserver answers. */
  async delete(name: string, options: DeleteOptions = {}): Promise<JsonObject> {
    return this.client.send({ ...this.base(), verb: 'delete', name, options: deleteQuery(options) });
  }

  async deleteCollection(options: DeleteOptions & ListOptions = {}): Promise<JsonObject> {
    return this.client.send({ ...this.base(), verb: 'deletecollection', options: { ...listQuery(options), ...deleteQuery(options) } });
  }

  async watch(options: WatchOptions, listener: WatchListener): Promise<WatchHandle> {
    const q: RequestOptions = { ...listQuery(options) };
    if (options.allowWatchBookmarks) q.allowWatchBookmarks = true;
    if (options.sendInitialEvents !== undefined) q.sendInitialEvents = options.sendInitialEvents;
    return this.client.watch({ ...this.base(), options: q }, listener);
  }

  /** GET <resource>/<name>/scale: an autoscaling/v1 Scale. */
  async getScale(name: string): Promise<KubeObject> {
    return (await this.client.send({ ...this.base(), verb: 'get', name, subresource: 'scale' })) as KubeObject;
  }

  async updateScale(name: string, scale: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const request: ClientRequest = { ...this.base(), verb: 'update', name, subresource: 'scale', body: { object: scale }, options: writeQuery(options) };
    return (await this.client.send(request)) as KubeObject;
  }

  /** POST pods/<name>/binding (the scheduler's bind). */
  async bind(binding: KubeObject, options: WriteOptions = {}): Promise<JsonObject> {
    const name = binding.metadata.name ?? '';
    return this.client.send({ ...this.base(this.namespace ?? binding.metadata.namespace), verb: 'create', name, subresource: 'binding', body: { object: binding }, options: writeQuery(options) });
  }

  /** POST pods/<name>/eviction with a policy/v1 Eviction. */
  async evict(eviction: KubeObject, options: WriteOptions = {}): Promise<JsonObject> {
    const name = eviction.metadata.name ?? '';
    return this.client.send({ ...this.base(this.namespace ?? eviction.metadata.namespace), verb: 'create', name, subresource: 'eviction', body: { object: eviction }, options: writeQuery(options) });
  }
}
