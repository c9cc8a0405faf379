/**
 * The shape of every control loop (docs/architecture.md, House style: client-go's informer + workqueue): informer
 * handlers enqueue keys, N workers take keys off a rate-limited queue and call `sync(key)`, which
 * reconciles from the current cache state and says how it went: done, requeue after a delay, or
 * (by throwing) an error retried with the rate limiter's backoff.
 *
 * Each sync gets a client scoped to it, which collects the requests it sends; each sync leaves
 * one `controller.reconcile` record naming its trigger: the resourceVersion of the informer
 * event that queued the key and the request record that wrote it, or the reconcile that asked
 * for a requeue or a retry.
 */
import type { KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import type { TraceBuffer } from '../../trace/buffer';
import type { ReconcileOutcome, ReconcileRecord, ReconcileTrigger } from '../../trace/reconcile';
import type { Client } from '../client';
import { deletedObject, deletionHandlingKey, type DeletedFinalStateUnknown } from '../informer/keys';
import type { EventHandler, SharedIndexInformer } from '../informer/shared-informer';
import { RateLimitingQueue } from '../workqueue/rate-limiting-queue';
import type { RateLimiter } from '../workqueue/rate-limiters';
import { runWorkers } from '../workqueue/workers';
import { revisionCauses, type RevisionCauses } from './revision-causes';

/**
 * How a sync ended; returning nothing means done. A background requeue is a check (a progress
 * deadline) that does not keep the cluster from settling.
 */
export type SyncResult = { requeueAfterMs: number; background?: boolean } | void;

export const requeueAfter = (ms: number, options: { background?: boolean } = {}): SyncResult => ({ requeueAfterMs: ms, ...(options.background ? { background: true } : {}) });

export interface ReconcileContext {
  readonly key: string;
  /** The trace record that caused this reconcile: attribute the reconcile's events to it. */
  readonly cause: number | undefined;
  /** The controller's client, with every request attributed to this reconcile. */
  readonly client: Client;
  /** Records what the reconcile saw (the last call wins): "3 pods, 2 ready; want 3". */
  observe(summary: string): void;
  /** Attaches structured detail to the reconcile's record (the HPA's decision). */
  detail(fields: Pick<ReconcileRecord, 'autoscaler'>): void;
}

export type SyncFunction = (key: string, ctx: ReconcileContext) => Promise<SyncResult>;

export interface ControllerOptions {
  /** "deployment": names the queue, the records and (with "-controller") the trace component. */
  name: string;
  client: Client;
  clock: Clock;
  trace: TraceBuffer;
  sync: SyncFunction;
  /** The --concurrent-*-syncs value (CONCURRENT_SYNCS). */
  workers: number;
  /** The informers whose caches must be filled before the first sync. */
  informers: readonly Pick<SharedIndexInformer, 'whenSynced'>[];
  /** Default: DefaultControllerRateLimiter. */
  rateLimiter?: RateLimiter<string>;
  /** Failed syncs of a key retried at most this many times, then dropped (deployment: 15); default: always retried. */
  maxRetries?: number;
}

interface Trigger {
  kind: ReconcileTrigger;
  revision?: number;
  cause?: number;
}

/** Errors that mean the controller's code is wrong rather than the cluster state: not retried, reported to the clock. */
function isBug(err: unknown): boolean {
  return err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError || err instanceof SyntaxError || !(err instanceof Error);
}

export class Controller {
  readonly name: string;
  readonly queue: RateLimitingQueue<string>;
  private readonly options: ControllerOptions;
  private readonly causes: RevisionCauses;
  /** Why each queued key is queued: the latest informer event. */
  private readonly triggers = new Map<string, Trigger>();
  /** Why each key waiting for a requeue or retry waits. */
  private readonly delayed = new Map<string, Trigger>();

  constructor(options: ControllerOptions) {
    this.options = options;
    this.name = options.name;
    this.queue = new RateLimitingQueue<string>({ name: options.name, clock: options.clock, rateLimiter: options.rateLimiter });
    this.causes = revisionCauses(options.trace);
  }

  /**
   * Queues a key. `because` is the object whose informer event queued it (its resourceVersion
   * names the cause) or a tombstone; without it the reconcile has no recorded cause.
   */
  enqueue(key: string, because?: KubeObject | DeletedFinalStateUnknown): void {
    this.triggers.set(key, because ? this.eventTrigger(because) : { kind: 'enqueue' });
    this.queue.add(key);
  }

  /** Queues the key of an object (or tombstone) for its own event. */
  enqueueObject(obj: KubeObject | DeletedFinalStateUnknown): void {
    this.enqueue(deletionHandlingKey(obj), obj);
  }

  /** Queues a key after a delay (a deadline to check, a pod becoming available). */
  enqueueAfter(key: string, delayMs: number): void {
    if (!this.delayed.has(key)) this.delayed.set(key, { kind: 'requeue' });
    this.queue.addAfter(key, delayMs);
  }

  /**
   * The usual handler: every add, update and delete queues the keys `keysOf` maps the object to
   * (default: its own key); a resync's update(obj, obj) is recorded as such.
   */
  handler<T extends KubeObject>(keysOf: (obj: T) => readonly string[] = (obj) => [deletionHandlingKey(obj)]): EventHandler<T> {
    return {
      onAdd: (obj) => {
        for (const key of keysOf(obj)) this.enqueue(key, obj);
      },
      onUpdate: (old, obj) => {
        for (const key of keysOf(obj)) {
          if (old === obj) this.resync(key, obj);
          else this.enqueue(key, obj);
        }
      },
      onDelete: (obj) => {
        const last = deletedObject(obj);
        for (const key of keysOf(last)) this.enqueue(key, obj);
      },
    };
  }

  private resync(key: string, obj: KubeObject): void {
    if (!this.triggers.has(key)) this.triggers.set(key, { kind: 'resync', revision: revisionOf(obj) });
    this.queue.add(key);
  }

  /** Waits for the informers' caches, then runs the workers until shutDown(). */
  async run(): Promise<void> {
    await Promise.all(this.options.informers.map((i) => i.whenSynced()));
    await runWorkers(this.queue, this.options.workers, (key) => this.process(key));
  }

  shutDown(): void {
    this.queue.shutDown();
  }

  private eventTrigger(obj: KubeObject | DeletedFinalStateUnknown): Trigger {
    const revision = revisionOf(deletedObject(obj));
    if (revision === undefined) return { kind: 'event' };
    return { kind: 'event', revision, cause: this.causes.causeOf(revision) };
  }

  private async process(key: string): Promise<void> {
    const pending = this.delayed.get(key);
    const trigger = this.triggers.get(key) ?? pending ?? { kind: 'enqueue' };
    // An event that queued the key while a retry waited makes this sync that retry too.
    const retryOf = pending?.kind === 'retry' && trigger !== pending ? pending.cause : undefined;
    this.triggers.delete(key);
    this.delayed.delete(key);
    const requests: number[] = [];
    let observed: string | undefined;
    let detail: Pick<ReconcileRecord, 'autoscaler'> = {};
    // The reconcile's record is written when it ends; its id is taken now so that the requests
    // and events it sends can name it as their cause.
    const id = this.options.trace.reserve();
    const ctx: ReconcileContext = {
      key,
      cause: id,
      client: this.options.client.scoped(id, (requestId) => requests.push(requestId)),
      observe: (summary) => {
        observed = summary;
      },
      detail: (fields) => {
        detail = { ...detail, ...fields };
      },
    };
    let result: SyncResult = undefined;
    let error: Error | undefined;
    try {
      result = await this.options.sync(key, ctx);
    } catch (err) {
      if (isBug(err)) throw err;
      error = err as Error;
    }
    const base = { controller: this.name, key, trigger: trigger.kind, revision: trigger.revision, observed, requests, ...(retryOf !== undefined ? { retryOf } : {}), ...detail };
    if (error) {
      this.failed(key, base, trigger, error, id);
      return;
    }
    this.queue.forget(key);
    const outcome: ReconcileOutcome = result ? 'requeue-after' : 'done';
    const record = this.emit({ ...base, outcome, requeueAfterMs: result?.requeueAfterMs }, trigger.cause, id);
    if (result) {
      this.delayed.set(key, { kind: 'requeue', cause: record.id });
      this.queue.addAfter(key, result.requeueAfterMs, { background: result.background });
    }
  }

  private failed(key: string, base: Omit<ReconcileRecord, 'id' | 'time' | 'type' | 'component' | 'outcome'>, trigger: Trigger, error: Error, id: number): void {
    const maxRetries = this.options.maxRetries;
    if (maxRetries !== undefined && this.queue.numRequeues(key) >= maxRetries) {
      this.queue.forget(key);
      this.emit({ ...base, outcome: 'error', error: error.message, retries: maxRetries, dropped: true }, trigger.cause, id);
      return;
    }
    const backoffMs = this.queue.rateLimiter.when(key);
    const record = this.emit({ ...base, outcome: 'error', error: error.message, backoffMs, retries: this.queue.numRequeues(key) }, trigger.cause, id);
    this.delayed.set(key, { kind: 'retry', cause: record.id });
    this.queue.addAfter(key, backoffMs);
  }

  private emit(fields: Omit<ReconcileRecord, 'id' | 'time' | 'type' | 'component' | 'cause'>, cause: number | undefined, id: number): ReconcileRecord {
    return this.options.trace.emit<ReconcileRecord>({ type: 'controller.reconcile', component: `${this.name}-controller`, cause, ...fields }, id);
  }
}

function revisionOf(obj: KubeObject): number | undefined {
  const rv = obj.metadata.resourceVersion;
  return rv && /^\d+$/.test(rv) ? Number(rv) : undefined;
}
