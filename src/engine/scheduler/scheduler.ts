/**
 * kube-scheduler (default profile) on the virtual clock. The host feeds it informer events and
 * carries out its API requests (SchedulerHost); the scheduler pops one pod per clock task, so a
 * burst of pods is scheduled back to back at one instant while other components still get their
 * turns, and every decision is a pure function of the events, the seed and the clock.
 */
import type { Clock } from '../clock';
import type { Random } from '../random';
import { ScheduleAlgorithm } from './algorithm';
import type { Pod } from './api';
import { Cache } from './cache/cache';
import type { PodInfo } from './cache/pod-info';
import { Snapshot } from './cache/snapshot';
import { onAdd, onDelete, onUpdate, type EventTarget } from './eventhandlers';
import type { FrameworkRunner, Handle } from './framework/interface';
import { Framework } from './framework/runtime';
import type { SchedulerHost, WatchedKind } from './host';
import { DefaultPreemption } from './plugins/default-preemption';
import { defaultPlugins } from './plugins/registry';
import { SchedulingQueue, type QueueOptions } from './queue/scheduling-queue';
import type { SchedulerRecorder } from './record';
import { scheduleOne } from './schedule-one';

export interface SchedulerOptions {
  clock: Clock;
  /** The cluster's generator; the scheduler forks its own stream from it. */
  random: Random;
  host: SchedulerHost;
  /** KubeSchedulerConfiguration.percentageOfNodesToScore; 0 (the default) is adaptive. */
  percentageOfNodesToScore?: number;
  queue?: QueueOptions;
  recorder?: SchedulerRecorder;
}

export class Scheduler implements EventTarget {
  readonly clock: Clock;
  readonly random: Random;
  readonly host: SchedulerHost;
  readonly recorder: SchedulerRecorder | undefined;
  readonly cache = new Cache();
  readonly pods = new Map<string, Pod>();
  readonly framework: Framework;
  readonly queue: SchedulingQueue;
  readonly algorithm: ScheduleAlgorithm;
  readonly preemption: DefaultPreemption | undefined;
  private readonly snapshot = new Snapshot();
  private taskQueued = false;
  private stopped = false;

  constructor(options: SchedulerOptions) {
    this.clock = options.clock;
    this.random = options.random.fork('kube-scheduler');
    this.host = options.host;
    this.recorder = options.recorder;
    const plugins = defaultPlugins(this.handle());
    this.preemption = plugins.map((p) => p.plugin).find((p): p is DefaultPreemption => p instanceof DefaultPreemption);
    this.framework = new Framework(plugins, {
      nominatedPodsForNode: (node) => this.queue.nominatedPodsForNode(node),
      empty: () => this.queue.nominator.empty(),
    });
    this.queue = new SchedulingQueue(this.framework, this.clock, (ns, name) => this.latestPod(ns, name), () => this.kick(), options.queue);
    this.algorithm = new ScheduleAlgorithm(this.cache, this.snapshot, this.framework, this.random, options.percentageOfNodesToScore ?? 0);
  }

  onAdd(kind: WatchedKind, obj: unknown): void {
    onAdd(this, kind, obj);
  }

  onUpdate(kind: WatchedKind, oldObj: unknown, newObj: unknown): void {
    onUpdate(this, kind, oldObj, newObj);
  }

  onDelete(kind: WatchedKind, obj: unknown): void {
    onDelete(this, kind, obj);
  }

  /** Stops scheduling (pods stay queued); events are still taken in. */
  stop(): void {
    this.stopped = true;
  }

  latestPod(namespace: string, name: string): Pod | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  private kick(): void {
    if (this.taskQueued || this.stopped) return;
    this.taskQueued = true;
    this.clock.queueTask(() => this.scheduleNext(), { label: 'kube-scheduler: schedule' });
  }

  private scheduleNext(): void {
    this.taskQueued = false;
    if (this.stopped) return;
    const pInfo = this.queue.pop();
    if (pInfo) scheduleOne(this, pInfo);
    if (this.queue.hasPoppable()) this.kick();
  }

  /** What plugins may use; built before the queue exists, so queue access is deferred. */
  private handle(): Handle {
    return {
      clock: this.clock,
      random: this.random,
      host: this.host,
      listers: this.host.listers,
      snapshot: () => this.snapshot,
      nominatedPodsForNode: (node: string): readonly PodInfo[] => this.queue.nominatedPodsForNode(node),
      framework: (): FrameworkRunner => this.framework,
      activate: (pods: readonly Pod[]) => this.queue.activate(pods),
      latestPod: (ns: string, name: string) => this.latestPod(ns, name),
      clearNominatedNodeName: (pods: readonly Pod[]) => {
        for (const pod of pods) {
          void this.host.updatePodStatus(pod, { nominatedNodeName: '' }).catch(() => {
            // Logged upstream only; the pod's next attempt corrects its nomination.
          });
        }
      },
    };
  }
}
