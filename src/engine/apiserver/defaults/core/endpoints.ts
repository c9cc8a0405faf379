import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, jsonDefaulter, objectsIn } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultEndpoints(endpoints: JsonObject): void {
  for (const subset of objectsIn(endpoints, 'subsets')) {
    for (const port of objectsIn(subset, 'ports')) defaultEmptyString(port, 'protocol', 'TCP');
  }
}

registerDefaulter('', 'Endpoints', jsonDefaulter(defaultEndpoints));
