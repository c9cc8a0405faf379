/**
 * What in the trace is the cluster's pulse rather than its story, in one place for every view
 * (the CLI timeline, the panel's filters, Step to next change):
 *
 * - heartbeats: Lease renewals and the kubelets' Node status updates (Kubernetes' two kinds of
 *   node heartbeat), and the control loops' reactions to them that changed nothing;
 * - Events: the writes of Event objects (core/v1 and events.k8s.io) and their records;
 * - reads: get, list and watch requests and discovery.
 *
 * Each is a fact about the record (its resource, its verb, its writer, what its write changed),
 * never a guess. `lookup` finds a record's cause where the answer depends on it.
 */
import type { ApiRequestRecord } from '../trace/apiserver';
import type { ReconcileRecord } from '../trace/reconcile';
import type { RevisionRecord } from '../trace/revision';
import type { TraceRecord } from '../trace/types';

export type Lookup = (id: number) => TraceRecord | undefined;

const NODE_USER = 'system:node:';
const READ_VERBS = new Set(['get', 'list', 'watch']);
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

function isLease(r: { group: string; resource: string }): boolean {
  return r.group === 'coordination.k8s.io' && r.resource === 'leases';
}

function isEventResource(r: { group: string; resource: string }): boolean {
  return r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');
}

/** A kubelet's write of its own Node's status that changed no condition: a heartbeat. */
function isNodeStatusHeartbeat(r: RevisionRecord): boolean {
  return r.group === '' && r.resource === 'nodes' && r.operation === 'update' && (r.actor?.startsWith(NODE_USER) ?? false) && r.conditions === undefined;
}

export function isHeartbeat(r: TraceRecord, lookup?: Lookup): boolean {
  switch (r.type) {
    case 'api.request':
      if (isLease(r)) return WRITE_VERBS.has(r.verb) || READ_VERBS.has(r.verb);
      // The kubelet's node status updates are heartbeats by definition; the revision one of them
      // wrote is not when it changed a condition (a node back to Ready).
      return r.group === '' && r.resource === 'nodes' && r.user.startsWith(NODE_USER) && r.verb !== 'create';
    case 'store.revision':
      return isLease(r) || isNodeStatusHeartbeat(r);
    case 'controller.reconcile':
      return reactedToHeartbeat(r, lookup);
    default:
      return false;
  }
}

/** A loop that woke up for a heartbeat and sent nothing (the node lifecycle controller's checks). */
function reactedToHeartbeat(r: ReconcileRecord, lookup: Lookup | undefined): boolean {
  if (r.requests.length > 0 || r.outcome === 'error' || r.cause === undefined || !lookup) return false;
  const cause = lookup(r.cause);
  return cause !== undefined && cause.type === 'store.revision' && isHeartbeat(cause, lookup);
}

export function isEvent(r: TraceRecord): boolean {
  switch (r.type) {
    case 'kube.event':
      return true;
    case 'api.request':
    case 'store.revision':
      return isEventResource(r);
    default:
      return false;
  }
}

/** A request that only read: get, list, watch, or a discovery path. */
export function isRead(r: TraceRecord): boolean {
  return r.type === 'api.request' && (READ_VERBS.has(r.verb) || (r.path !== undefined && !r.resource));
}

export function isWriteVerb(verb: string): boolean {
  return WRITE_VERBS.has(verb);
}

/**
 * Which program sent a request, from its User-Agent: the control-plane panel's own reads (time
 * travel), the editor (its informers, its applies), kubectl, or a cluster component.
 */
export type RequestOrigin = 'panel' | 'editor' | 'kubectl' | 'component' | 'other';

export const PANEL_AGENT_SUFFIX = 'control-plane-panel';

export function requestOrigin(r: ApiRequestRecord): RequestOrigin {
  const agent = r.userAgent ?? '';
  if (agent.startsWith('kubesim-vscode/')) return agent.endsWith(`/${PANEL_AGENT_SUFFIX}`) ? 'panel' : 'editor';
  if (agent.startsWith('kubectl/')) return 'kubectl';
  if (r.user.startsWith('system:')) return 'component';
  return 'other';
}

/** The panel's own requests: never shown as something the user did. */
export function isPanelRequest(r: TraceRecord): boolean {
  return r.type === 'api.request' && requestOrigin(r) === 'panel';
}
