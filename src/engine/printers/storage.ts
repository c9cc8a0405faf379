/**
 * kubectl get storageclasses, volumeattachments, csidrivers, csinodes, csistoragecapacities,
 * volumeattributesclasses.
 */
import type { KubeObject } from '../api/types';
import { AGE, NAME, nameColumn } from './common';
import {
  CSI_CAPACITY_CAPACITY,
  CSI_CAPACITY_CLASS,
  CSI_DRIVER_ATTACH_REQUIRED,
  CSI_DRIVER_MODES,
  CSI_DRIVER_POD_INFO,
  CSI_DRIVER_REPUBLISH,
  CSI_DRIVER_STORAGE_CAPACITY,
  CSI_DRIVER_TOKEN_REQUESTS,
  STORAGE_CLASS_BINDING_MODE,
  STORAGE_CLASS_EXPANSION,
  STORAGE_CLASS_PROVISIONER,
  STORAGE_CLASS_RECLAIM_POLICY,
  VA_ATTACHED,
  VA_ATTACHER,
  VA_NODE,
  VA_PV,
  VAC_DRIVER,
} from './descriptions';
import { arr, obj, objs, quantityString, str } from './format';
import { col, tablePrinter } from './table';
import { own } from '../api/own';

const boolOr = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

/** The name, with " (default)" after the class the cluster defaults to. */
function storageClassName(sc: KubeObject): string {
  const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => own(sc.metadata.annotations, a) === 'true');
  return (sc.metadata.name ?? '') + (isDefault ? ' (default)' : '');
}

export const storageClassPrinter = tablePrinter([
  { definition: nameColumn, cell: (r) => storageClassName(r.object) },
  col('Provisioner', 'string', STORAGE_CLASS_PROVISIONER, (r) => str(r.object.provisioner)),
  col('ReclaimPolicy', 'string', STORAGE_CLASS_RECLAIM_POLICY, (r) => str(r.object.reclaimPolicy) || 'Delete'),
  col('VolumeBindingMode', 'string', STORAGE_CLASS_BINDING_MODE, (r) => str(r.object.volumeBindingMode) || 'Immediate'),
  col('AllowVolumeExpansion', 'string', STORAGE_CLASS_EXPANSION, (r) => boolOr(r.object.allowVolumeExpansion, false)),
  AGE,
]);

export const volumeAttachmentPrinter = tablePrinter([
  NAME,
  col('Attacher', 'string', VA_ATTACHER, (r) => str(r.spec.attacher), { format: 'name' }),
  col('PV', 'string', VA_PV, (r) => str(obj(r.spec.source).persistentVolumeName)),
  col('Node', 'string', VA_NODE, (r) => str(r.spec.nodeName)),
  col('Attached', 'boolean', VA_ATTACHED, (r) => r.status.attached === true),
  AGE,
]);

export const csiDriverPrinter = tablePrinter([
  NAME,
  col('AttachRequired', 'boolean', CSI_DRIVER_ATTACH_REQUIRED, (r) => boolOr(r.spec.attachRequired, true)),
  col('PodInfoOnMount', 'boolean', CSI_DRIVER_POD_INFO, (r) => boolOr(r.spec.podInfoOnMount, false)),
  col('StorageCapacity', 'boolean', CSI_DRIVER_STORAGE_CAPACITY, (r) => boolOr(r.spec.storageCapacity, false)),
  col('TokenRequests', 'string', CSI_DRIVER_TOKEN_REQUESTS, (r) =>
    Array.isArray(r.spec.tokenRequests) ? objs(r.spec.tokenRequests).map((t) => str(t.audience)).join(',') : '<unset>',
  ),
  col('RequiresRepublish', 'boolean', CSI_DRIVER_REPUBLISH, (r) => boolOr(r.spec.requiresRepublish, false)),
  col('Modes', 'string', CSI_DRIVER_MODES, (r) => arr(r.spec.volumeLifecycleModes).map(str).join(',') || '<none>'),
  AGE,
]);

export const csiNodePrinter = tablePrinter([NAME, col('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node', (r) => arr(r.spec.drivers).length), AGE]);

export const csiStorageCapacityPrinter = tablePrinter([
  NAME,
  col('StorageClassName', 'string', CSI_CAPACITY_CLASS, (r) => str(r.object.storageClassName)),
  col('Capacity', 'string', CSI_CAPACITY_CAPACITY, (r) => (r.object.capacity === undefined || r.object.capacity === null ? '<unset>' : quantityString(r.object.capacity))),
]);

export const volumeAttributesClassPrinter = tablePrinter([NAME, col('DriverName', 'string', VAC_DRIVER, (r) => str(r.object.driverName)), AGE]);
