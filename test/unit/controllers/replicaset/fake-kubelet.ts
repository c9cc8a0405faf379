/**
 * The scheduler and kubelets as controller scenario tests need them: every new pod is bound to
 * a node (round robin), reported Running and Ready after a delay, and removed a while after its
 * graceful deletion starts. Writes go through the API as the admin user.
 */
import type { Client } from '../../../../src/engine/client/client';
import { SharedInformerFactory, type SharedIndexInformer } from '../../../../src/engine/client/informer';
import { PODS } from '../../../../src/engine/client/resources';
import type { Clock } from '../../../../src/engine/clock';
import type { Pod } from '../../../../src/engine/controllers/util/types/workload';
import { Random } from '../../../../src/engine/random';

export interface FakeKubeletOptions {
  nodes?: string[];
  /** From creation to Ready (ms); undefined: never ready. */
  readyAfterMs?: number | ((pod: Pod) => number | undefined);
  /** From the start of a graceful deletion to the pod being gone (ms). */
  terminateAfterMs?: number;
}

export class FakeKubelet {
  readonly informer: SharedIndexInformer<Pod>;
  private readonly factory: SharedInformerFactory;
  private next = 0;

  constructor(
    private readonly admin: Client,
    private readonly clock: Clock,
    private readonly options: FakeKubeletOptions = {},
  ) {
    this.factory = new SharedInformerFactory({ client: admin, clock, random: new Random('kubelet'), component: 'kubelet' });
    this.informer = this.factory.informerFor<Pod>(PODS);
    this.informer.addEventHandler({
      onAdd: (pod) => this.started(pod),
      onUpdate: (old, pod) => {
        if (!old.metadata.deletionTimestamp && pod.metadata.deletionTimestamp) this.terminating(pod);
      },
    });
    this.factory.start();
  }

  stop(): void {
    this.factory.shutdown();
  }

  private started(pod: Pod): void {
    if (pod.metadata.deletionTimestamp || pod.spec?.nodeName) return;
    const nodes = this.options.nodes ?? ['node-a', 'node-b', 'node-c'];
    const node = nodes[this.next++ % nodes.length]!;
    const pods = this.admin.resource<Pod>(PODS, pod.metadata.namespace);
    const name = pod.metadata.name ?? '';
    this.clock.queueTask(async () => {
      await pods.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: pod.metadata.namespace }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
      const ready = typeof this.options.readyAfterMs === 'function' ? this.options.readyAfterMs(pod) : (this.options.readyAfterMs ?? 0);
      if (ready === undefined) return;
      this.clock.setTimer(ready, () => this.markReady(pods, name), { label: `fake kubelet: ${name} ready` });
    });
  }

  private async markReady(pods: ReturnType<Client['resource']>, name: string): Promise<void> {
    const current = this.informer.indexer.getByName(pods.namespace ?? '', name);
    if (!current || current.metadata.deletionTimestamp) return;
    const now = this.clock.rfc3339();
    const status = {
      ...current.status,
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: now },
        { type: 'Ready', status: 'True', lastTransitionTime: now },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: now },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      ],
    };
    await pods.updateStatus({ ...current, status });
  }

  private terminating(pod: Pod): void {
    const pods = this.admin.resource<Pod>(PODS, pod.metadata.namespace);
    this.clock.setTimer(
      this.options.terminateAfterMs ?? 0,
      async () => {
        await pods.delete(pod.metadata.name ?? '', { gracePeriodSeconds: 0 }).catch(() => undefined);
      },
      { label: `fake kubelet: ${pod.metadata.name ?? ''} terminated` },
    );
  }
}
