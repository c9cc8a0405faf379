/**
 * Service defaults. Cluster IPs, IP families and ipFamilyPolicy are not defaults: the REST
 * strategy and the IP allocator set them when the Service is created.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, isEmpty, isNil, jsonDefaulter, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';

const defaultClientIPTimeoutSeconds = 10800;

/** Reachable from outside the cluster: what externalTrafficPolicy applies to. */
function externallyAccessible(spec: JsonObject): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && !isEmpty(spec.externalIPs))
  );
}

export function defaultService(service: JsonObject): void {
  const spec = structAt(service, 'spec');
  if (!spec) return;
  defaultEmptyString(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') defaultClientIPConfig(spec);
  defaultEmptyString(spec, 'type', 'ClusterIP');
  for (const port of objectsIn(spec, 'ports')) {
    defaultEmptyString(port, 'protocol', 'TCP');
    const target = port.targetPort;
    if (isNil(target) || target === 0 || target === '') {
      port.targetPort = typeof port.port === 'number' ? port.port : 0;
    }
  }
  if (externallyAccessible(spec)) defaultEmptyString(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
    defaultNil(spec, 'internalTrafficPolicy', 'Cluster');
  }
  if (spec.type === 'LoadBalancer') {
    defaultNil(spec, 'allocateLoadBalancerNodePorts', true);
    defaultLoadBalancerIPMode(service);
  }
}

/** A ClientIP affinity without a timeout gets the whole config replaced by the 3h default. */
function defaultClientIPConfig(spec: JsonObject): void {
  const config = objectAt(spec, 'sessionAffinityConfig');
  const clientIP = config && objectAt(config, 'clientIP');
  if (!clientIP || isNil(clientIP.timeoutSeconds)) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPTimeoutSeconds } };
  }
}

/** Load balancer ingress points with an IP are VIPs unless the controller says otherwise. */
function defaultLoadBalancerIPMode(service: JsonObject): void {
  const status = objectAt(service, 'status');
  const loadBalancer = status && objectAt(status, 'loadBalancer');
  if (!loadBalancer) return;
  for (const ingress of objectsIn(loadBalancer, 'ingress')) {
    if (typeof ingress.ip === 'string' && ingress.ip !== '' && isNil(ingress.ipMode)) ingress.ipMode = 'VIP';
  }
}

registerDefaulter('', 'Service', jsonDefaulter(defaultService));
