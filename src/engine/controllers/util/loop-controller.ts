/**
 * The pieces every queue-driven controller builds the same way (client-go's informer + workqueue
 * pattern, as pkg/controller's controllers each wire it): its clock, its event recorder, one
 * control loop whose workers call the controller's sync, and the shared informers whose caches
 * that loop waits for. run() and shutDown() start and stop the loop; a controller with more to
 * start or stop (a second loop, timers) extends them.
 */
import { own } from '../../api/own';
import type { GroupVersionResource, KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import { CONCURRENT_SYNCS, type Controller, type ReconcileContext, type SyncResult } from '../../client/controller';
import type { EventRecorder } from '../../client/events';
import type { IndexFunc, SharedIndexInformer } from '../../client/informer';
import type { RateLimiter } from '../../client/workqueue/rate-limiters';
import { controlLoop, eventRecorder, type ControllerDeps } from './deps';

export interface LoopSpec {
  /** The loop's name ("deployment"): its queue, its records and its trace component. */
  name: string;
  /** Default: kube-controller-manager's --concurrent-*-syncs default for `name` (CONCURRENT_SYNCS). */
  workers?: number;
  maxRetries?: number;
  rateLimiter?: RateLimiter<string>;
  /** The events' source component ("deployment-controller") and the random stream their names come from; none: the controller reports no events. */
  events?: { component: string; stream: string };
}

/** The worker count of a loop: the one asked for, or the --concurrent-*-syncs default of its name. */
export function loopWorkers(spec: Pick<LoopSpec, 'name' | 'workers'>): number {
  const workers = spec.workers ?? own(CONCURRENT_SYNCS, spec.name);
  if (workers === undefined) throw new Error(`control loop ${spec.name} has no --concurrent-*-syncs default: give its workers`);
  return workers;
}

export abstract class LoopController {
  readonly loop: Controller;
  protected readonly clock: Clock;
  private readonly deps: ControllerDeps;
  private readonly events: EventRecorder | undefined;
  /** The informers taken through informer(), in the order taken: the loop's first sync waits for their caches. */
  private readonly synced: SharedIndexInformer[] = [];

  protected constructor(deps: ControllerDeps, spec: LoopSpec) {
    this.deps = deps;
    this.clock = deps.clock;
    this.events = spec.events && eventRecorder(deps, spec.events.component, spec.events.stream);
    const { name, maxRetries, rateLimiter } = spec;
    this.loop = controlLoop(deps, { name, workers: loopWorkers(spec), informers: this.synced, maxRetries, rateLimiter, sync: (key, ctx) => this.sync(key, ctx) });
  }

  /** The recorder of the events the controller reports (its spec names their component). */
  protected get recorder(): EventRecorder {
    if (!this.events) throw new Error(`control loop ${this.loop.name} reports no events`);
    return this.events;
  }

  /** The informers the loop waits for, for a second loop that waits for the same. */
  protected get informers(): readonly SharedIndexInformer[] {
    return this.synced;
  }

  /** kube-controller-manager's shared informer for `gvr` (with these indexes added), whose cache the loop waits for. */
  protected informer<T extends KubeObject = KubeObject>(gvr: GroupVersionResource, indexers?: Record<string, IndexFunc<T>>): SharedIndexInformer<T> {
    const informer = this.deps.informers.informerFor<T>(gvr, {}, indexers);
    this.synced.push(informer as unknown as SharedIndexInformer);
    return informer;
  }

  /** Reconciles the object `key` names (the loop's sync). */
  protected abstract sync(key: string, ctx: ReconcileContext): Promise<SyncResult>;

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }
}
