/** kubectl get ingresses, ingressclasses, networkpolicies, servicecidrs, ipaddresses. */
import { ageColumn, nameColumn } from './common';
import { IP_ADDRESS_PARENT_REF, NETWORK_POLICY_POD_SELECTOR, SERVICE_CIDR_CIDRS } from './descriptions';
import { ageOf, arr, formatLabelSelector, obj, objs, str } from './format';
import { column, type Printer } from './table';


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
  const ret = named.join(',');
  return more ? `${ret} + ${list.length - max} more...` : ret;
}

function loadBalancer(status: unknown): string {
  const seen = new Set<string>();
  for (const i of objs(obj(obj(status).loadBalancer).ingress)) {
    if (str(i.ip)) seen.add(str(i.ip));
    else if (str(i.hostname)) seen.add(str(i.hostname));
  }
  return [...seen].sort().join(',');
}

export const ingressPrinter: Printer = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  cells(ing, ctx) {
    const spec = obj(ing.spec);
    return [
      ing.metadata.name ?? '',
      str(spec.ingressClassName) || '<none>',
      hosts(spec.rules),
      loadBalancer(ing.status),
      arr(spec.tls).length > 0 ? '80, 443' : '80',
      ageOf(ing, ctx.now),
    ];
  },
};

export const ingressClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  cells(ic, ctx) {
    const spec = obj(ic.spec);
    let parameters = '<none>';
    if (spec.parameters !== undefined && spec.parameters !== null) {
      const p = obj(spec.parameters);
      const kind = typeof p.apiGroup === 'string' ? `${str(p.kind)}.${p.apiGroup}` : str(p.kind);
      parameters = `${kind}/${str(p.name)}`;
    }
    return [ic.metadata.name ?? '', str(spec.controller), parameters, ageOf(ic, ctx.now)];
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [nameColumn, column('Pod-Selector', 'string', NETWORK_POLICY_POD_SELECTOR), ageColumn],
  cells: (np, ctx) => [np.metadata.name ?? '', formatLabelSelector(obj(np.spec).podSelector ?? {}), ageOf(np, ctx.now)],
};

export const serviceCIDRPrinter: Printer = {
  columns: [nameColumn, column('CIDRs', 'string', SERVICE_CIDR_CIDRS), ageColumn],
  cells: (sc, ctx) => [sc.metadata.name ?? '', arr(obj(sc.spec).cidrs).map(str).join(','), ageOf(sc, ctx.now)],
};

export const ipAddressPrinter: Printer = {
  columns: [nameColumn, column('ParentRef', 'string', IP_ADDRESS_PARENT_REF)],
  cells(ip) {
    const spec = obj(ip.spec);
    let parent = '<none>';
    if (spec.parentRef !== undefined && spec.parentRef !== null) {
      const ref = obj(spec.parentRef);
      const gr = str(ref.group) ? `${str(ref.resource)}.${str(ref.group)}` : str(ref.resource);
      parent = gr.toLowerCase() + (str(ref.namespace) ? `/${str(ref.namespace)}` : '') + `/${str(ref.name)}`;
    }
    return [ip.metadata.name ?? '', parent];
  },
};
