/** kubectl get ingresses, ingressclasses, networkpolicies, servicecidrs, ipaddresses. */
import { AGE, NAME } from './common';
import { IP_ADDRESS_PARENT_REF, NETWORK_POLICY_POD_SELECTOR, SERVICE_CIDR_CIDRS } from './descriptions';
import { arr, formatLabelSelector, joinWithMore, loadBalancerAddresses, noneIfEmpty, obj, objs, str } from './format';
import { col, tablePrinter } from './table';
/** formatHosts: the first three hosts the rules name, "*" when none names one. */
function hosts(rules: unknown): string {
  const list = objs(rules);
  const max = 3;
  const named: string[] = [];
  let more = false;
  for (const rule of list) {
    if (named.length === max) more = true;
    if (!more && str(rule.host)) named.push(str(rule.host));
  }
  if (named.length === 0) return '*';
  // Like kubectl, the count left out is of rules, hosts or not.
  return more ? joinWithMore(named, list.length) : named.join(',');
}

export const ingressPrinter = tablePrinter([
  NAME,
  col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration', (r) => noneIfEmpty(r.spec.ingressClassName)),
  col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule', (r) => hosts(r.spec.rules)),
  col('Address', 'string', 'Address is a list containing ingress points for the load-balancer', (r) => loadBalancerAddresses(r.status.loadBalancer)),
  col('Ports', 'string', 'Ports of TLS configurations that open', (r) => (arr(r.spec.tls).length > 0 ? '80, 443' : '80')),
  AGE,
]);

function ingressClassParameters(parameters: unknown): string {
  if (parameters === undefined || parameters === null) return '<none>';
  const p = obj(parameters);
  const kind = typeof p.apiGroup === 'string' ? `${str(p.kind)}.${p.apiGroup}` : str(p.kind);
  return `${kind}/${str(p.name)}`;
}

export const ingressClassPrinter = tablePrinter([
  NAME,
  col('Controller', 'string', 'Controller that is responsible for handling this class', (r) => str(r.spec.controller)),
  col('Parameters', 'string', 'A reference to a resource with additional parameters', (r) => ingressClassParameters(r.spec.parameters)),
  AGE,
]);

export const networkPolicyPrinter = tablePrinter([NAME, col('Pod-Selector', 'string', NETWORK_POLICY_POD_SELECTOR, (r) => formatLabelSelector(r.spec.podSelector ?? {})), AGE]);

export const serviceCIDRPrinter = tablePrinter([NAME, col('CIDRs', 'string', SERVICE_CIDR_CIDRS, (r) => arr(r.spec.cidrs).map(str).join(',')), AGE]);

/** The parent as "resource.group[/namespace]/name", lower case but for the names. */
function parentRef(ref: unknown): string {
  if (ref === undefined || ref === null) return '<none>';
  const r = obj(ref);
  const gr = str(r.group) ? `${str(r.resource)}.${str(r.group)}` : str(r.resource);
  return gr.toLowerCase() + (str(r.namespace) ? `/${str(r.namespace)}` : '') + `/${str(r.name)}`;
}

export const ipAddressPrinter = tablePrinter([NAME, col('ParentRef', 'string', IP_ADDRESS_PARENT_REF, (r) => parentRef(r.spec.parentRef))]);
