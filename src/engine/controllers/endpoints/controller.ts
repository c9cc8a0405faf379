/**
 * The legacy Endpoints controller (pkg/controller/endpoint), which kube-controller-manager 1.35
 * still runs: one core/v1 Endpoints per selector Service, named like it, listing its pods'
 * addresses (plan.ts). It deletes the Endpoints of a Service that is gone, and on start looks at
 * every existing Endpoints object once for leftovers.
 *
 * Runs as system:serviceaccount:kube-system:endpoint-controller; events come from
 * "endpoint-controller".
 */
import { StatusError } from '../../api/status';
import type { ReconcileContext } from '../../client/controller';
import { isForbidden, isNotFound } from '../../client/errors';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../../client/informer';
import { ENDPOINTS, PODS, SERVICES } from '../../client/resources';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { podServicesHandler, selectedPods } from '../util/endpoint/pod-services';
import { TriggerTimeTracker } from '../util/endpoint/trigger-time';
import type { Pod, Service } from '../util/types/endpoint';
import { planEndpoints } from './plan';
import type { Endpoints } from './types';

export const ENDPOINT_CONTROLLER_ACCOUNT = 'endpoint-controller';

const MAX_RETRIES = 15;

/** Endpoints of leader election locks have no Service: they are not leftovers. */
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

export class EndpointsController extends LoopController {
  private readonly services = this.informer<Service>(SERVICES);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly endpoints = this.informer<Endpoints>(ENDPOINTS);
  private readonly triggerTimes = new TriggerTimeTracker();
  /** The resourceVersion each Endpoints had before this controller last updated it. */
  private readonly staleVersions = new Map<string, string>();

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'endpoint', maxRetries: MAX_RETRIES, events: { component: 'endpoint-controller', stream: 'endpoint events' } });
    this.services.addEventHandler(this.loop.handler<Service>());
    this.pods.addEventHandler(podServicesHandler(this.services.indexer, this.loop));
    this.endpoints.addEventHandler({ onDelete: (obj) => this.loop.enqueueObject(obj) });
  }

  override async run(): Promise<void> {
    const running = super.run();
    await Promise.all([this.services.whenSynced(), this.pods.whenSynced(), this.endpoints.whenSynced()]);
    for (const ep of this.endpoints.indexer.list()) {
      if (!Object.hasOwn(ep.metadata.annotations ?? {}, LEADER_ANNOTATION)) this.loop.enqueue(metaNamespaceKey(ep), ep);
    }
    return running;
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.services.indexer.getByName(namespace, name);
    const client = ctx.client.resource<Endpoints>(ENDPOINTS, namespace);
    if (!service) {
      ctx.observe('service gone: deleting its Endpoints');
      try {
        await client.delete(name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      this.triggerTimes.deleteService(namespace, name);
      this.staleVersions.delete(key);
      return;
    }
    const pods = selectedPods(service, this.pods.indexer);
    if (!pods) {
      ctx.observe('no selector: endpoints are managed by others');
      return;
    }
    const triggerTime = this.triggerTimes.compute(service, pods);
    const current = this.endpoints.indexer.getByName(namespace, name);
    if (current && this.staleVersions.get(key) === current.metadata.resourceVersion) {
      throw new Error(`endpoints informer cache is out of date, resource version ${current.metadata.resourceVersion ?? ''} already processed for endpoints ${key}`);
    }
    const plan = planEndpoints(service, pods, current, triggerTime);
    ctx.observe(`${pods.length} pods; ${plan.verb === 'none' ? 'endpoints up to date' : `${plan.verb} Endpoints`}`);
    if (plan.verb === 'none') return;
    try {
      if (plan.verb === 'create') {
        await client.create(plan.endpoints);
      } else {
        const updated = await client.update(plan.endpoints);
        if (current && updated.metadata.resourceVersion !== current.metadata.resourceVersion) this.staleVersions.set(key, current.metadata.resourceVersion ?? '');
      }
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (plan.verb === 'create' && isForbidden(err) && (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) return;
      const [reason, message] =
        plan.verb === 'create'
          ? ['FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${err.message}`]
          : ['FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${err.message}`];
      this.recorder.event(plan.endpoints, 'Warning', reason, message, ctx.cause);
      throw err;
    }
  }
}
