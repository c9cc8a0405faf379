/** kubectl get services and endpoints. */
import type { KubeObject } from '../../api/types';
import { AGE, NAME } from '../common';
import { ENDPOINTS_SUBSETS, SERVICE_CLUSTER_IP, SERVICE_EXTERNAL_IPS, SERVICE_PORTS, SERVICE_SELECTOR, SERVICE_TYPE } from '../descriptions';
import { formatLabels, int, joinWithMore, loadBalancerAddresses, obj, objs, str, strMap } from '../format';
import { col, tablePrinter, wide } from '../table';

function externalIP(svc: KubeObject): string {
  const spec = obj(svc.spec);
  const externalIPs = (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).map(str);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(obj(svc.status).loadBalancer);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

function ports(spec: Record<string, unknown>): string {
  const out = objs(spec.ports).map((p) => {
    const nodePort = int(p.nodePort);
    return nodePort > 0 ? `${int(p.port)}:${nodePort}/${str(p.protocol)}` : `${int(p.port)}/${str(p.protocol)}`;
  });
  return out.length > 0 ? out.join(',') : '<none>';
}

export const servicePrinter = tablePrinter([
  NAME,
  col('Type', 'string', SERVICE_TYPE, (r) => str(r.spec.type)),
  col('Cluster-IP', 'string', SERVICE_CLUSTER_IP, (r) => (Array.isArray(r.spec.clusterIPs) && r.spec.clusterIPs.length > 0 ? str(r.spec.clusterIPs[0]) : '<none>')),
  col('External-IP', 'string', SERVICE_EXTERNAL_IPS, (r) => externalIP(r.object)),
  col('Port(s)', 'string', SERVICE_PORTS, (r) => ports(r.spec)),
  AGE,
  wide('Selector', 'string', SERVICE_SELECTOR, (r) => formatLabels(strMap(r.spec.selector))),
]);

/** formatEndpoints: up to three ip:port pairs, then "+ N more...". */
function formatEndpoints(ep: KubeObject): string {
  const subsets = objs(ep.subsets);
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const addresses = objs(ss.addresses);
    const ssPorts = objs(ss.ports);
    if (ssPorts.length === 0) {
      for (const a of addresses) {
        if (list.length < max) list.push(str(a.ip));
        count++;
      }
      continue;
    }
    for (const port of ssPorts) {
      for (const a of addresses) {
        if (list.length < max) list.push(joinHostPort(str(a.ip), int(port.port)));
        count++;
      }
    }
  }
  return joinWithMore(list, count);
}

/** net.JoinHostPort: IPv6 addresses in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export const endpointsPrinter = tablePrinter([NAME, col('Endpoints', 'string', ENDPOINTS_SUBSETS, (r) => formatEndpoints(r.object)), AGE]);
