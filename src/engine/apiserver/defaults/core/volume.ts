/**
 * Pod volume defaults: a volume naming no source is an emptyDir; file modes default to 0644
 * (420); projected service account tokens live an hour; image volumes get a pull policy the way
 * containers do; ephemeral claim templates get claim-spec defaults.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isEmptyString, isNil, objectAt, objectsIn } from '../fields';
import { defaultObjectFieldSelector } from './container';
import { defaultPullPolicy } from './image-pull-policy';
import { defaultPersistentVolumeClaimSpec } from './persistent-volume-claim-spec';
import { defaultAzureDisk, defaultHostPath, defaultISCSI, defaultRBD, defaultScaleIO } from './volume-sources';
import { own } from '../../../api/own';

const defaultFileMode = 0o644;
const tokenExpirationSeconds = 3600;

/** Every field of VolumeSource (all pointers): a volume setting none of them is an emptyDir. */
const volumeSourceFields = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'configMap', 'csi',
  'downwardAPI', 'emptyDir', 'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk',
  'gitRepo', 'glusterfs', 'hostPath', 'image', 'iscsi', 'nfs', 'persistentVolumeClaim',
  'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'scaleIO', 'secret',
  'storageos', 'vsphereVolume',
];

export function defaultVolume(volume: JsonObject): void {
  if (volumeSourceFields.every((f) => isNil(own(volume, f)))) volume.emptyDir = {};
  const image = objectAt(volume, 'image');
  if (image && isEmptyString(image.pullPolicy)) {
    image.pullPolicy = defaultPullPolicy(typeof image.reference === 'string' ? image.reference : '');
  }
  const at = (key: string) => objectAt(volume, key);
  const hostPath = at('hostPath');
  if (hostPath) defaultHostPath(hostPath);
  const secret = at('secret');
  if (secret) defaultNil(secret, 'defaultMode', defaultFileMode);
  const iscsi = at('iscsi');
  if (iscsi) defaultISCSI(iscsi);
  const rbd = at('rbd');
  if (rbd) defaultRBD(rbd);
  const downwardAPI = at('downwardAPI');
  if (downwardAPI) {
    defaultNil(downwardAPI, 'defaultMode', defaultFileMode);
    defaultDownwardAPIItems(downwardAPI);
  }
  const configMap = at('configMap');
  if (configMap) defaultNil(configMap, 'defaultMode', defaultFileMode);
  const azureDisk = at('azureDisk');
  if (azureDisk) defaultAzureDisk(azureDisk);
  const projected = at('projected');
  if (projected) defaultProjected(projected);
  const scaleIO = at('scaleIO');
  if (scaleIO) defaultScaleIO(scaleIO);
  const ephemeral = at('ephemeral');
  const claimTemplate = ephemeral && objectAt(ephemeral, 'volumeClaimTemplate');
  if (claimTemplate) defaultPersistentVolumeClaimSpec(claimTemplate);
}

function defaultDownwardAPIItems(source: JsonObject): void {
  for (const item of objectsIn(source, 'items')) {
    const fieldRef = objectAt(item, 'fieldRef');
    if (fieldRef) defaultObjectFieldSelector(fieldRef);
  }
}

function defaultProjected(projected: JsonObject): void {
  defaultNil(projected, 'defaultMode', defaultFileMode);
  for (const source of objectsIn(projected, 'sources')) {
    const downwardAPI = objectAt(source, 'downwardAPI');
    if (downwardAPI) defaultDownwardAPIItems(downwardAPI);
    const token = objectAt(source, 'serviceAccountToken');
    if (token) defaultNil(token, 'expirationSeconds', tokenExpirationSeconds);
  }
}
