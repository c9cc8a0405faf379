/**
 * kube-aggregator's AvailableConditionController, for the APIServices the aggregator has a
 * backend for (metrics-server's v1beta1.metrics.k8s.io): their Available condition follows the
 * backend, `True` Passed "all checks passed" while it serves, `False` MissingEndpoints while it
 * does not (what kube-aggregator reports while the backend's pods are not ready). It checks when
 * an APIService changes and every 5 s of virtual time, and writes the status subresource only
 * when the condition changes, as system:apiserver. APIServices naming a Service with no backend
 * here keep an unset condition (docs/deviations.md).
 */
import type { Clock, Timer } from '../../clock';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import type { Aggregator } from '../aggregator';
import { APISERVER_USER } from '../authn/user';
import type { ApiRequest, ApiResponse } from '../request';
import type { ObjectReader } from '../storage/reader';
import { API_SERVICES } from './autoregister';
import type { APIServiceCondition } from '../../api/generated/apiregistration-v1';

const CHECK_INTERVAL_MS = 5_000;

export interface AvailabilityDeps {
  clock: Clock;
  reader: ObjectReader;
  aggregator: Aggregator;
  loopback(request: ApiRequest): Promise<ApiResponse>;
}

/** The Available condition this controller decides (its lastTransitionTime set when written). */
type Condition = Required<Pick<APIServiceCondition, 'reason' | 'message'>> & { type: 'Available'; status: 'True' | 'False' };

export class AvailableConditionController {
  private timer: Timer | undefined;
  private stopFollowing: (() => void) | undefined;
  private queued = false;

  constructor(private readonly deps: AvailabilityDeps) {}

  start(): void {
    this.stopFollowing = this.deps.reader.follow(API_SERVICES, () => this.enqueue());
    const tick = (): void => {
      this.enqueue();
      this.timer = this.deps.clock.setTimer(CHECK_INTERVAL_MS, tick, { daemon: true, label: 'kube-apiserver: APIService availability' });
    };
    this.timer = this.deps.clock.setTimer(CHECK_INTERVAL_MS, tick, { daemon: true, label: 'kube-apiserver: APIService availability' });
  }

  stop(): void {
    this.stopFollowing?.();
    if (this.timer) this.deps.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    this.deps.clock.queueTask(() => this.sync(), { label: 'kube-apiserver: APIService availability' });
  }

  private desired(service: KubeObject): Condition | undefined {
    const spec = isObject(service.spec) ? service.spec : {};
    if (!isObject(spec.service)) return undefined;
    const backend = this.deps.aggregator.backendFor(typeof spec.group === 'string' ? spec.group : '', typeof spec.version === 'string' ? spec.version : '');
    if (!backend || backend.apiService !== service.metadata.name) return undefined;
    if (backend.available()) return { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' };
    const name = typeof spec.service.name === 'string' ? spec.service.name : '';
    const namespace = typeof spec.service.namespace === 'string' ? spec.service.namespace : '';
    return { type: 'Available', status: 'False', reason: 'MissingEndpoints', message: `endpoints for service/${name} in "${namespace}" have no addresses with port name "https"` };
  }

  private async sync(): Promise<void> {
    this.queued = false;
    const release = this.deps.clock.work();
    try {
      for (const service of this.deps.reader.cached(API_SERVICES)) {
        const want = this.desired(service);
        if (!want) continue;
        const status = isObject(service.status) ? service.status : {};
        const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
        const current = conditions.find((c) => c.type === 'Available');
        if (current && current.status === want.status && current.reason === want.reason && current.message === want.message) continue;
        const lastTransitionTime = current && current.status === want.status ? current.lastTransitionTime : this.deps.clock.rfc3339();
        const next: JsonObject = { ...want, lastTransitionTime: lastTransitionTime ?? this.deps.clock.rfc3339() };
        const object: KubeObject = { ...service, status: { ...status, conditions: [...conditions.filter((c) => c.type !== 'Available'), next] } };
        await this.deps.loopback({
          verb: 'update',
          user: APISERVER_USER,
          group: API_SERVICES.group,
          version: 'v1',
          resource: API_SERVICES.resource,
          subresource: 'status',
          name: service.metadata.name,
          body: { object: object as JsonObject },
        });
      }
    } finally {
      release();
    }
  }
}
