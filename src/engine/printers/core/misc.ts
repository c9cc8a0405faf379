/**
 * The core kinds with short printers: namespaces, configmaps, secrets, service accounts, pod
 * templates, replication controllers, component statuses, resource quotas.
 */
import type { KubeObject } from '../../api/types';
import { ageColumn, containersColumn, imagesColumn, nameColumn } from '../common';
import {
  CONFIGMAP_DATA,
  RC_SPEC_REPLICAS,
  RC_SPEC_SELECTOR,
  RC_STATUS_READY_REPLICAS,
  RC_STATUS_REPLICAS,
  SECRET_DATA,
  SECRET_TYPE,
  SERVICE_ACCOUNT_SECRETS,
} from '../descriptions';
import { ageOf, arr, containerCells, formatLabels, int, obj, objs, quantityString, str, strMap } from '../format';
import { column, type Printer } from '../table';
import { own } from '../../api/own';

const nameOf = (o: KubeObject): string => o.metadata.name ?? '';
const count = (v: unknown): number => Object.keys(obj(v)).length;

export const namespacePrinter: Printer = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  cells: (ns, ctx) => [nameOf(ns), str(obj(ns.status).phase), ageOf(ns, ctx.now)],
};

export const configMapPrinter: Printer = {
  columns: [nameColumn, column('Data', 'string', CONFIGMAP_DATA), ageColumn],
  cells: (cm, ctx) => [nameOf(cm), count(cm.data) + count(cm.binaryData), ageOf(cm, ctx.now)],
};

export const secretPrinter: Printer = {
  columns: [nameColumn, column('Type', 'string', SECRET_TYPE), column('Data', 'string', SECRET_DATA), ageColumn],
  cells: (s, ctx) => [nameOf(s), str(s.type), count(s.data), ageOf(s, ctx.now)],
};

export const serviceAccountPrinter: Printer = {
  columns: [nameColumn, column('Secrets', 'string', SERVICE_ACCOUNT_SECRETS), ageColumn],
  cells: (sa, ctx) => [nameOf(sa), arr(sa.secrets).length, ageOf(sa, ctx.now)],
};

export const podTemplatePrinter: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells(t) {
    const template = obj(t.template);
    const [names, images] = containerCells(template.spec);
    return [nameOf(t), names, images, formatLabels(strMap(obj(template.metadata).labels))];
  },
};

export const replicationControllerPrinter: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', RC_SPEC_REPLICAS),
    column('Current', 'integer', RC_STATUS_REPLICAS),
    column('Ready', 'integer', RC_STATUS_READY_REPLICAS),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', RC_SPEC_SELECTOR, { priority: 1 }),
  ],
  cells(rc, ctx) {
    const spec = obj(rc.spec);
    const status = obj(rc.status);
    const [names, images] = containerCells(obj(spec.template).spec);
    return [nameOf(rc), int(spec.replicas), int(status.replicas), int(status.readyReplicas), ageOf(rc, ctx.now), names, images, formatLabels(strMap(spec.selector))];
  },
};

export const componentStatusPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells(cs) {
    const healthy = objs(cs.conditions).find((c) => c.type === 'Healthy');
    const status = healthy ? (healthy.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown';
    return [nameOf(cs), status, str(healthy?.message), str(healthy?.error)];
  },
};

/** The quota's used/hard pairs by resource name, limits.* apart from the rest. */
function resourceQuotaColumns(rq: KubeObject): [string, string] {
  const status = obj(rq.status);
  const hard = obj(status.hard);
  const used = obj(status.used);
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const text = `${resource}: ${quantityString(own(used, resource))}/${quantityString(hard[resource])}`;
    const pieces = resource.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(text);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const resourceQuotaPrinter: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(rq, ctx) {
    const [requests, limits] = resourceQuotaColumns(rq);
    return [nameOf(rq), ageOf(rq, ctx.now), requests, limits];
  },
};
