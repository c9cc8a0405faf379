/** Container ports, host port conflicts and int-or-string port references. */
import { duplicate, internalError, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isValidPortName, isValidPortNum } from '../../../api/names';
import { int, objs, str, type Obj } from './json';

export const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];

export function validateContainerPorts(ports: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  objs(ports).forEach((port, i) => {
    const idxPath = fldPath.index(i);
    const name = str(port['name']);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => invalid(idxPath.child('name'), name, m)));
      else if (names.has(name)) errs.push(duplicate(idxPath.child('name'), name));
      else names.add(name);
    }
    const containerPort = int(port['containerPort']);
    if (containerPort === 0) errs.push(required(idxPath.child('containerPort'), ''));
    else errs.push(...isValidPortNum(containerPort).map((m) => invalid(idxPath.child('containerPort'), containerPort, m)));
    const hostPort = int(port['hostPort']);
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((m) => invalid(idxPath.child('hostPort'), hostPort, m)));
    errs.push(...validateProtocol(port['protocol'], idxPath.child('protocol')));
  });
  return errs;
}

export function validateProtocol(protocol: unknown, fldPath: Path): ErrorList {
  const p = str(protocol);
  if (p.length === 0) return [required(fldPath, '')];
  if (!supportedPortProtocols.includes(p)) return [notSupported(fldPath, p, supportedPortProtocols)];
  return [];
}

/** An IntOrString port: a number in range or an IANA service name. */
export function validatePortNumOrName(port: unknown, fldPath: Path): ErrorList {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(fldPath, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(fldPath, port, m));
  // An absent IntOrString decodes as the integer 0.
  if (port === undefined || port === null) return isValidPortNum(0).map((m) => invalid(fldPath, 0, m));
  return [internalError(fldPath, 'unknown type: 2')];
}

/** Host ports may not collide across the given containers (keyed by protocol, host IP and port). */
export function accumulateUniqueHostPorts(containers: readonly Obj[], seen: Set<string>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  containers.forEach((ctr, ci) => {
    objs(ctr['ports']).forEach((port, pi) => {
      const hostPort = int(port['hostPort']);
      if (hostPort === 0) return;
      const key = `${str(port['protocol'])}/${str(port['hostIP'])}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(fldPath.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}
