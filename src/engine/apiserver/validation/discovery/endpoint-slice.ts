/**
 * EndpointSlice rules (pkg/apis/discovery/validation). Addresses are checked against the slice's
 * addressType; on update, addresses already stored stay acceptable even if they would no longer
 * parse, so old slices remain writable.
 */
import { duplicate, invalid, notSupported, Path, required, tooMany, type ErrorList } from '../../../api/field';
import { isIPv4, isValidIPForLegacyField, parseIPSloppy } from '../../../api/ip';
import { isDNS1123Label, isFullyQualifiedDomainName, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { obj, objs, str, strs } from '../core/json';
import { validateImmutableField, validateObjectMeta } from '../meta';
import { registerValidator } from '../registry';
import { validateEndpointIP } from './endpoint-ip';
import { strictIPCIDRValidation } from '../networking/features';

const supportedAddressTypes = ['FQDN', 'IPv4', 'IPv6'];
const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const maxAddresses = 100;
const maxPorts = 20000;
const maxEndpoints = 1000;
const maxZoneHints = 8;
const maxNodeHints = 8;

function validateAddress(address: string, addrType: string, validOld: string[], p: Path): ErrorList {
  switch (addrType) {
    case 'IPv4':
    case 'IPv6': {
      const ipErrs = isValidIPForLegacyField(p, address, strictIPCIDRValidation, validOld);
      if (ipErrs.length > 0) return ipErrs;
      const ip = parseIPSloppy(address);
      const errs: ErrorList = [];
      if (ip && addrType === 'IPv4' && !isIPv4(ip)) errs.push(invalid(p, address, 'must be an IPv4 address'));
      if (ip && addrType === 'IPv6' && isIPv4(ip)) errs.push(invalid(p, address, 'must be an IPv6 address'));
      return [...errs, ...validateEndpointIP(address, p)];
    }
    case 'FQDN':
      return isFullyQualifiedDomainName(p, address);
    default:
      return [];
  }
}

/** Each hint's name: unique among the hints, and valid by `check`. */
function validateHintNames(hints: readonly Record<string, unknown>[], fldPath: Path, check: (name: string) => string[]): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  hints.forEach((h, i) => {
    const p = fldPath.index(i).child('name');
    const name = str(h['name']);
    if (names.has(name)) errs.push(duplicate(p, name));
    else names.add(name);
    for (const msg of check(name)) errs.push(invalid(p, name, msg));
  });
  return errs;
}

function validateHints(hints: Record<string, unknown>, fldPath: Path): ErrorList {
  const zonesPath = fldPath.child('forZones');
  const zones = objs(hints['forZones']);
  if (zones.length > maxZoneHints) return [tooMany(zonesPath, zones.length, maxZoneHints)];
  const errs = validateHintNames(zones, zonesPath, isValidLabelValue);
  const nodesPath = fldPath.child('forNodes');
  const nodes = objs(hints['forNodes']);
  if (nodes.length > maxNodeHints) return [...errs, tooMany(nodesPath, nodes.length, maxNodeHints)];
  return [...errs, ...validateHintNames(nodes, nodesPath, (name) => nameIsDNSSubdomain(name, false))];
}

function validateEndpoints(endpoints: unknown, addrType: string, validOld: string[], fldPath: Path): ErrorList {
  const list = objs(endpoints);
  if (list.length > maxEndpoints) return [tooMany(fldPath, list.length, maxEndpoints)];
  const errs: ErrorList = [];
  list.forEach((ep, i) => {
    const idxPath = fldPath.index(i);
    const addressPath = idxPath.child('addresses');
    const addresses = strs(ep['addresses']);
    if (addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(tooMany(addressPath, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, addrType, validOld, addressPath.index(j))));
    const nodeName = ep['nodeName'];
    if (typeof nodeName === 'string') {
      for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(invalid(idxPath.child('nodeName'), nodeName, msg));
    }
    const hostname = ep['hostname'];
    if (typeof hostname === 'string') {
      for (const msg of isDNS1123Label(hostname)) errs.push(invalid(idxPath.child('hostname'), hostname, msg));
    }
    const hints = obj(ep['hints']);
    if (hints) errs.push(...validateHints(hints, idxPath.child('hints')));
  });
  return errs;
}

function validatePorts(ports: unknown, fldPath: Path): ErrorList {
  const list = objs(ports);
  if (list.length > maxPorts) return [tooMany(fldPath, list.length, maxPorts)];
  const errs: ErrorList = [];
  const names = new Set<string>();
  list.forEach((port, i) => {
    const idxPath = fldPath.index(i);
    const name = str(port['name']);
    if (name.length > 0) for (const msg of isDNS1123Label(name)) errs.push(invalid(idxPath.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(idxPath.child('name'), name));
    else names.add(name);
    const protocol = port['protocol'];
    if (protocol === undefined || protocol === null) errs.push(required(idxPath.child('protocol'), ''));
    else if (!supportedPortProtocols.includes(str(protocol))) errs.push(notSupported(idxPath.child('protocol'), str(protocol), supportedPortProtocols));
    const appProtocol = port['appProtocol'];
    if (typeof appProtocol === 'string') {
      for (const msg of isQualifiedName(appProtocol)) errs.push(invalid(idxPath.child('appProtocol'), appProtocol, msg));
    }
  });
  return errs;
}

function validateAddressType(addressType: string): ErrorList {
  if (addressType === '') return [required(Path.root('addressType'), '')];
  if (!supportedAddressTypes.includes(addressType)) return [notSupported(Path.root('addressType'), addressType, supportedAddressTypes)];
  return [];
}

function allAddresses(slice: KubeObject): string[] {
  return objs(slice['endpoints']).flatMap((ep) => strs(ep['addresses']));
}

function validateEndpointSlice(slice: KubeObject, validOld: string[]): ErrorList {
  const addressType = str(slice['addressType']);
  return [
    ...validateObjectMeta(slice.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateAddressType(addressType),
    ...validateEndpoints(slice['endpoints'], addressType, validOld, Path.root('endpoints')),
    ...validatePorts(slice['ports'], Path.root('ports')),
  ];
}

registerValidator('discovery.k8s.io', 'EndpointSlice', {
  create: (slice) => validateEndpointSlice(slice, []),
  update: (slice, old) => [
    ...validateEndpointSlice(slice, allAddresses(old)),
    ...validateImmutableField(slice['addressType'] ?? '', old['addressType'] ?? '', Path.root('addressType')),
  ],
});

