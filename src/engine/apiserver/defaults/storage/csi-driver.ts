/** CSIDriver defaults (the gates that once guarded some of them are GA or on in 1.35). */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isEmpty, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultCSIDriver(driver: JsonObject): void {
  const spec = structAt(driver, 'spec');
  if (!spec) return;
  defaultNil(spec, 'attachRequired', true);
  defaultNil(spec, 'podInfoOnMount', false);
  defaultNil(spec, 'storageCapacity', false);
  defaultNil(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (isEmpty(spec.volumeLifecycleModes)) spec.volumeLifecycleModes = ['Persistent'];
  defaultNil(spec, 'requiresRepublish', false);
  defaultNil(spec, 'seLinuxMount', false);
}

registerDefaulter('storage.k8s.io', 'CSIDriver', jsonDefaulter(defaultCSIDriver));
