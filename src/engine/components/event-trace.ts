/**
 * Kubernetes Events into the trace: a watch on every namespace's Events (core/v1 and
 * events.k8s.io/v1 share one store, so one watch sees both), as `kubectl get events -w` would,
 * writing a kube.event record for each Event written, caused by the etcd revision of the write.
 */
import { isObject, type JsonObject, type KubeObject } from '../api/types';
import type { Client } from '../client/client';
import { revisionCauses } from '../client/controller/revision-causes';
import { EVENTS } from '../client/resources';
import type { WatchHandle } from '../apiserver/request';
import type { TraceBuffer } from '../trace/buffer';
import type { KubeEventRecord } from '../trace/event';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** The record of an Event object of either API version. */
export function eventRecordDraft(event: KubeObject): Omit<KubeEventRecord, 'id' | 'time' | 'cause'> {
  const v1 = event.apiVersion === 'events.k8s.io/v1';
  const regarding = (isObject(v1 ? event.regarding : event.involvedObject) ? (v1 ? event.regarding : event.involvedObject) : {}) as JsonObject;
  const series = isObject(event.series) ? event.series : undefined;
  const source = isObject(event.source) ? event.source : isObject(event.deprecatedSource) ? event.deprecatedSource : {};
  const count = v1 ? num(series?.count) ?? num(event.deprecatedCount) ?? 1 : num(event.count) ?? num(series?.count) ?? 1;
  const ns = str(regarding.namespace);
  const component = str(event.reportingController) || str(event.reportingComponent) || str(source.component) || 'unknown';
  // A kubelet's events name their node, as its trace records do (kubelet/<node>).
  const host = str(source.host) || (v1 ? '' : str(event.reportingInstance));
  return {
    type: 'kube.event',
    component: component === 'kubelet' && host ? `kubelet/${host}` : component,
    eventType: str(event.type),
    reason: str(event.reason),
    message: v1 ? str(event.note) : str(event.message),
    regarding: `${str(regarding.kind)} ${ns ? `${ns}/` : ''}${str(regarding.name)}`,
    count: Math.max(1, count),
    event: `${event.metadata.namespace ?? ''}/${event.metadata.name ?? ''}`,
    revision: Number(event.metadata.resourceVersion ?? 0),
  };
}

export class EventTrace {
  readonly name = 'event-trace';
  private handle: WatchHandle | undefined;

  constructor(
    private readonly client: Client,
    private readonly trace: TraceBuffer,
  ) {}

  async start(): Promise<void> {
    if (this.handle) return;
    const causes = revisionCauses(this.trace);
    this.handle = await this.client.resource(EVENTS).watch({}, (e) => {
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
      const draft = eventRecordDraft(e.object as KubeObject);
      const cause = causes.causeOf(draft.revision);
      this.trace.emit<KubeEventRecord>({ ...draft, ...(cause !== undefined ? { cause } : {}) });
    });
  }

  stop(): void {
    this.handle?.stop();
    this.handle = undefined;
  }
}
