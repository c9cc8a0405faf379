/**
 * The core kinds with short printers: namespaces, configmaps, secrets, service accounts, pod
 * templates, replication controllers, component statuses, resource quotas.
 */
import type { JsonObject, KubeObject } from '../../api/types';
import { AGE, CONTAINERS_DESCRIPTION, IMAGES_DESCRIPTION, NAME, replicatedPodsPrinter } from '../common';
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
import { arr, containerCells, findCondition, formatLabels, obj, quantityString, str, strMap } from '../format';
import { col, tablePrinter, type Row } from '../table';
import { own } from '../../api/own';

const count = (v: unknown): number => Object.keys(obj(v)).length;

export const namespacePrinter = tablePrinter([NAME, col('Status', 'string', 'The status of the namespace', (r) => str(r.status.phase)), AGE]);

export const configMapPrinter = tablePrinter([NAME, col('Data', 'string', CONFIGMAP_DATA, (r) => count(r.object.data) + count(r.object.binaryData)), AGE]);

export const secretPrinter = tablePrinter([
  NAME,
  col('Type', 'string', SECRET_TYPE, (r) => str(r.object.type)),
  col('Data', 'string', SECRET_DATA, (r) => count(r.object.data)),
  AGE,
]);

export const serviceAccountPrinter = tablePrinter([NAME, col('Secrets', 'string', SERVICE_ACCOUNT_SECRETS, (r) => arr(r.object.secrets).length), AGE]);

/** The template of a PodTemplate (beside its metadata, not in a spec). */
const template = (r: Row): JsonObject => obj(r.object.template);

export const podTemplatePrinter = tablePrinter([
  NAME,
  col('Containers', 'string', CONTAINERS_DESCRIPTION, (r) => containerCells(template(r).spec)[0]),
  col('Images', 'string', IMAGES_DESCRIPTION, (r) => containerCells(template(r).spec)[1]),
  col('Pod Labels', 'string', 'The labels for the pod template.', (r) => formatLabels(strMap(obj(template(r).metadata).labels))),
]);

export const replicationControllerPrinter = replicatedPodsPrinter(
  { desired: RC_SPEC_REPLICAS, current: RC_STATUS_REPLICAS, ready: RC_STATUS_READY_REPLICAS, selector: RC_SPEC_SELECTOR },
  (spec) => formatLabels(strMap(spec.selector)),
);

/** The Healthy condition of a ComponentStatus. */
const healthy = (r: Row): JsonObject | undefined => findCondition(r.object.conditions, 'Healthy');

export const componentStatusPrinter = tablePrinter([
  NAME,
  col('Status', 'string', 'Status of the component conditions', (r) => {
    const c = healthy(r);
    return c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown';
  }),
  col('Message', 'string', 'Message of the component conditions', (r) => str(healthy(r)?.message)),
  col('Error', 'string', 'Error of the component conditions', (r) => str(healthy(r)?.error)),
]);

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

export const resourceQuotaPrinter = tablePrinter<[string, string]>(
  [
    NAME,
    AGE,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.', (r) => r.view[0]),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', (r) => r.view[1]),
  ],
  { view: resourceQuotaColumns },
);
