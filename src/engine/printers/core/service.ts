/** kubectl get services and endpoints. */
import type { KubeObject } from '../../api/types';
import { ageColumn, nameColumn } from '../common';
import { ENDPOINTS_SUBSETS, SERVICE_CLUSTER_IP, SERVICE_EXTERNAL_IPS, SERVICE_PORTS, SERVICE_SELECTOR, SERVICE_TYPE } from '../descriptions';
import { ageOf, formatLabels, int, obj, objs, str, strMap } from '../format';
import { column, type Cell, type PrintContext, type Printer } from '../table';

/** The width a load balancer's address list is clipped to outside -o wide. */
const LOAD_BALANCER_WIDTH = 16;

function loadBalancerAddresses(status: unknown, wide: boolean): string {
  const seen = new Set<string>();
  for (const i of objs(obj(status).ingress)) {
    if (str(i.ip)) seen.add(str(i.ip));
    else if (str(i.hostname)) seen.add(str(i.hostname));
  }
  const r = [...seen].sort().join(',');
  return !wide && r.length > LOAD_BALANCER_WIDTH ? r.slice(0, LOAD_BALANCER_WIDTH - 3) + '...' : r;
}

function externalIP(svc: KubeObject): string {
  const spec = obj(svc.spec);
  const externalIPs = (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).map(str);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      // Server-side printing is always wide, so the address list is never clipped here.
      const lb = loadBalancerAddresses(obj(svc.status).loadBalancer, true);
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

export const servicePrinter: Printer = {
  columns: [
    nameColumn,
    column('Type', 'string', SERVICE_TYPE),
    column('Cluster-IP', 'string', SERVICE_CLUSTER_IP),
    column('External-IP', 'string', SERVICE_EXTERNAL_IPS),
    column('Port(s)', 'string', SERVICE_PORTS),
    ageColumn,
    column('Selector', 'string', SERVICE_SELECTOR, { priority: 1 }),
  ],
  cells(svc: KubeObject, ctx: PrintContext): Cell[] {
    const spec = obj(svc.spec);
    const clusterIPs = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    return [
      svc.metadata.name ?? '',
      str(spec.type),
      clusterIPs.length > 0 ? str(clusterIPs[0]) : '<none>',
      externalIP(svc),
      ports(spec),
      ageOf(svc, ctx.now),
      formatLabels(strMap(spec.selector)),
    ];
  },
};

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
  const ret = list.join(',');
  return count > max ? `${ret} + ${count - max} more...` : ret;
}

/** net.JoinHostPort: IPv6 addresses in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export const endpointsPrinter: Printer = {
  columns: [nameColumn, column('Endpoints', 'string', ENDPOINTS_SUBSETS), ageColumn],
  cells: (ep, ctx) => [ep.metadata.name ?? '', formatEndpoints(ep), ageOf(ep, ctx.now)],
};
