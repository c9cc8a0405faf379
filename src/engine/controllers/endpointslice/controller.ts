/**
 * The EndpointSlice controller (pkg/controller/endpointslice): keeps each selector Service's
 * EndpointSlices in step with the pods it selects. Services, pods and managed slices queue the
 * Service; a sync plans the slice writes (reconciler.ts) and issues them. A slice change the
 * controller did not make itself queues the Service after a second; a cache that lags behind the
 * controller's own writes fails the sync, which is retried.
 *
 * Runs as system:serviceaccount:kube-system:endpointslice-controller; events come from
 * "endpoint-slice-controller".
 */
import { aggregateMessage } from '../../api/field';
import { selectorFromSet } from '../../api/labels';
import { StatusError } from '../../api/status';
import type { ReconcileContext } from '../../client/controller';
import { deletedObject, splitMetaNamespaceKey } from '../../client/informer';
import { ENDPOINTSLICES, NODES, PODS, SERVICES } from '../../client/resources';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import { podServicesHandler, selectedPods } from '../util/endpoint/pod-services';
import { reconcileSlices, type SliceAction } from './reconciler';
import { EndpointSliceTracker } from './tracker';
import { TriggerTimeTracker } from '../util/endpoint/trigger-time';
import { CONTROLLER_NAME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MAX_ENDPOINTS_PER_SLICE, type EndpointSlice, type Node, type Pod, type Service } from '../util/types/endpoint';

/** The identity the controller runs as (kube-system service account). */
export const ENDPOINTSLICE_CONTROLLER_ACCOUNT = 'endpointslice-controller';

/** endpointSliceChangeMinSyncDelay: a slice changed by someone else is looked at after a second. */
const SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1000;

/** The retries a failing Service gets before it is dropped from the queue. */
const MAX_RETRIES = 15;

export class EndpointSliceController extends LoopController {
  private readonly services = this.informer<Service>(SERVICES);
  private readonly pods = this.informer<Pod>(PODS);
  private readonly slices = this.informer<EndpointSlice>(ENDPOINTSLICES);
  private readonly nodes = this.informer<Node>(NODES);
  private readonly tracker = new EndpointSliceTracker();
  private readonly triggerTimes = new TriggerTimeTracker();

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'endpointslice', maxRetries: MAX_RETRIES, events: { component: 'endpoint-slice-controller', stream: 'endpointslice events' } });
    this.services.addEventHandler(this.loop.handler<Service>());
    this.pods.addEventHandler(podServicesHandler(this.services.indexer, this.loop));
    this.slices.addEventHandler({
      onAdd: (slice) => {
        if (managed(slice) && this.tracker.shouldSync(slice)) this.queueForSlice(slice);
      },
      onUpdate: (old, slice) => {
        if (old.metadata.labels?.[LABEL_SERVICE_NAME] !== slice.metadata.labels?.[LABEL_SERVICE_NAME]) {
          this.queueForSlice(slice);
          this.queueForSlice(old);
        } else if (managed(old) !== managed(slice) || (managed(slice) && this.tracker.shouldSync(slice))) {
          this.queueForSlice(slice);
        }
      },
      onDelete: (obj) => {
        const slice = deletedObject(obj);
        if (managed(slice) && this.tracker.has(slice) && !this.tracker.handleDeletion(slice)) this.queueForSlice(slice);
      },
    });
  }

  /** Waits for the caches, then syncs until shutDown(). */
  private queueForSlice(slice: EndpointSlice): void {
    const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
    if (name) this.loop.enqueueAfter(`${slice.metadata.namespace ?? ''}/${name}`, SLICE_CHANGE_MIN_SYNC_DELAY_MS);
  }

  protected async sync(key: string, ctx: ReconcileContext): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.services.indexer.getByName(namespace, name);
    if (!service) {
      this.triggerTimes.deleteService(namespace, name);
      this.tracker.deleteService(namespace, name);
      ctx.observe('service gone');
      return;
    }
    const pods = selectedPods(service, this.pods.indexer);
    if (!pods) {
      ctx.observe('no selector: slices are managed by others');
      return;
    }
    const slices = this.slices.indexer
      .listNamespace(namespace, selectorFromSet({ [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: CONTROLLER_NAME }))
      .filter((s) => !s.metadata.deletionTimestamp);
    if (this.tracker.staleSlices(service, slices)) throw new Error('EndpointSlice informer cache is out of date');
    const triggerTime = this.triggerTimes.compute(service, pods);
    const plan = reconcileSlices({
      service,
      pods,
      existing: slices,
      node: (nodeName) => this.nodes.indexer.getByName('', nodeName),
      maxEndpointsPerSlice: MAX_ENDPOINTS_PER_SLICE,
      controllerName: CONTROLLER_NAME,
      triggerTime,
    });
    ctx.observe(`${pods.length} pods, ${slices.length} slices; ${plan.actions.map((a) => a.verb).join(', ') || 'no changes'}`);
    const errors: Error[] = [];
    try {
      await this.apply(ctx, key, namespace, plan.actions);
    } catch (err) {
      if (!(err instanceof Error) || err instanceof TypeError) throw err;
      errors.push(err);
    }
    errors.unshift(...plan.errors.map((m) => new Error(m)));
    if (errors.length === 0) return;
    const message = aggregateMessage(errors);
    this.recorder.event(service, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${message}`, ctx.cause);
    throw new Error(message);
  }

  /** The writes in order; the first failure ends the sync (a terminating namespace just stops it). */
  private async apply(ctx: ReconcileContext, svc: string, namespace: string, actions: readonly SliceAction[]): Promise<void> {
    const slices = ctx.client.resource<EndpointSlice>(ENDPOINTSLICES, namespace);
    for (const { verb, slice } of actions) {
      const name = slice.metadata.name ?? '';
      try {
        if (verb === 'create') this.tracker.update(await slices.create(wire(slice)));
        else if (verb === 'update') this.tracker.update(await slices.update(wire(slice)));
        else {
          await slices.delete(name);
          this.tracker.expectDeletion(slice);
        }
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (verb === 'create' && hasCause(err, 'NamespaceTerminating')) return;
        if (verb === 'create') throw new Error(`failed to create EndpointSlice for Service ${svc}: ${err.message}`);
        throw new Error(`failed to ${verb} ${name} EndpointSlice for Service ${svc}: ${err.message}`);
      }
    }
  }
}

function managed(slice: EndpointSlice): boolean {
  return slice.metadata.labels?.[LABEL_MANAGED_BY] === CONTROLLER_NAME;
}

function hasCause(err: StatusError, reason: string): boolean {
  return (err.status.details?.causes ?? []).some((c) => c.reason === reason);
}

/** As kube-controller-manager sends it over protobuf: an empty endpoint list arrives as null. */
function wire(slice: EndpointSlice): EndpointSlice {
  return (slice.endpoints ?? []).length === 0 ? { ...slice, endpoints: null } : slice;
}
