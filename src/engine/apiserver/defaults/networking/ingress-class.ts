/** IngressClass parameters are cluster-scoped unless they say otherwise. Ingress has no defaults. */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, objectAt } from '../fields';
import { registerDefaulter } from '../registry';

export function defaultIngressClass(ingressClass: JsonObject): void {
  const spec = objectAt(ingressClass, 'spec');
  const parameters = spec && objectAt(spec, 'parameters');
  if (parameters) defaultNil(parameters, 'scope', 'Cluster');
}

registerDefaulter('networking.k8s.io', 'IngressClass', jsonDefaulter(defaultIngressClass));
