/** kubectl get pv and pvc. */
import type { KubeObject } from '../../api/types';
import { AGE, NAME } from '../common';
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
import { arr, obj, quantityString, str } from '../format';
import { col, tablePrinter, wide, type Row } from '../table';

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

/** Terminating once deleted, else status.phase. */
const phase = (r: Row): string => (r.object.metadata.deletionTimestamp ? 'Terminating' : str(r.status.phase));

function claim(claimRef: unknown): string {
  if (claimRef === undefined || claimRef === null) return '';
  const ref = obj(claimRef);
  return `${str(ref.namespace)}/${str(ref.name)}`;
}

export const persistentVolumePrinter = tablePrinter([
  NAME,
  col('Capacity', 'string', PV_CAPACITY, (r) => quantityString(obj(r.spec.capacity).storage)),
  col('Access Modes', 'string', PV_ACCESS_MODES, (r) => accessModesString(r.spec.accessModes)),
  col('Reclaim Policy', 'string', PV_RECLAIM_POLICY, (r) => str(r.spec.persistentVolumeReclaimPolicy)),
  col('Status', 'string', PV_PHASE, phase),
  col('Claim', 'string', PV_CLAIM_REF, (r) => claim(r.spec.claimRef)),
  col('StorageClass', 'string', 'StorageClass of the pv', (r) => storageClass(r.object)),
  col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv', (r) => unsetOr(r.spec.volumeAttributesClassName)),
  col('Reason', 'string', PV_REASON, (r) => str(r.status.reason)),
  AGE,
  wide('VolumeMode', 'string', PV_VOLUME_MODE, (r) => unsetOr(r.spec.volumeMode)),
]);

/** Whether the claim is bound to a volume: only then does it show capacity and access modes. */
const bound = (r: Row): boolean => str(r.spec.volumeName) !== '';

export const persistentVolumeClaimPrinter = tablePrinter([
  NAME,
  col('Status', 'string', PVC_PHASE, phase),
  col('Volume', 'string', PVC_VOLUME_NAME, (r) => str(r.spec.volumeName)),
  col('Capacity', 'string', PVC_CAPACITY, (r) => (bound(r) ? quantityString(obj(r.status.capacity).storage) : '')),
  col('Access Modes', 'string', PVC_ACCESS_MODES, (r) => (bound(r) ? accessModesString(r.status.accessModes) : '')),
  col('StorageClass', 'string', 'StorageClass of the pvc', (r) => storageClass(r.object)),
  col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc', (r) => unsetOr(r.spec.volumeAttributesClassName)),
  AGE,
  wide('VolumeMode', 'string', PVC_VOLUME_MODE, (r) => unsetOr(r.spec.volumeMode)),
]);
