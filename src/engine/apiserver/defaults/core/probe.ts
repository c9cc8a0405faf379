/** Probe and handler defaults: the timings kubelet would otherwise assume, and HTTP's scheme. */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, defaultZero, objectAt } from '../fields';

export function defaultProbe(probe: JsonObject): void {
  defaultZero(probe, 'timeoutSeconds', 1);
  defaultZero(probe, 'periodSeconds', 10);
  defaultZero(probe, 'successThreshold', 1);
  defaultZero(probe, 'failureThreshold', 3);
  const httpGet = objectAt(probe, 'httpGet');
  if (httpGet) defaultHTTPGetAction(httpGet);
  const grpc = objectAt(probe, 'grpc');
  if (grpc) defaultGRPCAction(grpc);
}

export function defaultHTTPGetAction(action: JsonObject): void {
  defaultEmptyString(action, 'path', '/');
  defaultEmptyString(action, 'scheme', 'HTTP');
}

/** service carries +default="" and is a pointer, so it shows up as an empty string. */
function defaultGRPCAction(action: JsonObject): void {
  defaultNil(action, 'service', '');
}

/** Lifecycle hooks: only their httpGet handlers have defaults. */
export function defaultLifecycle(lifecycle: JsonObject): void {
  for (const hook of ['postStart', 'preStop']) {
    const handler = objectAt(lifecycle, hook);
    const httpGet = handler && objectAt(handler, 'httpGet');
    if (httpGet) defaultHTTPGetAction(httpGet);
  }
}
