/**
 * What each kind of trace record says in one line of the timeline: who acted and what
 * happened, in words a kubectl user recognises (the request and its resource, the change etcd
 * stored, the scheduler's choice and ranking, the kubelet's step, the Event's reason and message).
 */
import type { SchedulerRecord } from '../scheduler/record';
import type { ApiRequestRecord } from '../trace/apiserver';
import type { EtcdMessageRecord } from '../trace/etcd';
import type { KubeEventRecord } from '../trace/event';
import type { KubeletRecord } from '../trace/kubelet';
import type { ReconcileRecord } from '../trace/reconcile';
import type { RevisionRecord } from '../trace/revision';
import type { TraceRecord } from '../trace/types';
import { actorName } from './actor';

export interface Described {
  /** The etcd revision the record wrote (requests, events), if any. */
  revision?: number;
  actor: string;
  text: string;
}

const ns = (namespace: string | undefined, name: string | undefined): string => `${namespace ? `${namespace}/` : ''}${name ?? ''}`;

function resourceRef(r: { group: string; resource: string; subresource?: string; namespace?: string; name?: string }): string {
  const what = r.group ? `${r.resource}.${r.group}` : r.resource;
  const sub = r.subresource ? `/${r.subresource}` : '';
  return `${what}${sub} ${ns(r.namespace, r.name)}`.trimEnd();
}

/** A request, with what etcd stored for it when it wrote a revision. */
export function describeRequest(r: ApiRequestRecord, stored: RevisionRecord | undefined): Described {
  let text = `${r.verb} ${resourceRef(r)}`;
  if (r.code >= 400) text += ` -> ${r.code} ${r.reason ?? ''}: ${r.message ?? ''}`;
  else if (stored && stored.operation === 'update') text += `: ${stored.change}`;
  else if (stored && stored.operation === 'delete' && r.verb !== 'delete') text += ': deleted';
  return { revision: r.revision, actor: actorName(r.user), text };
}

/** A revision no request line carries (its request is not in the timeline). */
export function describeRevision(r: RevisionRecord): Described {
  const change = r.operation === 'update' ? `: ${r.change}` : '';
  return { revision: r.revision, actor: r.actor ? actorName(r.actor) : 'etcd', text: `${r.operation} ${resourceRef(r)}${change}` };
}

export function describeReconcile(r: ReconcileRecord): Described {
  const why = r.trigger === 'event' && r.revision !== undefined ? `rev ${r.revision}` : r.trigger;
  const seen = r.observed ? `: ${r.observed}` : '';
  let outcome: string;
  if (r.outcome === 'done') outcome = 'done';
  else if (r.outcome === 'requeue-after') outcome = `requeue after ${(r.requeueAfterMs ?? 0) / 1000}s`;
  else outcome = r.dropped ? `error, dropped after ${r.retries} retries: ${r.error ?? ''}` : `error, retry in ${(r.backoffMs ?? 0) / 1000}s: ${r.error ?? ''}`;
  return { actor: r.component, text: `reconcile ${r.key} (${why})${seen} -> ${outcome}` };
}

export function describeScheduling(r: SchedulerRecord): Described {
  const pod = ns(r.pod.namespace, r.pod.name);
  if (r.type === 'scheduler.binding') {
    return { actor: r.component, text: r.outcome === 'bound' ? `bound pod ${pod} to ${r.node}` : `binding pod ${pod} to ${r.node} failed: ${r.message ?? ''}` };
  }
  if (r.outcome !== 'scheduled') return { actor: r.component, text: `schedule pod ${pod} (attempt ${r.attempt}): ${r.message ?? r.outcome}` };
  const ranking = r.ranking.slice(0, 3).map((n) => `${n.node} ${n.score}`).join(', ');
  const fit = `${r.feasibleNodes} of ${r.numAllNodes} nodes fit`;
  return { actor: r.component, text: `schedule pod ${pod} -> ${r.node} (${fit}${ranking ? `; top scores: ${ranking}` : ''})` };
}

export function describeKubelet(r: KubeletRecord): Described {
  const subject = r.pod ? ` ${r.pod}${r.container ? ` ${r.container}` : ''}` : '';
  return { actor: r.component, text: `${r.action}${subject}: ${r.detail}` };
}

export function describeEvent(r: KubeEventRecord): Described {
  const count = r.count > 1 ? ` (x${r.count})` : '';
  return { revision: r.revision, actor: r.component, text: `event ${r.eventType} ${r.reason} ${r.regarding}: ${r.message}${count}` };
}

export function describeEtcdMessage(r: EtcdMessageRecord): Described {
  const what = r.msgType === 'MsgApp' ? ` index ${r.index}, ${r.entries} entries, commit ${r.commit}` : r.msgType === 'MsgAppResp' ? ` index ${r.index}${r.reject ? ' (rejected)' : ''}` : r.reject ? ' (rejected)' : '';
  const why = r.reason ? ` (${r.reason})` : '';
  return { actor: r.from, text: `${r.event} ${r.msgType} to ${r.to} at term ${r.term}${what}${why}` };
}

/** Any record in one line (a request without what it stored; a compaction as etcd's). */
export function describeRecord(r: TraceRecord, stored?: RevisionRecord): Described {
  switch (r.type) {
    case 'api.request':
      return describeRequest(r, stored);
    case 'store.revision':
      return describeRevision(r);
    case 'store.compaction':
      return { revision: r.revision, actor: 'etcd', text: `compacted history below revision ${r.revision}` };
    case 'controller.reconcile':
      return describeReconcile(r);
    case 'scheduler.attempt':
    case 'scheduler.binding':
      return describeScheduling(r);
    case 'kubelet.action':
      return describeKubelet(r);
    case 'kube.event':
      return describeEvent(r);
    case 'etcd.member':
      return { actor: r.member, text: r.detail };
    case 'etcd.request':
      return { actor: 'kube-apiserver', text: `etcd ${r.op} ${r.key} via ${r.member} failed after ${(r.durationMs / 1000).toFixed(3)}s: ${r.error}` };
    case 'etcd.message':
      return describeEtcdMessage(r);
    case 'etcd.maintenance':
      return { actor: 'etcdctl', text: r.detail };
  }
}
