/**
 * The pod garbage collector (pkg/controller/podgc): every 20 s it force-deletes pods nobody else
 * will finish: finished pods beyond --terminated-pod-gc-threshold, terminating pods on nodes that
 * are down and tainted node.kubernetes.io/out-of-service, pods bound to nodes that are gone (after
 * a 40 s quarantine and a GET to be sure), and terminating pods that were never scheduled. A pod
 * that has not finished is first marked Failed (an orphan also gets DisruptionTarget with reason
 * DeletionByPodGC), then deleted with a grace period of 0.
 *
 * Runs as system:serviceaccount:kube-system:pod-garbage-collector. Each pass that deletes
 * something leaves one reconcile record per reason.
 */
import { isStatusError } from '../../api/status';
import type { Clock, Timer } from '../../clock';
import type { Client } from '../../client/client';
import { isNotFound } from '../../client/errors';
import type { SharedIndexInformer } from '../../client/informer';
import { NODES, PODS } from '../../client/resources';
import type { TraceBuffer } from '../../trace/buffer';
import type { ReconcileRecord } from '../../trace/reconcile';
import type { ControllerDeps } from '../util/deps';
import {
  failedStatusPatch,
  GC_CHECK_PERIOD_MS,
  NODE_GONE_CONDITION,
  OrphanQuarantine,
  TERMINATED_POD_GC_THRESHOLD,
  terminatedPodsToDelete,
  terminatingOnOutOfServiceNodes,
  unscheduledTerminating,
} from './plan';
import type { Node, Pod } from '../../api/generated/core-v1';

export const POD_GC_ACCOUNT = 'pod-garbage-collector';

export interface PodGCSettings {
  /** --terminated-pod-gc-threshold: finished pods kept before the oldest are deleted; 0 or less: never. */
  terminatedPodThreshold: number;
}

type Condition = typeof NODE_GONE_CONDITION;

export class PodGCController {
  private readonly clock: Clock;
  private readonly client: Client;
  private readonly trace: TraceBuffer;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly settings: PodGCSettings;
  private readonly quarantine = new OrphanQuarantine();
  private timer: Timer | undefined;
  private stopped = false;

  constructor(deps: ControllerDeps, settings: Partial<PodGCSettings> = {}) {
    this.clock = deps.clock;
    this.client = deps.client;
    this.trace = deps.trace;
    this.settings = { terminatedPodThreshold: TERMINATED_POD_GC_THRESHOLD, ...settings };
    this.pods = deps.informers.informerFor<Pod>(PODS);
    this.nodes = deps.informers.informerFor<Node>(NODES);
  }

  async run(): Promise<void> {
    await Promise.all([this.pods.whenSynced(), this.nodes.whenSynced()]);
    if (!this.stopped) this.schedule(0);
  }

  shutDown(): void {
    this.stopped = true;
    this.clock.clearTimer(this.timer);
  }

  private schedule(delayMs: number): void {
    this.timer = this.clock.setTimer(
      delayMs,
      async () => {
        await this.gc();
        if (!this.stopped) this.schedule(GC_CHECK_PERIOD_MS);
      },
      { daemon: true, label: 'pod-garbage-collector: gc pass' },
    );
  }

  private async gc(): Promise<void> {
    const pods = this.pods.indexer.list();
    const nodes = new Map(this.nodes.indexer.list().map((n) => [n.metadata.name ?? '', n]));
    const threshold = this.settings.terminatedPodThreshold;
    await this.deleteAll('terminated', terminatedPodsToDelete(pods, threshold), undefined, (n) => `${n} finished pods over the threshold of ${threshold}`);
    await this.deleteAll('terminating-out-of-service', terminatingOnOutOfServiceNodes(pods, nodes), undefined, (n) => `${n} terminating pods on out-of-service nodes`);
    await this.gcOrphaned(pods, new Set(nodes.keys()));
    await this.deleteAll('unscheduled-terminating', unscheduledTerminating(pods), undefined, (n) => `${n} terminating pods never scheduled`);
  }

  private async gcOrphaned(pods: readonly Pod[], existing: ReadonlySet<string>): Promise<void> {
    const now = this.clock.now();
    this.quarantine.observe(pods, existing, now);
    const due = this.quarantine.due(existing, now);
    if (due.length === 0) return;
    const gone = new Set<string>();
    const requests: number[] = [];
    const client = this.client.scoped(undefined, (id) => requests.push(id));
    for (const name of due) {
      try {
        await client.resource<Node>(NODES).get(name);
      } catch (err) {
        // Other errors leave the node for a later pass, as upstream logs and moves on.
        if (isNotFound(err)) gone.add(name);
        else if (!isStatusError(err)) throw err;
      }
    }
    const orphans = pods.filter((p) => gone.has(p.spec?.nodeName ?? ''));
    await this.deleteAll('orphaned', orphans, NODE_GONE_CONDITION, (n) => `${n} pods bound to deleted nodes ${[...gone].sort().join(', ')}`, requests);
  }

  /** markFailedAndDeletePod for each pod, at once; one reconcile record for the lot. */
  private async deleteAll(key: string, pods: readonly Pod[], condition: Condition | undefined, observed: (n: number) => string, requests: number[] = []): Promise<void> {
    if (pods.length === 0) return;
    const client = this.client.scoped(undefined, (id) => requests.push(id));
    const errors = (await Promise.all(pods.map((pod) => this.markFailedAndDelete(client, pod, condition)))).filter((e) => e !== undefined);
    this.trace.emit<ReconcileRecord>({
      type: 'controller.reconcile',
      component: 'pod-garbage-collector',
      controller: 'podgc',
      key,
      trigger: 'resync',
      observed: observed(pods.length),
      requests,
      outcome: errors.length > 0 ? 'error' : 'done',
      error: errors[0],
    });
  }

  private async markFailedAndDelete(client: Client, pod: Pod, condition: Condition | undefined): Promise<string | undefined> {
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const pods = client.resource<Pod>(PODS, namespace);
    try {
      const patch = failedStatusPatch(pod, condition, this.clock.rfc3339());
      if (patch) await pods.patch(name, 'strategic', patch, { subresource: 'status' });
      await pods.delete(name, { gracePeriodSeconds: 0 });
      return undefined;
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return err.message;
    }
  }
}
