/**
 * The timeline: trace records as one line each, in virtual time, for the CLI and for anyone
 * reading a trace without the panel. Reads like a log of the control plane:
 *   +0.000s  rev 57   kubesim                     create  deployment.apps/web
 *   +0.001s  rev 58   deployment-controller       create  replicaset.apps/web-7d4b9c
 */
import type { TraceRecord } from '../trace/types';
import type { ApiRequestRecord } from '../trace/apiserver';

const SA_PREFIX = 'system:serviceaccount:';
const NODE_PREFIX = 'system:node:';

/** The actor's short name: a controller's service account, a kubelet's node, the scheduler. */
export function actorName(user: string): string {
  if (user.startsWith(SA_PREFIX)) return user.slice(user.lastIndexOf(':') + 1);
  if (user.startsWith(NODE_PREFIX)) return `kubelet/${user.slice(NODE_PREFIX.length)}`;
  if (user === 'system:kube-scheduler') return 'kube-scheduler';
  if (user === 'kubernetes-admin') return 'admin';
  return user;
}

function resourceRef(r: ApiRequestRecord): string {
  const what = r.group ? `${r.resource}.${r.group}` : r.resource;
  const sub = r.subresource ? `/${r.subresource}` : '';
  const ns = r.namespace ? `${r.namespace}/` : '';
  return `${what}${sub} ${ns}${r.name ?? ''}`.trimEnd();
}

export function formatOffset(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}

/** One line for a record, or undefined for records the timeline leaves out (reads). */
export function timelineLine(record: TraceRecord, startMs: number): string | undefined {
  const at = formatOffset(record.time - startMs).padStart(10);
  switch (record.type) {
    case 'api.request': {
      // Reads are not events in the cluster's story; a read that was refused (403, 410) is.
      if (record.revision === undefined && (record.code < 400 || (record.verb === 'get' && record.code === 404))) return undefined;
      const rev = record.revision !== undefined ? `rev ${record.revision}` : 'rev -';
      const outcome = record.code >= 400 ? `  -> ${record.code} ${record.reason ?? ''}: ${record.message ?? ''}` : '';
      return `${at}  ${rev.padEnd(9)} ${actorName(record.user).padEnd(34)} ${record.verb.padEnd(7)} ${resourceRef(record)}${outcome}`;
    }
    default:
      return undefined;
  }
}

export function formatTimeline(records: Iterable<TraceRecord>, startMs: number): string[] {
  const out: string[] = [];
  for (const r of records) {
    const line = timelineLine(r, startMs);
    if (line !== undefined) out.push(line);
  }
  return out;
}
