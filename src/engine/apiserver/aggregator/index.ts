/**
 * kube-aggregator, the part of kube-apiserver that serves APIServices backed by another API
 * server: metrics-server's v1beta1.metrics.k8s.io. A registered group-version is in discovery
 * (its resources join the registry, in the APIService's group priority); a request for it is
 * authenticated and authorized by kube-apiserver as usual, then handed to the backend while the
 * backend is available, and answered 503 while it is not, as the aggregator's proxy answers when
 * the APIService's Available condition is False (the backend's pods are not ready yet, or gone).
 * Without a registration the group-version does not exist: 404 like any unknown path.
 */
import { methodNotSupportedError, StatusError } from '../../api/status';
import type { JsonObject } from '../../api/types';
import type { ResourceRegistry } from '../../api/registry';
import type { ResourceInfo } from '../../api/registry/types';
import type { UserInfo } from '../authn/user';
import type { Verb } from '../request';

/** A request the aggregator hands on, after kube-apiserver authorized it. */
export interface AggregatedRequest {
  verb: Verb;
  resource: string;
  namespace?: string;
  name?: string;
  labelSelector?: string;
  fieldSelector?: string;
  user: UserInfo;
}

export interface AggregatedResult {
  code: number;
  body: JsonObject;
}

/** The API server behind an APIService. */
export interface AggregatedBackend {
  /** The APIService's name: "v1beta1.metrics.k8s.io". */
  readonly apiService: string;
  readonly group: string;
  readonly version: string;
  /** What its discovery document lists. */
  readonly resources: readonly ResourceInfo[];
  /** The APIService's Available condition. */
  available(): boolean;
  /** Serves an authorized get or list (throws a StatusError for failures). */
  serve(request: AggregatedRequest): Promise<AggregatedResult>;
}

/**
 * What the aggregator's proxy writes when the APIService is not available: a plain-text body,
 * which client-go reports as "the server is currently unable to handle the request (get
 * pods.metrics.k8s.io)". The Status carries client-go's reading; `text` is the wire body.
 */
export class ServiceUnavailableError extends StatusError {
  readonly text = 'service unavailable\n';

  constructor(group: string, resource: string, verb: string) {
    super({
      code: 503,
      reason: 'ServiceUnavailable',
      message: `the server is currently unable to handle the request (${verb} ${resource}.${group})`,
      details: { group, kind: resource, causes: [{ reason: 'UnexpectedServerResponse', message: 'service unavailable' }] },
    });
  }
}

export class Aggregator {
  private readonly backends = new Map<string, AggregatedBackend>();

  constructor(private readonly registry: ResourceRegistry) {}

  /** Registers an APIService: its group-version appears in discovery at once. */
  register(backend: AggregatedBackend): void {
    this.unregister(backend.group, backend.version);
    this.backends.set(`${backend.group}/${backend.version}`, backend);
    for (const r of backend.resources) this.registry.register(r);
  }

  unregister(group: string, version: string): void {
    const backend = this.backends.get(`${group}/${version}`);
    if (!backend) return;
    this.backends.delete(`${group}/${version}`);
    for (const r of backend.resources) this.registry.unregister(r.group, r.version, r.resource);
  }

  backendFor(group: string, version: string): AggregatedBackend | undefined {
    return this.backends.get(`${group}/${version}`);
  }

  /** A registered group-version whose backend is not available: its discovery is stale. */
  isUnavailable(group: string, version: string): boolean {
    const b = this.backendFor(group, version);
    return b !== undefined && !b.available();
  }

  /** Hands an authorized request to the backend of its group-version. */
  async serve(backend: AggregatedBackend, request: AggregatedRequest & { subresource?: string }): Promise<AggregatedResult> {
    if (!backend.available()) throw new ServiceUnavailableError(backend.group, request.resource, request.verb);
    const info = backend.resources.find((r) => r.resource === request.resource);
    // What the backend's own API server answers for what it does not serve.
    if (!info || request.subresource) throw new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
    if (!info.verbs.includes(request.verb)) throw methodNotSupportedError({ group: info.group, name: info.resource }, request.verb);
    return backend.serve(request);
  }
}
