/** PersistentVolume defaults: Retain, Filesystem, phase Pending, and its volume sources' defaults. */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, jsonDefaulter, objectAt, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultResourceList } from './resource-list';
import { defaultAzureDisk, defaultHostPath, defaultISCSI, defaultRBD, defaultScaleIO } from './volume-sources';

const sourceDefaulters: ReadonlyArray<[string, (source: JsonObject) => void]> = [
  ['hostPath', defaultHostPath],
  ['rbd', defaultRBD],
  ['iscsi', defaultISCSI],
  ['azureDisk', defaultAzureDisk],
  ['scaleIO', defaultScaleIO],
];

export function defaultPersistentVolume(pv: JsonObject): void {
  const status = structAt(pv, 'status');
  if (status) defaultEmptyString(status, 'phase', 'Pending');
  const spec = structAt(pv, 'spec');
  if (!spec) return;
  defaultEmptyString(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  defaultNil(spec, 'volumeMode', 'Filesystem');
  defaultResourceList(spec, 'capacity');
  for (const [key, defaulter] of sourceDefaulters) {
    const source = objectAt(spec, key);
    if (source) defaulter(source);
  }
}

registerDefaulter('', 'PersistentVolume', jsonDefaulter(defaultPersistentVolume));
