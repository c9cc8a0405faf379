/** What the Endpoints and EndpointSlice controllers both ask of a Service. */
import type { Service } from '../types/endpoint';

/** IsServiceIPSet: the Service has a cluster IP (it is neither headless nor still unallocated). */
export function isServiceIPSet(service: Service): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip !== 'None' && ip !== '';
}
