/** StorageClass defaults: dynamically provisioned volumes are deleted with their claim and bound at once. */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultStorageClass(storageClass: JsonObject): void {
  defaultNil(storageClass, 'reclaimPolicy', 'Delete');
  defaultNil(storageClass, 'volumeBindingMode', 'Immediate');
}

registerDefaulter('storage.k8s.io', 'StorageClass', jsonDefaulter(defaultStorageClass));
