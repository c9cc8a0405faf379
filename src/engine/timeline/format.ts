/**
 * The timeline: trace records as one line each, in the order they happened, for the CLI and
 * for anyone reading a trace without the panel. Reads like a log of the control plane:
 *
 *     +0.000s  rev 190   admin                          patch deployments.apps default/web
 *     +0.000s            deployment-controller          reconcile default/web (rev 190): ...
 *     +0.000s  rev 193   replicaset-controller          create pods default/web-7dfb948969-nbcqs
 *     +0.000s            kube-scheduler                 schedule pod default/web-... -> kubesim-worker2 (...)
 *
 * A write's request line carries the revision it produced and what etcd stored (the revision
 * record). Reads and watches are left out, and so, unless `all` is set, are the heartbeats
 * (Lease renewals, the kubelets' Node status updates and the checks they trigger: see noise.ts)
 * and the writes of Events, which appear as their own event lines.
 */
import type { TraceRecord } from '../trace/types';
import type { RevisionRecord } from '../trace/revision';
import type { ApiRequestRecord } from '../trace/apiserver';
import { describeRecord, type Described } from './describe';
import { isEvent, isHeartbeat, type Lookup } from './noise';

export interface TimelineOptions {
  /** Include Lease renewals and Event writes. */
  all?: boolean;
}

const ACTOR_WIDTH = 30;

export function formatOffset(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}

/** The cluster's pulse rather than its story; an Event is told by its own line, not its write. */
function background(r: TraceRecord, lookup: Lookup): boolean {
  return isHeartbeat(r, lookup) || (isEvent(r) && r.type !== 'kube.event');
}

function isWrite(r: ApiRequestRecord): boolean {
  if (r.revision !== undefined) return true;
  // Reads are not events in the cluster's story; a read that was refused (403, 410) is.
  return r.code >= 400 && !(r.verb === 'get' && r.code === 404) && r.verb !== 'watch';
}

function describe(record: TraceRecord, stored: ReadonlyMap<number, RevisionRecord>, shown: ReadonlySet<number>, options: TimelineOptions, lookup: Lookup): Described | undefined {
  if (!options.all && background(record, lookup)) return undefined;
  switch (record.type) {
    case 'api.request':
      return isWrite(record) ? describeRecord(record, stored.get(record.id)) : undefined;
    case 'store.revision':
      return record.cause !== undefined && shown.has(record.cause) ? undefined : describeRecord(record);
    case 'store.compaction':
      return undefined;
    default:
      return describeRecord(record);
  }
}

export function formatTimeline(records: Iterable<TraceRecord>, startMs: number, options: TimelineOptions = {}): string[] {
  const list = [...records];
  const byId = new Map(list.map((r) => [r.id, r]));
  const lookup: Lookup = (id) => byId.get(id);
  // The revision each write request produced, so the request's line can say what was stored.
  const stored = new Map<number, RevisionRecord>();
  for (const r of list) if (r.type === 'store.revision' && r.cause !== undefined) stored.set(r.cause, r);
  const shown = new Set<number>();
  for (const r of list) if (r.type === 'api.request' && isWrite(r) && (options.all || !background(r, lookup))) shown.add(r.id);
  const out: string[] = [];
  for (const r of list) {
    const d = describe(r, stored, shown, options, lookup);
    if (!d) continue;
    const at = formatOffset(r.time - startMs).padStart(10);
    const rev = d.revision !== undefined ? `rev ${d.revision}` : '';
    out.push(`${at}  ${rev.padEnd(9)} ${d.actor.padEnd(ACTOR_WIDTH)} ${d.text}`.trimEnd());
  }
  return out;
}
