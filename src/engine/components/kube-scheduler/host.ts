/**
 * The scheduler's SchedulerHost over the client runtime: every write is an API request as
 * system:kube-scheduler (the binding subresource, strategic merge patches of pods/status, the
 * preemption victim's DisruptionTarget condition and deletion, events.k8s.io Events from
 * "default-scheduler"); every read is a lister over kube-scheduler's informer caches.
 */
import type { JsonObject, KubeObject } from '../../api/types';
import type { Client } from '../../client/client';
import type { EventsV1Recorder } from '../../client/events';
import type { SharedIndexInformer } from '../../client/informer';
import { PODS } from '../../client/resources';
import type { Pod, PodCondition } from '../../scheduler/api';
import type { ListedObjects, PodStatusUpdate, SchedulerEvent, SchedulerHost, SchedulerListers } from '../../scheduler/host';
import type { SchedulerCauses } from './causes';

/** The informer caches the listers read. */
export type SchedulerCaches = { [K in keyof ListedObjects]: SharedIndexInformer<ListedObjects[K]> };

export class ClientSchedulerHost implements SchedulerHost {
  readonly listers: SchedulerListers;

  constructor(
    private readonly client: Client,
    caches: SchedulerCaches,
    private readonly events: EventsV1Recorder,
    private readonly causes: SchedulerCauses,
  ) {
    this.listers = {
      namespace: (name) => caches.namespaces.indexer.getByName('', name),
      namespaces: () => caches.namespaces.indexer.list(),
      services: (ns) => caches.services.indexer.listNamespace(ns),
      replicaSet: (ns, name) => caches.replicaSets.indexer.getByName(ns, name),
      statefulSet: (ns, name) => caches.statefulSets.indexer.getByName(ns, name),
      replicationController: (ns, name) => caches.replicationControllers.indexer.getByName(ns, name),
      podDisruptionBudgets: () => caches.podDisruptionBudgets.indexer.list(),
      persistentVolumeClaim: (ns, name) => caches.persistentVolumeClaims.indexer.getByName(ns, name),
      persistentVolume: (name) => caches.persistentVolumes.indexer.getByName('', name),
      storageClass: (name) => caches.storageClasses.indexer.getByName('', name),
    };
  }

  /** DefaultBinder: a v1 Binding naming the pod (with its uid) and the node. */
  async bind(pod: Pod, nodeName: string): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    const binding: KubeObject = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { kind: 'Node', name: nodeName } };
    const client = this.client.scoped(this.causes.attemptOf(uid), (request) => this.causes.boundBy(uid, request));
    await client.resource(PODS, namespace).bind(binding);
  }

  /** util.PatchPodStatus: a strategic merge patch of the changed status fields. */
  async updatePodStatus(pod: Pod, update: PodStatusUpdate): Promise<void> {
    const status: JsonObject = {};
    if (update.condition) status.conditions = [update.condition];
    if (update.nominatedNodeName !== undefined) status.nominatedNodeName = update.nominatedNodeName === '' ? null : update.nominatedNodeName;
    await this.patchStatus(pod, status, this.causes.attemptOf(pod.metadata.uid));
  }

  /** Preemption: the victim learns why (DisruptionTarget), then goes with its default grace period. */
  async deletePod(victim: Pod, condition: PodCondition): Promise<void> {
    // The preemptor's attempt record is written right after PostFilter returns: wait for it.
    await Promise.resolve();
    const cause = this.causes.latestAttempt();
    await this.patchStatus(victim, { conditions: [condition] }, cause);
    await this.client.scoped(cause).resource(PODS, victim.metadata.namespace).delete(victim.metadata.name);
  }

  recordEvent(e: SchedulerEvent): void {
    const uid = e.regarding.metadata.uid;
    const cause = e.reason === 'Scheduled' ? this.causes.bindingOf(uid) ?? this.causes.attemptOf(uid) : this.causes.attemptOf(uid);
    this.events.eventf(e.regarding, e.related, e.type, e.reason, e.action, e.note, cause);
  }

  private async patchStatus(pod: Pod, status: JsonObject, cause: number | undefined): Promise<void> {
    await this.client.scoped(cause).resource(PODS, pod.metadata.namespace).patch(pod.metadata.name, 'strategic', { status }, { subresource: 'status' });
  }
}
