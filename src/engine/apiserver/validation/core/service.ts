/**
 * Service: ports, types, cluster IPs and IP families, session affinity, traffic policies, and
 * the update rules (cluster IPs and families may only be upgraded or downgraded).
 */
import { duplicate, forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isIPv4, isValidCIDRForLegacyField, isValidIPForLegacyField, parseIPSloppy } from '../../../api/ip';
import { isValidPortNum, nameIsDNS1035Label } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateDNS1123Label, validateDNS1123Subdomain, validateQualifiedName } from './formats';
import { servicePortKeyStruct } from './gostruct';
import { int, isSet, num, obj, objs, str, strMap, strs, type Obj } from './json';
import { validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { validatePortNumOrName, validateProtocol } from './ports';

const specOf = (svc: KubeObject): Obj => obj(svc['spec']) ?? {};

const sessionAffinityTypes = ['ClientIP', 'None'];
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const internalTrafficPolicies = ['Cluster', 'Local'];
const externalTrafficPolicies = ['Cluster', 'Local'];
const ipFamilies = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficDistributions = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
const maxClientIPServiceAffinitySeconds = 86400;
const topologyAwareHintsAnnotation = 'service.kubernetes.io/topology-aware-hints';
const topologyModeAnnotation = 'service.kubernetes.io/topology-mode';
const loadBalancerSourceRangesAnnotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';

export function isHeadlessService(spec: Obj): boolean {
  const ips = strs(spec['clusterIPs']);
  return ips.length === 1 && ips[0] === 'None';
}

/** apiservice.ExternallyAccessible: reachable from outside through node ports, an LB or external IPs. */
function externallyAccessible(spec: Obj): boolean {
  const type = str(spec['type']);
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && strs(spec['externalIPs']).length > 0);
}

function needsHealthCheck(spec: Obj): boolean {
  return spec['type'] === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local';
}

export function validateService(svc: KubeObject): ErrorList {
  const metaPath = Path.root('metadata');
  const errs = validateObjectMeta(svc.metadata, true, nameIsDNS1035Label, metaPath);
  const annotations = new Map(strMap(svc.metadata.annotations));
  const hints = annotations.get(topologyAwareHintsAnnotation);
  const mode = annotations.get(topologyModeAnnotation);
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(invalid(metaPath.child('annotations').key(topologyModeAnnotation), mode, `must match annotations[${topologyAwareHintsAnnotation}] when both are specified`));
  }

  const spec = specOf(svc);
  const specPath = Path.root('spec');
  const type = str(spec['type']);
  const headless = isHeadlessService(spec);
  const ports = objs(spec['ports']);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required(specPath.child('ports'), ''));
  switch (type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless) errs.push(invalid(specPath.child('clusterIPs').index(0), 'None', `may not be set to 'None' for ${type} services`));
      break;
    case 'ExternalName': {
      if (strs(spec['clusterIPs']).length > 0) errs.push(forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (strs(spec['ipFamilies']).length > 0) errs.push(forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (isSet(spec['ipFamilyPolicy'])) errs.push(forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      // A CNAME may end with a dot to mark it fully qualified.
      const externalName = str(spec['externalName']);
      const cname = externalName.endsWith('.') ? externalName.slice(0, -1) : externalName;
      if (cname.length > 0) errs.push(...validateDNS1123Subdomain(cname, specPath.child('externalName')));
      else errs.push(required(specPath.child('externalName'), ''));
      break;
    }
  }

  const portNames = new Set<string>();
  ports.forEach((port, i) => errs.push(...validateServicePort(port, ports.length > 1, portNames, specPath.child('ports').index(i))));
  if (isSet(spec['selector'])) errs.push(...validateLabels(spec['selector'], specPath.child('selector')));

  const affinity = str(spec['sessionAffinity']);
  if (affinity.length === 0) errs.push(required(specPath.child('sessionAffinity'), ''));
  else if (!sessionAffinityTypes.includes(affinity)) errs.push(notSupported(specPath.child('sessionAffinity'), affinity, sessionAffinityTypes));
  if (affinity === 'ClientIP') errs.push(...validateClientIPAffinityConfig(spec['sessionAffinityConfig'], specPath.child('sessionAffinityConfig')));
  else if (affinity === 'None' && isSet(spec['sessionAffinityConfig'])) {
    errs.push(forbidden(specPath.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  }

  errs.push(...validateServiceClusterIPsRelatedFields(spec));

  strs(spec['externalIPs']).forEach((ip, i) => {
    const idxPath = specPath.child('externalIPs').index(i);
    const ipErrs = isValidIPForLegacyField(idxPath, ip, false);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, idxPath)));
  });

  if (type.length === 0) errs.push(required(specPath.child('type'), ''));
  else if (!serviceTypes.includes(type)) errs.push(notSupported(specPath.child('type'), type, serviceTypes));

  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (int(p['nodePort']) !== 0) errs.push(forbidden(specPath.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const nodePort = int(p['nodePort']);
    if (nodePort === 0) return;
    const key = `${str(p['protocol'])}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(specPath.child('ports').index(i).child('nodePort'), nodePort));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p['protocol'])}/${int(p['port'])}`;
    if (portKeys.has(key)) errs.push(duplicate(specPath.child('ports').index(i), servicePortKeyStruct(str(p['protocol']), int(p['port']))));
    portKeys.add(key);
  });

  const sourceRanges = strs(spec['loadBalancerSourceRanges']);
  const rangesAnnotation = annotations.get(loadBalancerSourceRangesAnnotation);
  if (sourceRanges.length > 0) {
    const fieldPath = specPath.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(forbidden(fieldPath, "may only be used when `type` is 'LoadBalancer'"));
    // Historically these may be space-padded, like the annotation they replaced.
    sourceRanges.forEach((r, i) => errs.push(...isValidCIDRForLegacyField(fieldPath.index(i), r.trim(), false)));
  } else if (rangesAnnotation !== undefined) {
    const fieldPath = Path.root('metadata', 'annotations').key(loadBalancerSourceRangesAnnotation);
    if (type !== 'LoadBalancer') errs.push(forbidden(fieldPath, "may only be used when `type` is 'LoadBalancer'"));
    const val = rangesAnnotation.trim();
    if (val !== '') for (const r of val.split(',')) errs.push(...isValidCIDRForLegacyField(fieldPath, r.trim(), false));
  }

  if (isSet(spec['allocateLoadBalancerNodePorts']) && type !== 'LoadBalancer') {
    errs.push(forbidden(specPath.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && !isSet(spec['allocateLoadBalancerNodePorts'])) errs.push(required(Path.root('allocateLoadBalancerNodePorts'), ''));

  errs.push(...validateLoadBalancerClassField(undefined, spec));
  errs.push(...validateServiceExternalTrafficPolicy(spec));
  if (!isSet(spec['internalTrafficPolicy'])) {
    // Other types were never checked, and existing objects must stay valid.
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(required(specPath.child('internalTrafficPolicy'), ''));
  } else if (!internalTrafficPolicies.includes(str(spec['internalTrafficPolicy']))) {
    errs.push(notSupported(specPath.child('internalTrafficPolicy'), str(spec['internalTrafficPolicy']), internalTrafficPolicies));
  }
  if (isSet(spec['trafficDistribution']) && !trafficDistributions.includes(str(spec['trafficDistribution']))) {
    errs.push(notSupported(specPath.child('trafficDistribution'), str(spec['trafficDistribution']), trafficDistributions));
  }
  return errs;
}

function validateServicePort(sp: Obj, requireName: boolean, allNames: Set<string>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const name = str(sp['name']);
  if (requireName && name.length === 0) {
    errs.push(required(fldPath.child('name'), ''));
  } else if (name.length !== 0) {
    errs.push(...validateDNS1123Label(name, fldPath.child('name')));
    if (allNames.has(name)) errs.push(duplicate(fldPath.child('name'), name));
    else allNames.add(name);
  }
  const port = int(sp['port']);
  errs.push(...isValidPortNum(port).map((m) => invalid(fldPath.child('port'), port, m)));
  errs.push(...validateProtocol(sp['protocol'], fldPath.child('protocol')));
  errs.push(...validatePortNumOrName(sp['targetPort'], fldPath.child('targetPort')));
  if (isSet(sp['appProtocol'])) errs.push(...validateQualifiedName(str(sp['appProtocol']), fldPath.child('appProtocol')));
  return errs;
}

function validateClientIPAffinityConfig(config: unknown, fldPath: Path): ErrorList {
  const detail = 'when session affinity type is ClientIP';
  const c = obj(config);
  if (!c) return [required(fldPath, detail)];
  const clientIP = obj(c['clientIP']);
  if (!clientIP) return [required(fldPath.child('clientIP'), detail)];
  const timeout = num(clientIP['timeoutSeconds']);
  const timeoutPath = fldPath.child('clientIP', 'timeoutSeconds');
  if (timeout === undefined) return [required(timeoutPath, detail)];
  if (timeout <= 0 || timeout > maxClientIPServiceAffinitySeconds) {
    return [invalid(timeoutPath, timeout, `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`)];
  }
  return [];
}

/** Endpoints, EndpointSlices and external IPs may not use unspecified, loopback or link-local addresses. */
export function validateNonSpecialIP(address: string, fldPath: Path): ErrorList {
  const ip = parseIPSloppy(address);
  if (!ip) return [invalid(fldPath, address, 'must be a valid IP address').withOrigin('format=ip-sloppy')];
  const errs: ErrorList = [];
  const v4 = isIPv4(ip);
  const origin = 'format=non-special-ip';
  if (ip.every((b, i) => b === 0 || (v4 && i >= 10 && i < 12))) errs.push(invalid(fldPath, address, `may not be unspecified (${address})`).withOrigin(origin));
  const loopback = v4 ? ip[12] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
  if (loopback) errs.push(invalid(fldPath, address, 'may not be in the loopback range (127.0.0.0/8, ::1/128)').withOrigin(origin));
  const linkLocalUnicast = v4 ? ip[12] === 169 && ip[13] === 254 : ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80;
  if (linkLocalUnicast) errs.push(invalid(fldPath, address, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)').withOrigin(origin));
  const linkLocalMulticast = v4 ? ip[12] === 224 && ip[13] === 0 && ip[14] === 0 : ip[0] === 0xff && (ip[1]! & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push(invalid(fldPath, address, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)').withOrigin(origin));
  return errs;
}

function isDualStack(ips: string[]): boolean {
  const parsed = ips.map(parseIPSloppy);
  return parsed.some((p) => p !== undefined && isIPv4(p)) && parsed.some((p) => p !== undefined && !isIPv4(p));
}

const isIPv6String = (s: string): boolean => {
  const ip = parseIPSloppy(s);
  return ip !== undefined && !isIPv4(ip);
};

/** clusterIP, clusterIPs, ipFamilies and ipFamilyPolicy must agree with each other. */
export function validateServiceClusterIPsRelatedFields(spec: Obj): ErrorList {
  if (spec['type'] === 'ExternalName') return [];
  const errs: ErrorList = [];
  const specPath = Path.root('spec');
  const clusterIPsPath = specPath.child('clusterIPs');
  const ipFamiliesPath = specPath.child('ipFamilies');
  const clusterIP = str(spec['clusterIP']);
  const clusterIPs = strs(spec['clusterIPs']);
  if (clusterIP.length !== 0) {
    if (clusterIPs.length === 0) errs.push(required(clusterIPsPath, ''));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalid(clusterIPsPath, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalid(clusterIPsPath, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const families = strs(spec['ipFamilies']);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!ipFamilies.includes(f)) errs.push(notSupported(ipFamiliesPath.index(i), f, ipFamilies));
    if (seen.has(f)) errs.push(duplicate(ipFamiliesPath.index(i), f));
    seen.add(f);
  });
  if (isSet(spec['ipFamilyPolicy']) && !ipFamilyPolicies.includes(str(spec['ipFamilyPolicy']))) {
    errs.push(notSupported(specPath.child('ipFamilyPolicy'), str(spec['ipFamilyPolicy']), ipFamilyPolicies));
  }
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid(clusterIPsPath, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = isValidIPForLegacyField(clusterIPsPath.index(i), ip, false);
    if (ipErrs.length > 0) hasInvalidIPs = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(invalid(clusterIPsPath, clusterIPs, 'may only hold up to 2 values'));
  // Further checks would only repeat the problem with the addresses themselves.
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1 && !isDualStack(clusterIPs)) errs.push(invalid(clusterIPsPath, clusterIPs, 'may specify no more than one IP for each IP family'));
  if (!isHeadlessService(spec) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip)) errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateServiceExternalTrafficPolicy(spec: Obj): ErrorList {
  const errs: ErrorList = [];
  const specPath = Path.root('spec');
  const policy = str(spec['externalTrafficPolicy']);
  if (!externallyAccessible(spec)) {
    if (policy !== '') errs.push(invalid(specPath.child('externalTrafficPolicy'), policy, 'may only be set for externally-accessible services'));
  } else if (policy === '') {
    errs.push(required(specPath.child('externalTrafficPolicy'), ''));
  } else if (!externalTrafficPolicies.includes(policy)) {
    errs.push(notSupported(specPath.child('externalTrafficPolicy'), policy, externalTrafficPolicies));
  }
  const hcnp = int(spec['healthCheckNodePort']);
  if (!needsHealthCheck(spec)) {
    if (hcnp !== 0) errs.push(invalid(specPath.child('healthCheckNodePort'), hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hcnp === 0) {
    errs.push(required(specPath.child('healthCheckNodePort'), ''));
  } else {
    errs.push(...isValidPortNum(hcnp).map((m) => invalid(specPath.child('healthCheckNodePort'), hcnp, m)));
  }
  return errs;
}

function validateLoadBalancerClassField(oldSpec: Obj | undefined, spec: Obj): ErrorList {
  const errs: ErrorList = [];
  const path = Path.root('spec', 'loadBalancerClass');
  const lbClass = spec['loadBalancerClass'];
  if (oldSpec && oldSpec['type'] === 'LoadBalancer' && spec['type'] === 'LoadBalancer') {
    const same = (!isSet(oldSpec['loadBalancerClass']) && !isSet(lbClass)) || (isSet(oldSpec['loadBalancerClass']) && isSet(lbClass) && oldSpec['loadBalancerClass'] === lbClass);
    if (!same) errs.push(invalid(path, isSet(lbClass) ? str(lbClass) : null, 'may not change once set'));
  }
  if (spec['type'] === 'LoadBalancer') {
    if (isSet(lbClass)) errs.push(...validateQualifiedName(str(lbClass), path));
  } else if (isSet(lbClass)) {
    errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

function validateUpgradeDowngradeClusterIPs(oldSpec: Obj, spec: Obj): ErrorList {
  if (spec['type'] === 'ExternalName' || oldSpec['type'] === 'ExternalName') return [];
  if (isHeadlessService(oldSpec) && isHeadlessService(spec)) return [];
  const errs: ErrorList = [];
  const path = Path.root('spec', 'clusterIPs');
  const oldIPs = strs(oldSpec['clusterIPs']);
  const newIPs = strs(spec['clusterIPs']);
  if (oldIPs.length === newIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== newIPs[i]) errs.push(invalid(path.index(i), newIPs, 'may not change once set'));
    });
  } else if (oldIPs.length > newIPs.length) {
    if (newIPs.length === 0) errs.push(invalid(path.index(0), newIPs, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && newIPs.length > 0 && newIPs[0] !== oldIPs[0]) errs.push(invalid(path.index(0), newIPs, 'may not change once set'));
    if (newIPs.length === 1 && spec['ipFamilyPolicy'] !== 'SingleStack') {
      errs.push(invalid(Path.root('spec', 'ipFamilyPolicy'), isSet(spec['ipFamilyPolicy']) ? str(spec['ipFamilyPolicy']) : null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
    errs.push(invalid(path.index(0), newIPs, 'may not change once set'));
  }
  return errs;
}

function validateUpgradeDowngradeIPFamilies(oldSpec: Obj, spec: Obj): ErrorList {
  if (spec['type'] === 'ExternalName' || oldSpec['type'] === 'ExternalName') return [];
  const oldHeadless = isHeadlessService(oldSpec);
  // Headless services may change families, and so may services becoming or ceasing to be headless.
  if (oldHeadless !== isHeadlessService(spec) || oldHeadless) return [];
  const errs: ErrorList = [];
  const path = Path.root('spec', 'ipFamilies').index(0);
  const oldFamilies = strs(oldSpec['ipFamilies']);
  const newFamilies = strs(spec['ipFamilies']);
  const clusterIPs = strs(spec['clusterIPs']);
  if (oldFamilies.length === newFamilies.length) {
    oldFamilies.forEach((f, i) => {
      if (f !== newFamilies[i]) errs.push(invalid(path, newFamilies, 'may not change once set'));
    });
  } else if (oldFamilies.length > newFamilies.length) {
    if (clusterIPs.length === 0) errs.push(invalid(path, newFamilies, 'primary ipFamily can not be unset'));
    if (newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) errs.push(invalid(path, clusterIPs, 'may not change once set'));
    if (newFamilies.length === 1 && spec['ipFamilyPolicy'] !== 'SingleStack') {
      errs.push(invalid(Path.root('spec', 'ipFamilyPolicy'), isSet(spec['ipFamilyPolicy']) ? str(spec['ipFamilyPolicy']) : null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFamilies.length > 0 && newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) {
    errs.push(invalid(path, clusterIPs, 'may not change once set'));
  }
  return errs;
}

export function validateServiceUpdate(svc: KubeObject, old: KubeObject): ErrorList {
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata, Path.root('metadata'));
  errs.push(...validateUpgradeDowngradeClusterIPs(oldSpec, spec));
  errs.push(...validateUpgradeDowngradeIPFamilies(oldSpec, spec));
  errs.push(...validateLoadBalancerClassField(oldSpec, spec));
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && int(spec['healthCheckNodePort']) !== int(oldSpec['healthCheckNodePort'])) {
    errs.push(forbidden(Path.root('spec', 'healthCheckNodePort'), 'field is immutable'));
  }
  errs.push(...validateService(svc));
  return errs;
}

const loadBalancerIPModes = ['Proxy', 'VIP'];

export function validateLoadBalancerStatus(status: unknown, fldPath: Path, spec: Obj): ErrorList {
  const ingress = objs(obj(status)?.['ingress']);
  const ingressPath = fldPath.child('ingress');
  if (spec['type'] !== 'LoadBalancer' && ingress.length !== 0) return [forbidden(ingressPath, "may only be used when `spec.type` is 'LoadBalancer'")];
  const errs: ErrorList = [];
  ingress.forEach((ing, i) => {
    const idxPath = ingressPath.index(i);
    const ip = str(ing['ip']);
    if (ip.length > 0) errs.push(...isValidIPForLegacyField(idxPath.child('ip'), ip, false));
    if (!isSet(ing['ipMode'])) {
      if (ip.length > 0) errs.push(required(idxPath.child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip.length === 0) {
      errs.push(forbidden(idxPath.child('ipMode'), 'may not be specified when `ip` is not set'));
    } else if (!loadBalancerIPModes.includes(str(ing['ipMode']))) {
      errs.push(notSupported(idxPath.child('ipMode'), str(ing['ipMode']), loadBalancerIPModes));
    }
    const hostname = str(ing['hostname']);
    if (hostname.length > 0) {
      errs.push(...validateDNS1123Subdomain(hostname, idxPath.child('hostname')));
      if (parseIPSloppy(hostname)) errs.push(invalid(idxPath.child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

function validateServiceStatusUpdate(svc: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata, Path.root('metadata'));
  errs.push(...validateLoadBalancerStatus(obj(svc['status'])?.['loadBalancer'], Path.root('status', 'loadBalancer'), specOf(svc)));
  return errs;
}

registerValidator('', 'Service', {
  create: (svc) => validateService(svc),
  update: (svc, old) => validateServiceUpdate(svc, old),
  updateStatus: (svc, old) => validateServiceStatusUpdate(svc, old),
});
