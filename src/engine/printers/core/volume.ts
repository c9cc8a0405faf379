/** kubectl get pv and pvc. */
import type { KubeObject } from '../../api/types';
import { ageColumn, nameColumn } from '../common';
import {
  PV_ACCESS_MODES,
  PV_CAPACITY,
  PV_CLAIM_REF,
  PV_PHASE,
  PV_REASON,
  PV_RECLAIM_POLICY,
  PV_VOLUME_MODE,
  PVC_ACCESS_MODES,
  PVC_CAPACITY,
  PVC_PHASE,
  PVC_VOLUME_MODE,
  PVC_VOLUME_NAME,
} from '../descriptions';
import { ageOf, arr, obj, quantityString, str } from '../format';
import { column, type Printer } from '../table';

const ACCESS_MODE_ABBREVIATIONS: ReadonlyArray<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** kubectl's storage util GetAccessModesAsString: "RWO,ROX" in a fixed order, without duplicates. */
export function accessModesString(modes: unknown): string {
  const present = new Set(arr(modes).map(str));
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => present.has(mode))
    .map(([, short]) => short)
    .join(',');
}

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** The class from the beta annotation, else spec.storageClassName. */
function storageClass(o: KubeObject): string {
  const annotation = o.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  return annotation ?? str(obj(o.spec).storageClassName);
}

const unsetOr = (v: unknown): string => (typeof v === 'string' ? v : '<unset>');

export const persistentVolumePrinter: Printer = {
  columns: [
    nameColumn,
    column('Capacity', 'string', PV_CAPACITY),
    column('Access Modes', 'string', PV_ACCESS_MODES),
    column('Reclaim Policy', 'string', PV_RECLAIM_POLICY),
    column('Status', 'string', PV_PHASE),
    column('Claim', 'string', PV_CLAIM_REF),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', PV_REASON),
    ageColumn,
    column('VolumeMode', 'string', PV_VOLUME_MODE, { priority: 1 }),
  ],
  cells(pv, ctx) {
    const spec = obj(pv.spec);
    const status = obj(pv.status);
    const claimRef = spec.claimRef === undefined || spec.claimRef === null ? undefined : obj(spec.claimRef);
    const phase = pv.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
    return [
      pv.metadata.name ?? '',
      quantityString(obj(spec.capacity).storage),
      accessModesString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phase,
      claimRef ? `${str(claimRef.namespace)}/${str(claimRef.name)}` : '',
      storageClass(pv),
      unsetOr(spec.volumeAttributesClassName),
      str(status.reason),
      ageOf(pv, ctx.now),
      unsetOr(spec.volumeMode),
    ];
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', PVC_PHASE),
    column('Volume', 'string', PVC_VOLUME_NAME),
    column('Capacity', 'string', PVC_CAPACITY),
    column('Access Modes', 'string', PVC_ACCESS_MODES),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    column('VolumeMode', 'string', PVC_VOLUME_MODE, { priority: 1 }),
  ],
  cells(pvc, ctx) {
    const spec = obj(pvc.spec);
    const status = obj(pvc.status);
    const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
    const bound = str(spec.volumeName) !== '';
    return [
      pvc.metadata.name ?? '',
      phase,
      str(spec.volumeName),
      bound ? quantityString(obj(status.capacity).storage) : '',
      bound ? accessModesString(status.accessModes) : '',
      storageClass(pvc),
      unsetOr(spec.volumeAttributesClassName),
      ageOf(pvc, ctx.now),
      unsetOr(spec.volumeMode),
    ];
  },
};
