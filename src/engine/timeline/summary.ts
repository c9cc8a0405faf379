/**
 * What the cluster holds at the end of a run, as `kubectl get deployments,replicasets,services,
 * endpointslices` and `kubectl get pods -o wide` print it: kube-apiserver's server-side Tables
 * laid out by kubectl's text printer, names prefixed with their kind as kubectl does when it
 * prints several kinds, and a NAMESPACE column (-A) once anything outside "default" is shown.
 */
import { StatusError, type Status } from '../api/status';
import type { GroupVersionResource, KubeObject } from '../api/types';
import type { Client } from '../client/client';
import { DEPLOYMENTS, ENDPOINTSLICES, PODS, REPLICASETS, SERVICES } from '../client/resources';
import { printerFor, printTable, renderTable } from '../printers';

interface SummaryKind {
  gvr: GroupVersionResource;
  /** kubectl's kind prefix: deployment.apps, pod. */
  prefix: string;
  wide: boolean;
}

const KINDS: readonly SummaryKind[] = [
  { gvr: DEPLOYMENTS, prefix: 'deployment.apps', wide: false },
  { gvr: REPLICASETS, prefix: 'replicaset.apps', wide: false },
  { gvr: PODS, prefix: 'pod', wide: true },
  { gvr: SERVICES, prefix: 'service', wide: false },
  { gvr: ENDPOINTSLICES, prefix: 'endpointslice.discovery.k8s.io', wide: false },
];

export interface SummaryObjects {
  kind: SummaryKind;
  items: KubeObject[];
  /** The API server's answer when the list failed (with etcd's quorum lost, `etcdserver: request timed out`). */
  error?: Status;
}

/**
 * The objects the summary shows, from every namespace, as the admin lists them. A list the API
 * server refuses is kept as its Status, as `kubectl get` reports it and goes on to the next kind.
 */
export async function summaryObjects(client: Client): Promise<SummaryObjects[]> {
  const out: SummaryObjects[] = [];
  for (const kind of KINDS) {
    try {
      out.push({ kind, items: (await client.resource(kind.gvr).list()).items });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      out.push({ kind, items: [], error: err.status });
    }
  }
  return out;
}

export function formatSummary(groups: readonly SummaryObjects[], now: number): string {
  const withNamespace = groups.some((g) => g.items.some((o) => (o.metadata.namespace ?? '') !== 'default'));
  const tables: string[] = [];
  for (const { kind, items } of groups) {
    if (items.length === 0) continue;
    const table = printTable(printerFor(kind.gvr.group, kind.gvr.resource), items, now);
    for (const row of table.rows) row.cells[0] = `${kind.prefix}/${String(row.cells[0])}`;
    tables.push(renderTable(table, { wide: kind.wide, withNamespace }));
  }
  return tables.length > 0 ? tables.join('\n') : 'No resources found\n';
}
