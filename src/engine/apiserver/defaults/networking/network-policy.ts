/**
 * NetworkPolicy defaults: a policy naming no policyTypes isolates ingress, and egress too when
 * it has egress rules; ports default to TCP.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isEmpty, jsonDefaulter, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultNetworkPolicy(policy: JsonObject): void {
  const spec = structAt(policy, 'spec');
  if (!spec) return;
  for (const direction of ['ingress', 'egress']) {
    for (const rule of objectsIn(spec, direction)) {
      for (const port of objectsIn(rule, 'ports')) defaultNil(port, 'protocol', 'TCP');
    }
  }
  if (isEmpty(spec.policyTypes)) {
    spec.policyTypes = isEmpty(spec.egress) ? ['Ingress'] : ['Ingress', 'Egress'];
  }
}

registerDefaulter('networking.k8s.io', 'NetworkPolicy', jsonDefaulter(defaultNetworkPolicy));
