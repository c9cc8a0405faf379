/**
 * Server-side printing: `printTable` turns objects into the meta.k8s.io/v1 Table that
 * kube-apiserver returns for kubectl get, with each resource's own columns (pkg/printers/
 * internalversion) or the default NAME / CREATED AT; `renderTable` lays a Table out as
 * kubectl prints it.
 */
import { groupResourceKey } from '../api/registry';
import type { KubeObject } from '../api/types';
import { controllerRevisionPrinter, daemonSetPrinter, deploymentPrinter, replicaSetPrinter, statefulSetPrinter } from './apps';
import { cronJobPrinter, jobPrinter } from './batch';
import {
  apiServicePrinter,
  endpointSlicePrinter,
  leasePrinter,
  priorityClassPrinter,
  validatingAdmissionPolicyBindingPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from './cluster';
import { AGE, NAME, nameColumn } from './common';
import { coreEventOf, eventPrinter } from './core/event';
import {
  componentStatusPrinter,
  configMapPrinter,
  namespacePrinter,
  podTemplatePrinter,
  replicationControllerPrinter,
  resourceQuotaPrinter,
  secretPrinter,
  serviceAccountPrinter,
} from './core/misc';
import { nodePrinter } from './core/node';
import { podPrinter } from './core/pod';
import { endpointsPrinter, servicePrinter } from './core/service';
import { persistentVolumeClaimPrinter, persistentVolumePrinter } from './core/volume';
import { OBJECT_CREATION_TIMESTAMP, SCALE_SPEC_REPLICAS, SCALE_STATUS_REPLICAS } from './descriptions';
import { int } from './format';
import { ingressClassPrinter, ingressPrinter, ipAddressPrinter, networkPolicyPrinter, serviceCIDRPrinter } from './networking';
import { nodeMetricsPrinter, podMetricsPrinter } from './metrics';
import { horizontalPodAutoscalerPrinter, podDisruptionBudgetPrinter } from './policy';
import { clusterRoleBindingPrinter, roleBindingPrinter } from './rbac';
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
  volumeAttributesClassPrinter,
} from './storage';
import { col, column, rowObject, tablePrinter, type IncludeObject, type Printer, type Table, type TableRow } from './table';

const eventsV1Printer: Printer = { ...eventPrinter, cells: (ev, ctx) => eventPrinter.cells(coreEventOf(ev), ctx) };

/** The printers kube-apiserver registers, by group and resource. */
const PRINTERS: ReadonlyMap<string, Printer> = new Map<string, Printer>([
  ['pods', podPrinter],
  ['podtemplates', podTemplatePrinter],
  ['replicationcontrollers', replicationControllerPrinter],
  ['services', servicePrinter],
  ['endpoints', endpointsPrinter],
  ['nodes', nodePrinter],
  ['events', eventPrinter],
  ['namespaces', namespacePrinter],
  ['secrets', secretPrinter],
  ['serviceaccounts', serviceAccountPrinter],
  ['persistentvolumes', persistentVolumePrinter],
  ['persistentvolumeclaims', persistentVolumeClaimPrinter],
  ['componentstatuses', componentStatusPrinter],
  ['configmaps', configMapPrinter],
  ['resourcequotas', resourceQuotaPrinter],
  ['deployments.apps', deploymentPrinter],
  ['replicasets.apps', replicaSetPrinter],
  ['daemonsets.apps', daemonSetPrinter],
  ['statefulsets.apps', statefulSetPrinter],
  ['controllerrevisions.apps', controllerRevisionPrinter],
  ['jobs.batch', jobPrinter],
  ['cronjobs.batch', cronJobPrinter],
  ['events.events.k8s.io', eventsV1Printer],
  ['poddisruptionbudgets.policy', podDisruptionBudgetPrinter],
  ['horizontalpodautoscalers.autoscaling', horizontalPodAutoscalerPrinter],
  ['ingresses.networking.k8s.io', ingressPrinter],
  ['ingressclasses.networking.k8s.io', ingressClassPrinter],
  ['networkpolicies.networking.k8s.io', networkPolicyPrinter],
  ['servicecidrs.networking.k8s.io', serviceCIDRPrinter],
  ['ipaddresses.networking.k8s.io', ipAddressPrinter],
  ['rolebindings.rbac.authorization.k8s.io', roleBindingPrinter],
  ['clusterrolebindings.rbac.authorization.k8s.io', clusterRoleBindingPrinter],
  ['storageclasses.storage.k8s.io', storageClassPrinter],
  ['volumeattachments.storage.k8s.io', volumeAttachmentPrinter],
  ['csidrivers.storage.k8s.io', csiDriverPrinter],
  ['csinodes.storage.k8s.io', csiNodePrinter],
  ['csistoragecapacities.storage.k8s.io', csiStorageCapacityPrinter],
  ['volumeattributesclasses.storage.k8s.io', volumeAttributesClassPrinter],
  ['priorityclasses.scheduling.k8s.io', priorityClassPrinter],
  ['leases.coordination.k8s.io', leasePrinter],
  ['endpointslices.discovery.k8s.io', endpointSlicePrinter],
  ['mutatingwebhookconfigurations.admissionregistration.k8s.io', webhookConfigurationPrinter],
  ['validatingwebhookconfigurations.admissionregistration.k8s.io', webhookConfigurationPrinter],
  ['validatingadmissionpolicies.admissionregistration.k8s.io', validatingAdmissionPolicyPrinter],
  ['validatingadmissionpolicybindings.admissionregistration.k8s.io', validatingAdmissionPolicyBindingPrinter],
  // metrics-server's, through the aggregator.
  ['pods.metrics.k8s.io', podMetricsPrinter],
  ['nodes.metrics.k8s.io', nodeMetricsPrinter],
  ['apiservices.apiregistration.k8s.io', apiServicePrinter],
]);

/** rest.DefaultTableConvertor: NAME and CREATED AT (RFC 3339), for kinds without a printer. */
export const defaultPrinter: Printer = tablePrinter([
  NAME,
  col('Created At', 'date', OBJECT_CREATION_TIMESTAMP, (r) => (typeof r.object.metadata.creationTimestamp === 'string' ? r.object.metadata.creationTimestamp : '0001-01-01T00:00:00Z')),
]);

/** The autoscaling/v1 Scale of a scale subresource. */
export const scalePrinter: Printer = tablePrinter([
  // Without the "name" format the other NAME columns have.
  { definition: column('Name', 'string', nameColumn.description), cell: NAME.cell },
  col('Desired', 'integer', SCALE_SPEC_REPLICAS, (r) => int(r.spec.replicas)),
  col('Available', 'integer', SCALE_STATUS_REPLICAS, (r) => int(r.status.replicas)),
  AGE,
]);

/** The built-in printer of a resource, or the default one. */
export function printerFor(group: string, resource: string): Printer {
  return PRINTERS.get(groupResourceKey(group, resource)) ?? defaultPrinter;
}

export interface PrintOptions {
  /** Leave out the column definitions (TableOptions.noHeaders; watch events after the first). */
  noHeaders?: boolean;
  /** What each row carries; default Metadata, as kube-apiserver's. */
  includeObject?: IncludeObject;
  /** The list's metadata (resourceVersion, continue, remainingItemCount). */
  listMeta?: Table['metadata'];
}

/** The Table of objects printed by `printer` at virtual time `now` (ms). */
export function printTable(printer: Printer, objects: readonly KubeObject[], now: number, options: PrintOptions = {}): Table {
  const include = options.includeObject ?? 'Metadata';
  const rows: TableRow[] = objects.map((o) => {
    const row: TableRow = { cells: printer.cells(o, { now }), object: rowObject(o, include) };
    const conditions = printer.conditions?.(o);
    if (conditions) row.conditions = conditions;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: options.listMeta ?? {},
    columnDefinitions: options.noHeaders ? null : [...printer.columns],
    rows,
  };
}

export { customResourcePrinter, type PrinterColumn } from './custom-resource';
export { renderTable, type RenderOptions } from './text';
export { humanDuration, shortHumanDuration } from './duration';
export type { Cell, IncludeObject, Printer, Table, TableColumnDefinition, TableRow } from './table';
