/** Endpoints: each subset has addresses; addresses are real, non-special IPs; ports are named when several. */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { isValidIPForLegacyField } from '../../../api/ip';
import { isValidPortNum, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateDNS1123Label, validateQualifiedName } from './formats';
import { int, isSet, objs, str, type Obj } from './json';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { validateProtocol } from './ports';
import { validateNonSpecialIP } from './service';

function validateEndpointAddress(address: Obj, fldPath: Path): ErrorList {
  const ip = str(address['ip']);
  const errs = isValidIPForLegacyField(fldPath.child('ip'), ip, false);
  const hostname = str(address['hostname']);
  if (hostname.length > 0) errs.push(...validateDNS1123Label(hostname, fldPath.child('hostname')));
  if (isSet(address['nodeName'])) {
    const nodeName = str(address['nodeName']);
    errs.push(...nameIsDNSSubdomain(nodeName, false).map((m) => invalid(fldPath.child('nodeName'), nodeName, m).withOrigin('format=dns-label')));
  }
  errs.push(...validateNonSpecialIP(ip, fldPath.child('ip')));
  return errs;
}

function validateEndpointPort(port: Obj, requireName: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const name = str(port['name']);
  if (requireName && name.length === 0) errs.push(required(fldPath.child('name'), ''));
  else if (name.length !== 0) errs.push(...validateDNS1123Label(name, fldPath.child('name')));
  const p = int(port['port']);
  errs.push(...isValidPortNum(p).map((m) => invalid(fldPath.child('port'), p, m).withOrigin('portNum')));
  errs.push(...validateProtocol(port['protocol'], fldPath.child('protocol')));
  if (isSet(port['appProtocol'])) errs.push(...validateQualifiedName(str(port['appProtocol']), fldPath.child('appProtocol')));
  return errs;
}

function validateEndpoints(ep: KubeObject): ErrorList {
  const errs = validateObjectMeta(ep.metadata, true, nameIsDNSSubdomain, Path.root('metadata'));
  objs(ep['subsets']).forEach((ss, i) => {
    const idxPath = Path.root('subsets').index(i);
    const addresses = objs(ss['addresses']);
    const notReady = objs(ss['notReadyAddresses']);
    // Headless services' endpoints may have no ports, but every subset needs an address.
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(idxPath, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateEndpointAddress(a, idxPath.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, idxPath.child('notReadyAddresses').index(j))));
    const ports = objs(ss['ports']);
    ports.forEach((p, j) => errs.push(...validateEndpointPort(p, ports.length > 1, idxPath.child('ports').index(j))));
  });
  return errs;
}

registerValidator('', 'Endpoints', {
  create: validateEndpoints,
  update: (ep, old) => [...validateObjectMetaUpdate(ep.metadata, old.metadata, Path.root('metadata')), ...validateEndpoints(ep)],
});
