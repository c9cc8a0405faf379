/**
 * kube-scheduler as a cluster component: its own informers as system:kube-scheduler (pods that
 * have not finished, as upstream's field selector status.phase!=Succeeded,status.phase!=Failed,
 * nodes, namespaces, volumes and the workloads default spreading looks at), the scheduler fed
 * from them once their caches have synced, and its records written to the trace.
 */
import type { KubeObject } from '../../api/types';
import type { ApiServer } from '../../apiserver/server';
import { SCHEDULER_USER } from '../../apiserver/authn/user';
import type { Clock } from '../../clock';
import { Client, componentUserAgent } from '../../client/client';
import { EventsV1Broadcaster } from '../../client/events';
import { deletedObject, SharedInformerFactory, type SharedIndexInformer } from '../../client/informer';
import {
  NAMESPACES,
  NODES,
  PERSISTENTVOLUMECLAIMS,
  PERSISTENTVOLUMES,
  PODDISRUPTIONBUDGETS,
  PODS,
  REPLICASETS,
  REPLICATIONCONTROLLERS,
  SERVICES,
  STATEFULSETS,
  STORAGECLASSES,
} from '../../client/resources';
import type { Random } from '../../random';
import { DEFAULT_SCHEDULER_NAME, type Pod } from '../../scheduler/api';
import type { WatchedKind } from '../../scheduler/host';
import type { RecordDetail } from '../../scheduler/record';
import { Scheduler } from '../../scheduler/scheduler';
import type { TraceBuffer } from '../../trace/buffer';
import { SchedulerCauses } from './causes';
import { ClientSchedulerHost, type SchedulerCaches } from './host';

export const KUBE_SCHEDULER = 'kube-scheduler';
/** The host kube-scheduler runs on: its events' reportingInstance is default-scheduler-<host>. */
const SCHEDULER_HOST = 'kubesim-control-plane';

export interface KubeSchedulerOptions {
  server: ApiServer;
  clock: Clock;
  random: Random;
  trace: TraceBuffer;
  /** How much each scheduling attempt records; default 'full'. */
  recordDetail?: RecordDetail;
  /** KubeSchedulerConfiguration.percentageOfNodesToScore; 0 (default): adaptive. */
  percentageOfNodesToScore?: number;
}

export class KubeScheduler {
  readonly name = KUBE_SCHEDULER;
  private running: { informers: SharedInformerFactory; scheduler: Scheduler; events: EventsV1Broadcaster } | undefined;

  constructor(private readonly options: KubeSchedulerOptions) {}

  /** The running scheduler (its queue and cache), for tests and the panel. */
  get scheduler(): Scheduler | undefined {
    return this.running?.scheduler;
  }

  start(): void {
    if (this.running) return;
    const { server, clock, random, trace } = this.options;
    const client = new Client({ server, user: SCHEDULER_USER, userAgent: componentUserAgent(KUBE_SCHEDULER, 'scheduler') });
    const informers = new SharedInformerFactory({ client, clock, random: random.fork('kube-scheduler informers'), component: KUBE_SCHEDULER });
    const caches: SchedulerCaches = {
      namespaces: informers.informerFor(NAMESPACES),
      services: informers.informerFor(SERVICES),
      replicaSets: informers.informerFor(REPLICASETS),
      statefulSets: informers.informerFor(STATEFULSETS),
      replicationControllers: informers.informerFor(REPLICATIONCONTROLLERS),
      podDisruptionBudgets: informers.informerFor(PODDISRUPTIONBUDGETS),
      persistentVolumeClaims: informers.informerFor(PERSISTENTVOLUMECLAIMS),
      persistentVolumes: informers.informerFor(PERSISTENTVOLUMES),
      storageClasses: informers.informerFor(STORAGECLASSES),
    };
    const nodes = informers.informerFor(NODES);
    const pods = informers.informerFor<Pod>(PODS, { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' });
    const events = new EventsV1Broadcaster({ client, clock, random: random.fork('kube-scheduler events') });
    const causes = new SchedulerCauses(trace, this.options.recordDetail ?? 'full');
    const host = new ClientSchedulerHost(client, caches, events.newRecorder(DEFAULT_SCHEDULER_NAME, SCHEDULER_HOST), causes);
    const scheduler = new Scheduler({ clock, random, host, recorder: causes, percentageOfNodesToScore: this.options.percentageOfNodesToScore ?? 0 });
    this.running = { informers, scheduler, events };
    events.start();
    informers.start();
    // Scheduling starts once the caches are filled (WaitForCacheSync), nodes before pods.
    void informers.waitForCacheSync().then(() => {
      if (this.running?.scheduler !== scheduler) return;
      feed(scheduler, 'Node', nodes);
      feed(scheduler, 'Namespace', caches.namespaces);
      feed(scheduler, 'PersistentVolume', caches.persistentVolumes);
      feed(scheduler, 'PersistentVolumeClaim', caches.persistentVolumeClaims);
      feed(scheduler, 'StorageClass', caches.storageClasses);
      feed(scheduler, 'Pod', pods, (pod) => causes.forget(pod.metadata.uid));
    });
  }

  stop(): void {
    if (!this.running) return;
    this.running.scheduler.stop();
    this.running.events.shutdown();
    this.running.informers.shutdown();
    this.running = undefined;
  }
}

function feed<T extends KubeObject>(scheduler: Scheduler, kind: WatchedKind, informer: SharedIndexInformer<T>, deleted?: (obj: T) => void): void {
  informer.addEventHandler({
    onAdd: (obj) => scheduler.onAdd(kind, obj),
    onUpdate: (old, obj) => scheduler.onUpdate(kind, old, obj),
    onDelete: (obj) => {
      const last = deletedObject(obj);
      scheduler.onDelete(kind, last);
      deleted?.(last);
    },
  });
}
