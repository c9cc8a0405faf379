/**
 * The scheduling queue (pkg/scheduler/backend/queue, 1.35): activeQ ordered by QueueSort; two
 * backoff heaps (pods rejected by plugins, pods that hit errors) ordered by backoff expiry, with
 * 1 s initial backoff doubling per attempt up to 10 s; and the unschedulable pool, left only when
 * a cluster event one of the rejecting plugins cares about (and whose queueing hint agrees)
 * arrives, or after 5 minutes. With SchedulerPopFromBackoffQ (beta, on), an idle scheduler takes
 * pods from the backoff heap without waiting out their backoff.
 */
import type { Clock, Timer } from '../../clock';
import type { Pod } from '../api';
import { PodInfo } from '../cache/pod-info';
import {
  BACKOFF_COMPLETE,
  EVENTS,
  SCHEDULE_ATTEMPT_FAILURE,
  isWildCard,
  matchClusterEvents,
  podSchedulingPropertiesChange,
  type ClusterEvent,
  type EventResource,
  type QueueingHintFn,
} from '../framework/events';
import { Action } from '../framework/events';
import type { NominatingInfo } from '../framework/interface';
import { QueuedPodInfo, type EventRegistration } from '../framework/queued-pod-info';
import type { Framework } from '../framework/runtime';
import { KeyedHeap } from './heap';
import { Nominator } from './nominator';

export interface QueueOptions {
  /** podInitialBackoffSeconds, in ms. */
  initialBackoff?: number;
  /** podMaxBackoffSeconds, in ms. */
  maxBackoff?: number;
  /** podMaxInUnschedulablePodsDuration, in ms. */
  maxInUnschedulable?: number;
}

export const DEFAULT_INITIAL_BACKOFF = 1000;
export const DEFAULT_MAX_BACKOFF = 10_000;
export const DEFAULT_MAX_IN_UNSCHEDULABLE = 5 * 60 * 1000;
const UNSCHEDULABLE_FLUSH_PERIOD = 30_000;
const BACKOFF_ORDERING_WINDOW = 1000;

type Strategy = 'skip' | 'afterBackoff' | 'immediately';
export type QueueName = 'activeQ' | 'backoffQ' | 'unschedulablePods';

interface HintRegistration {
  readonly event: EventRegistration & { resource: EventResource };
  readonly plugin: string;
  readonly hint?: QueueingHintFn;
}

export class SchedulingQueue {
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly errorBackoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, QueuedPodInfo>();
  private readonly inFlight = new Set<string>();
  private readonly hints: HintRegistration[] = [];
  private readonly pluginEvents = new Map<string, EventRegistration[]>();
  readonly nominator: Nominator;
  private readonly initialBackoff: number;
  private readonly maxBackoff: number;
  private readonly maxInUnschedulable: number;
  private backoffTimer: Timer | undefined;
  private backoffTimerAt = Infinity;
  private unschedulableTimer: Timer | undefined;
  private cycle = 0;

  constructor(
    private readonly fw: Framework,
    private readonly clock: Clock,
    latestPod: (namespace: string, name: string) => Pod | undefined,
    /** Called whenever a pod becomes poppable. */
    private readonly onReady: () => void,
    options: QueueOptions = {},
  ) {
    this.initialBackoff = options.initialBackoff ?? DEFAULT_INITIAL_BACKOFF;
    this.maxBackoff = options.maxBackoff ?? DEFAULT_MAX_BACKOFF;
    this.maxInUnschedulable = options.maxInUnschedulable ?? DEFAULT_MAX_IN_UNSCHEDULABLE;
    const key = (p: QueuedPodInfo): string => p.key;
    this.activeQ = new KeyedHeap(key, (a, b) => fw.less(a, b));
    const backoffLess = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => {
      const ea = this.backoffTime(a);
      const eb = this.backoffTime(b);
      return ea !== eb ? ea < eb : fw.less(a, b);
    };
    this.backoffQ = new KeyedHeap(key, backoffLess);
    this.errorBackoffQ = new KeyedHeap(key, backoffLess);
    this.nominator = new Nominator(latestPod);
    const withEvents = new Set<string>();
    for (const ext of fw.enqueueExtensions) {
      withEvents.add(ext.name);
      for (const { event, hint } of ext.eventsToRegister()) {
        this.hints.push({ event, plugin: ext.name, ...(hint ? { hint } : {}) });
        const list = this.pluginEvents.get(ext.name) ?? [];
        list.push(event);
        this.pluginEvents.set(ext.name, list);
      }
    }
    // A plugin that registers no events is retried on any event.
    for (const p of [...fw.preEnqueuePlugins, ...fw.preFilterPlugins, ...fw.filterPlugins, ...fw.reservePlugins, ...fw.permitPlugins]) {
      if (withEvents.has(p.name)) continue;
      withEvents.add(p.name);
      this.hints.push({ event: { resource: '*', action: Action.All }, plugin: p.name });
    }
  }

  get schedulingCycle(): number {
    return this.cycle;
  }

  /** Add: a new unscheduled pod. */
  add(pod: Pod): void {
    const pInfo = new QueuedPodInfo(new PodInfo(pod), this.clock.now());
    if (this.moveToActiveQ(pInfo, EVENTS.UnscheduledPodAdd.label)) this.onReady();
  }

  /** Update: the informer saw a new version of an unscheduled pod. */
  update(oldPod: Pod, newPod: Pod): void {
    const key = keyOf(newPod);
    if (this.inFlight.has(newPod.metadata.uid)) return;
    for (const q of [this.activeQ, this.backoffQ, this.errorBackoffQ]) {
      const pInfo = q.get(key);
      if (pInfo) {
        pInfo.podInfo = new PodInfo(newPod, pInfo.podInfo);
        q.addOrUpdate(pInfo);
        this.nominator.update(oldPod, pInfo.podInfo);
        return;
      }
    }
    const pInfo = this.unschedulable.get(key);
    if (pInfo) {
      pInfo.podInfo = new PodInfo(newPod, pInfo.podInfo);
      this.nominator.update(oldPod, pInfo.podInfo);
      for (const ev of podSchedulingPropertiesChange(newPod, oldPod)) {
        if (pInfo.gated() && !pInfo.gatingPluginEvents.some((r) => matchClusterEvents(r as HintRegistration['event'], ev))) continue;
        const strategy = this.isPodWorthRequeuing(pInfo, ev, oldPod, newPod);
        if (strategy === 'skip') continue;
        const queue = this.requeue(pInfo, strategy, ev.label);
        if (queue !== 'unschedulablePods') {
          this.onReady();
          break;
        }
      }
      return;
    }
    const fresh = new QueuedPodInfo(new PodInfo(newPod), this.clock.now());
    if (this.moveToActiveQ(fresh, EVENTS.UnscheduledPodUpdate.label)) this.onReady();
  }

  delete(pod: Pod): void {
    const key = keyOf(pod);
    this.nominator.delete(pod.metadata.uid);
    if (this.activeQ.delete(key) || this.backoffQ.delete(key) || this.errorBackoffQ.delete(key)) return;
    this.unschedulable.delete(key);
  }

  /** Activate: straight to the active queue, skipping backoff (e.g. after async preemption). */
  activate(pods: readonly Pod[]): void {
    let activated = false;
    for (const pod of pods) {
      const key = keyOf(pod);
      let pInfo = this.unschedulable.get(key);
      let fromBackoff = false;
      if (!pInfo) {
        pInfo = this.backoffQ.delete(key) ?? this.errorBackoffQ.delete(key);
        fromBackoff = pInfo !== undefined;
      }
      if (pInfo && this.moveToActiveQ(pInfo, EVENTS.ForceActivate.label, fromBackoff)) activated = true;
    }
    if (activated) this.onReady();
  }

  /** Pop: the next pod to schedule; from the backoff heap when the active queue is empty. */
  pop(): QueuedPodInfo | undefined {
    const pInfo = this.activeQ.pop() ?? this.backoffQ.pop();
    if (!pInfo) return undefined;
    pInfo.attempts++;
    pInfo.backoffExpiration = 0;
    this.cycle++;
    this.inFlight.add(pInfo.podInfo.uid);
    pInfo.unschedulablePlugins = new Set();
    pInfo.pendingPlugins = new Set();
    pInfo.gatingPlugin = '';
    pInfo.gatingPluginEvents = [];
    this.armBackoffTimer();
    return pInfo;
  }

  hasPoppable(): boolean {
    return this.activeQ.length > 0 || this.backoffQ.length > 0;
  }

  /** Done: the pod's scheduling attempt is over (it was bound, or handed back). */
  done(uid: string): void {
    this.inFlight.delete(uid);
  }

  /** AddUnschedulableIfNotPresent: a failed attempt comes back; with queueing hints it waits in the pool. */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo): QueueName | undefined {
    this.done(pInfo.podInfo.uid);
    const key = pInfo.key;
    if (this.unschedulable.has(key) || this.activeQ.has(key) || this.backoffQ.has(key) || this.errorBackoffQ.has(key)) return undefined;
    const rejected = pInfo.unschedulablePlugins.size > 0 || pInfo.pendingPlugins.size > 0;
    if (rejected) {
      pInfo.unschedulableCount++;
      pInfo.consecutiveErrorsCount = 0;
    } else {
      pInfo.consecutiveErrorsCount++;
    }
    pInfo.timestamp = this.clock.now();
    pInfo.backoffExpiration = 0;
    // No events can arrive while an attempt runs here (the cycle is synchronous), so only an
    // attempt that failed without a rejecting plugin (an error) is retried without an event.
    const queue = this.requeue(pInfo, rejected ? 'skip' : 'afterBackoff', SCHEDULE_ATTEMPT_FAILURE);
    if (queue !== 'unschedulablePods') this.onReady();
    return queue;
  }

  /** MoveAllToActiveOrBackoffQueue: a cluster event; each unschedulable pod asks its rejecting plugins' hints. */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj: unknown, newObj: unknown, preCheck?: (pod: Pod) => boolean): void {
    if (!this.isEventOfInterest(event)) return;
    const pods = [...this.unschedulable.values()].filter((p) => !preCheck || preCheck(p.pod));
    this.movePods(pods, event, oldObj, newObj);
  }

  addNominatedPod(pi: PodInfo, info: NominatingInfo | null): void {
    this.nominator.add(pi, info);
  }

  deleteNominatedPodIfExists(uid: string): void {
    this.nominator.delete(uid);
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.nominator.nominatedPodsForNode(nodeName);
  }

  /** Where each pending pod waits: for tests and the UI. */
  pendingPods(): { activeQ: string[]; backoffQ: string[]; unschedulablePods: string[] } {
    const keys = (q: KeyedHeap<QueuedPodInfo>): string[] => q.list().map((p) => p.key);
    return {
      activeQ: keys(this.activeQ),
      backoffQ: [...keys(this.backoffQ), ...keys(this.errorBackoffQ)],
      unschedulablePods: [...this.unschedulable.keys()],
    };
  }

  /** calculateBackoffDuration: 1 s doubling per attempt, capped at 10 s; none before any attempt. */
  backoffDuration(pInfo: QueuedPodInfo): number {
    if (pInfo.attempts === 0) return 0;
    let d = this.initialBackoff;
    for (let i = 1; i < pInfo.attempts; i++) {
      if (d > this.maxBackoff - d) return this.maxBackoff;
      d += d;
    }
    return d;
  }

  backoffTime(pInfo: QueuedPodInfo): number {
    if (pInfo.backoffExpiration === 0) pInfo.backoffExpiration = pInfo.timestamp + this.backoffDuration(pInfo);
    return pInfo.backoffExpiration;
  }

  isPodBackingOff(pInfo: QueuedPodInfo): boolean {
    return this.backoffTime(pInfo) > this.clock.now();
  }

  private movePods(pods: readonly QueuedPodInfo[], event: ClusterEvent, oldObj: unknown, newObj: unknown): void {
    if (!this.isEventOfInterest(event)) return;
    let activated = false;
    for (const pInfo of pods) {
      if (pInfo.gated() && !pInfo.gatingPluginEvents.some((r) => matchClusterEvents(r as HintRegistration['event'], event))) continue;
      const strategy = this.isPodWorthRequeuing(pInfo, event, oldObj, newObj);
      if (strategy === 'skip') continue;
      this.unschedulable.delete(pInfo.key);
      if (this.requeue(pInfo, strategy, event.label) !== 'unschedulablePods') activated = true;
    }
    if (activated) this.onReady();
  }

  private isEventOfInterest(event: ClusterEvent): boolean {
    if (isWildCard(event)) return true;
    return this.hints.some((h) => matchClusterEvents(h.event, event));
  }

  /** isPodWorthRequeuing: ask the hints of the plugins that rejected the pod. */
  private isPodWorthRequeuing(pInfo: QueuedPodInfo, event: ClusterEvent, oldObj: unknown, newObj: unknown): Strategy {
    const rejectors = new Set([...pInfo.unschedulablePlugins, ...pInfo.pendingPlugins]);
    if (rejectors.size === 0) return 'afterBackoff';
    if (isWildCard(event)) {
      const target = newObj as Pod | undefined;
      if (target?.metadata?.uid !== undefined && target.metadata.uid !== pInfo.podInfo.uid) return 'skip';
      return 'afterBackoff';
    }
    let strategy: Strategy = 'skip';
    for (const h of this.hints) {
      if (!rejectors.has(h.plugin) || !matchClusterEvents(h.event, event)) continue;
      const hint = h.hint ? h.hint(pInfo.pod, oldObj, newObj) : 'Queue';
      if (hint === 'QueueSkip') continue;
      if (pInfo.pendingPlugins.has(h.plugin)) return 'immediately';
      if (pInfo.pendingPlugins.size === 0) return 'afterBackoff';
      strategy = 'afterBackoff';
    }
    return strategy;
  }

  private requeue(pInfo: QueuedPodInfo, strategy: Strategy, event: string): QueueName {
    if (strategy === 'skip') {
      this.addToUnschedulable(pInfo);
      return 'unschedulablePods';
    }
    if (strategy === 'afterBackoff' && this.isPodBackingOff(pInfo)) {
      return this.moveToBackoffQ(pInfo) ? 'backoffQ' : 'unschedulablePods';
    }
    return this.moveToActiveQ(pInfo, event) ? 'activeQ' : 'unschedulablePods';
  }

  /** Runs PreEnqueue plugins; a gated pod goes to the unschedulable pool instead. */
  private runPreEnqueue(pInfo: QueuedPodInfo): void {
    const s = this.fw.runPreEnqueuePlugins(pInfo.podInfo, pInfo.gatingPlugin || undefined);
    if (s === null) {
      pInfo.gatingPlugin = '';
      pInfo.gatingPluginEvents = [];
      return;
    }
    pInfo.unschedulablePlugins.add(s.plugin);
    pInfo.gatingPlugin = s.plugin;
    pInfo.gatingPluginEvents = this.pluginEvents.get(s.plugin) ?? [];
  }

  private moveToActiveQ(pInfo: QueuedPodInfo, event: string, fromBackoff = false): boolean {
    // PreEnqueue already ran when the pod entered the backoff heap.
    if (!fromBackoff) this.runPreEnqueue(pInfo);
    const key = pInfo.key;
    if (pInfo.gated()) {
      if (this.activeQ.has(key) || this.backoffQ.has(key) || this.errorBackoffQ.has(key) || this.unschedulable.has(key)) return false;
      this.addToUnschedulable(pInfo);
      return false;
    }
    pInfo.initialAttemptTimestamp ??= this.clock.now();
    this.unschedulable.delete(key);
    this.backoffQ.delete(key);
    this.errorBackoffQ.delete(key);
    this.activeQ.addOrUpdate(pInfo);
    if (event === EVENTS.UnscheduledPodAdd.label || event === EVENTS.UnscheduledPodUpdate.label) this.nominator.add(pInfo.podInfo, null);
    return true;
  }

  private moveToBackoffQ(pInfo: QueuedPodInfo): boolean {
    this.runPreEnqueue(pInfo);
    if (pInfo.gated()) {
      if (!this.unschedulable.has(pInfo.key)) this.addToUnschedulable(pInfo);
      return false;
    }
    this.unschedulable.delete(pInfo.key);
    const errored = pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0;
    (errored ? this.errorBackoffQ : this.backoffQ).addOrUpdate(pInfo);
    this.armBackoffTimer();
    return true;
  }

  private addToUnschedulable(pInfo: QueuedPodInfo): void {
    this.unschedulable.set(pInfo.key, pInfo);
    this.armUnschedulableTimer();
  }

  /** flushBackoffQCompleted runs on 1 s ticks aligned to whole seconds: arm the tick after the earliest expiry. */
  private armBackoffTimer(): void {
    let earliest = Infinity;
    for (const q of [this.backoffQ, this.errorBackoffQ]) {
      const head = q.peek();
      if (head) earliest = Math.min(earliest, this.backoffTime(head));
    }
    if (earliest === Infinity) {
      this.clock.clearTimer(this.backoffTimer);
      this.backoffTimer = undefined;
      this.backoffTimerAt = Infinity;
      return;
    }
    const at = Math.max(Math.ceil(earliest / BACKOFF_ORDERING_WINDOW) * BACKOFF_ORDERING_WINDOW, this.clock.now());
    if (this.backoffTimer && this.backoffTimerAt <= at) return;
    this.clock.clearTimer(this.backoffTimer);
    this.backoffTimerAt = at;
    this.backoffTimer = this.clock.setTimer(at - this.clock.now(), () => this.flushBackoffQCompleted(), { label: 'kube-scheduler: flush backoffQ' });
  }

  private flushBackoffQCompleted(): void {
    this.backoffTimer = undefined;
    this.backoffTimerAt = Infinity;
    let activated = false;
    for (const q of [this.backoffQ, this.errorBackoffQ]) {
      for (let head = q.peek(); head && !this.isPodBackingOff(head); head = q.peek()) {
        q.pop();
        if (this.moveToActiveQ(head, BACKOFF_COMPLETE, true)) activated = true;
      }
    }
    this.armBackoffTimer();
    if (activated) this.onReady();
  }

  /** flushUnschedulablePodsLeftover runs every 30 s; background work, so it never holds settle(). */
  private armUnschedulableTimer(): void {
    if (this.unschedulableTimer) return;
    const now = this.clock.now();
    const next = (Math.floor(now / UNSCHEDULABLE_FLUSH_PERIOD) + 1) * UNSCHEDULABLE_FLUSH_PERIOD;
    this.unschedulableTimer = this.clock.setTimer(next - now, () => this.flushUnschedulablePodsLeftover(), {
      daemon: true,
      label: 'kube-scheduler: flush unschedulable pods',
    });
  }

  private flushUnschedulablePodsLeftover(): void {
    this.unschedulableTimer = undefined;
    const now = this.clock.now();
    const stale = [...this.unschedulable.values()].filter((p) => now - p.timestamp > this.maxInUnschedulable);
    if (stale.length > 0) this.movePods(stale, EVENTS.UnschedulableTimeout, undefined, undefined);
    if (this.unschedulable.size > 0) this.armUnschedulableTimer();
  }
}

const keyOf = (pod: Pod): string => `${pod.metadata.namespace}/${pod.metadata.name}`;
