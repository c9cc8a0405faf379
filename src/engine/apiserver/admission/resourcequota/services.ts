/**
 * The service evaluator (pkg/quota/v1/evaluator/core/services.go): every Service counts, with
 * its node ports and load balancer as usage (zero for the types that have none). A
 * LoadBalancer that does not allocate node ports is charged only for the ones it names.
 */
import { Quantity } from '../../../api/quantity';
import { isObject } from '../../../api/types';
import type { Evaluator } from './evaluators';
import { quotaScopes } from './scopes';

const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);

export const serviceEvaluator: Evaluator = {
  matchesResource: (n) => SERVICE_RESOURCES.has(n),
  matchesScopes: (quota) => quotaScopes(quota).length === 0,
  usage(svc) {
    const spec = isObject(svc.spec) ? svc.spec : {};
    const ports = Array.isArray(spec.ports) ? spec.ports.filter(isObject) : [];
    let nodePorts = 0;
    let loadBalancers = 0;
    if (spec.type === 'NodePort') nodePorts = ports.length;
    if (spec.type === 'LoadBalancer') {
      nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => typeof p.nodePort === 'number' && p.nodePort !== 0).length : ports.length;
      loadBalancers = 1;
    }
    return new Map([
      ['count/services', Quantity.fromInt(1)],
      ['services', Quantity.fromInt(1)],
      ['services.loadbalancers', Quantity.fromInt(loadBalancers)],
      ['services.nodeports', Quantity.fromInt(nodePorts)],
    ]);
  },
  constraints: () => undefined,
  // A Service's type can change: updates are charged too.
  handles: (op, sub) => (op === 'CREATE' || op === 'UPDATE') && sub === '',
};
