/** PersistentVolumeClaim defaults; StatefulSet claim templates get exactly these too. */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPersistentVolumeClaimSpec } from './persistent-volume-claim-spec';
import { defaultResourceList } from './resource-list';

export function defaultPersistentVolumeClaim(pvc: JsonObject): void {
  const status = structAt(pvc, 'status');
  if (status) {
    defaultEmptyString(status, 'phase', 'Pending');
    defaultResourceList(status, 'capacity');
    defaultResourceList(status, 'allocatedResources');
  }
  defaultPersistentVolumeClaimSpec(pvc);
}

registerDefaulter('', 'PersistentVolumeClaim', jsonDefaulter(defaultPersistentVolumeClaim));
