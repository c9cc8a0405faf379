/** EndpointSlice ports: an unnamed port is written with name "", protocol defaults to TCP. */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, objectsIn } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultEndpointSlice(slice: JsonObject): void {
  for (const port of objectsIn(slice, 'ports')) {
    defaultNil(port, 'name', '');
    defaultNil(port, 'protocol', 'TCP');
  }
}

registerDefaulter('discovery.k8s.io', 'EndpointSlice', jsonDefaulter(defaultEndpointSlice));
