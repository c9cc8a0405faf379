/**
 * kubectl get storageclasses, volumeattachments, csidrivers, csinodes, csistoragecapacities,
 * volumeattributesclasses.
 */
import { ageColumn, nameColumn } from './common';
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
import { ageOf, arr, obj, objs, quantityString, str } from './format';
import { column, type Printer } from './table';
import { own } from '../api/own';

const boolOr = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const storageClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', STORAGE_CLASS_PROVISIONER),
    column('ReclaimPolicy', 'string', STORAGE_CLASS_RECLAIM_POLICY),
    column('VolumeBindingMode', 'string', STORAGE_CLASS_BINDING_MODE),
    column('AllowVolumeExpansion', 'string', STORAGE_CLASS_EXPANSION),
    ageColumn,
  ],
  cells(sc, ctx) {
    const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((a) => own(sc.metadata.annotations, a) === 'true');
    return [
      (sc.metadata.name ?? '') + (isDefault ? ' (default)' : ''),
      str(sc.provisioner),
      str(sc.reclaimPolicy) || 'Delete',
      str(sc.volumeBindingMode) || 'Immediate',
      boolOr(sc.allowVolumeExpansion, false),
      ageOf(sc, ctx.now),
    ];
  },
};

export const volumeAttachmentPrinter: Printer = {
  columns: [
    nameColumn,
    column('Attacher', 'string', VA_ATTACHER, { format: 'name' }),
    column('PV', 'string', VA_PV),
    column('Node', 'string', VA_NODE),
    column('Attached', 'boolean', VA_ATTACHED),
    ageColumn,
  ],
  cells(va, ctx) {
    const spec = obj(va.spec);
    return [va.metadata.name ?? '', str(spec.attacher), str(obj(spec.source).persistentVolumeName), str(spec.nodeName), obj(va.status).attached === true, ageOf(va, ctx.now)];
  },
};

export const csiDriverPrinter: Printer = {
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', CSI_DRIVER_ATTACH_REQUIRED),
    column('PodInfoOnMount', 'boolean', CSI_DRIVER_POD_INFO),
    column('StorageCapacity', 'boolean', CSI_DRIVER_STORAGE_CAPACITY),
    column('TokenRequests', 'string', CSI_DRIVER_TOKEN_REQUESTS),
    column('RequiresRepublish', 'boolean', CSI_DRIVER_REPUBLISH),
    column('Modes', 'string', CSI_DRIVER_MODES),
    ageColumn,
  ],
  cells(d, ctx) {
    const spec = obj(d.spec);
    const tokens = Array.isArray(spec.tokenRequests) ? objs(spec.tokenRequests).map((t) => str(t.audience)).join(',') : '<unset>';
    const modes = arr(spec.volumeLifecycleModes).map(str).join(',') || '<none>';
    return [
      d.metadata.name ?? '',
      boolOr(spec.attachRequired, true),
      boolOr(spec.podInfoOnMount, false),
      boolOr(spec.storageCapacity, false),
      tokens,
      boolOr(spec.requiresRepublish, false),
      modes,
      ageOf(d, ctx.now),
    ];
  },
};

export const csiNodePrinter: Printer = {
  columns: [nameColumn, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), ageColumn],
  cells: (n, ctx) => [n.metadata.name ?? '', arr(obj(n.spec).drivers).length, ageOf(n, ctx.now)],
};

export const csiStorageCapacityPrinter: Printer = {
  columns: [nameColumn, column('StorageClassName', 'string', CSI_CAPACITY_CLASS), column('Capacity', 'string', CSI_CAPACITY_CAPACITY)],
  cells: (c) => [c.metadata.name ?? '', str(c.storageClassName), c.capacity === undefined || c.capacity === null ? '<unset>' : quantityString(c.capacity)],
};

export const volumeAttributesClassPrinter: Printer = {
  columns: [nameColumn, column('DriverName', 'string', VAC_DRIVER), ageColumn],
  cells: (v, ctx) => [v.metadata.name ?? '', str(v.driverName), ageOf(v, ctx.now)],
};
