/**
 * NetworkPolicy rules (pkg/apis/networking/validation): ports, peers (exactly one kind of peer
 * per entry when an ipBlock is used) and policy types.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isValidCIDRForLegacyField, parseCIDRSloppy } from '../../../api/ip';
import { isValidPortName, isValidPortNum, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { arr, num, obj, objs, str, strs } from '../core/json';
import { labelSelectorHasInvalidLabelValue, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { cidrContains } from './cidr';
import { strictIPCIDRValidation } from './features';

const protocols = ['TCP', 'UDP', 'SCTP'];

function validatePort(port: Record<string, unknown>, portPath: Path): ErrorList {
  const errs: ErrorList = [];
  const protocol = port['protocol'];
  if (typeof protocol === 'string' && !protocols.includes(protocol)) errs.push(notSupported(portPath.child('protocol'), protocol, protocols));
  const p = port['port'];
  const endPort = num(port['endPort']);
  if (typeof p === 'number') {
    for (const msg of isValidPortNum(p)) errs.push(invalid(portPath.child('port'), p, msg));
    if (endPort !== undefined) {
      // Upstream reports the start port as the bad value here.
      if (endPort < p) errs.push(invalid(portPath.child('endPort'), p, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(endPort)) errs.push(invalid(portPath.child('endPort'), endPort, msg));
    }
  } else if (typeof p === 'string') {
    if (endPort !== undefined) errs.push(invalid(portPath.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(p)) errs.push(invalid(portPath.child('port'), p, msg));
  } else if (endPort !== undefined) {
    errs.push(invalid(portPath.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** ValidateIPBlock: a CIDR and exceptions strictly inside it. */
function validateIPBlock(block: Record<string, unknown>, fldPath: Path): ErrorList {
  const cidr = str(block['cidr']);
  if (cidr === '') return [required(fldPath.child('cidr'), '')];
  const errs = isValidCIDRForLegacyField(fldPath.child('cidr'), cidr, strictIPCIDRValidation);
  const net = parseCIDRSloppy(cidr);
  if (!net) return errs;
  strs(block['except']).forEach((except, i) => {
    const p = fldPath.child('except').index(i);
    errs.push(...isValidCIDRForLegacyField(p, except, strictIPCIDRValidation));
    const exceptNet = parseCIDRSloppy(except);
    if (!exceptNet) return;
    if (!cidrContains(net, exceptNet) || net.bits >= exceptNet.bits) errs.push(invalid(p, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: Record<string, unknown>, allowInvalidLabelValue: boolean, peerPath: Path): ErrorList {
  const errs: ErrorList = [];
  const opts = { allowInvalidLabelValueInSelector: allowInvalidLabelValue };
  let numPeers = 0;
  if (obj(peer['podSelector'])) {
    numPeers++;
    errs.push(...validateLabelSelector(peer['podSelector'], opts, peerPath.child('podSelector')));
  }
  if (obj(peer['namespaceSelector'])) {
    numPeers++;
    errs.push(...validateLabelSelector(peer['namespaceSelector'], opts, peerPath.child('namespaceSelector')));
  }
  const ipBlock = obj(peer['ipBlock']);
  if (ipBlock) {
    numPeers++;
    errs.push(...validateIPBlock(ipBlock, peerPath.child('ipBlock')));
  }
  if (numPeers === 0) errs.push(required(peerPath, 'must specify a peer'));
  else if (numPeers > 1 && ipBlock) errs.push(forbidden(peerPath, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateRules(rules: unknown, direction: 'ingress' | 'egress', peersField: 'from' | 'to', allowInvalid: boolean, fldPath: Path): ErrorList {
  return objs(rules).flatMap((rule, i) => {
    const rulePath = fldPath.child(direction).index(i);
    return [
      ...objs(rule['ports']).flatMap((port, j) => validatePort(port, rulePath.child('ports').index(j))),
      ...objs(rule[peersField]).flatMap((peer, j) => validatePeer(peer, allowInvalid, rulePath.child(peersField).index(j))),
    ];
  });
}

function validateSpec(spec: unknown, allowInvalidLabelValue: boolean, fldPath: Path): ErrorList {
  const s = obj(spec) ?? {};
  const errs = [
    ...validateLabelSelector(s['podSelector'], { allowInvalidLabelValueInSelector: allowInvalidLabelValue }, fldPath.child('podSelector')),
    ...validateRules(s['ingress'], 'ingress', 'from', allowInvalidLabelValue, fldPath),
    ...validateRules(s['egress'], 'egress', 'to', allowInvalidLabelValue, fldPath),
  ];
  const types = strs(s['policyTypes']);
  if (types.length > 2) return [...errs, invalid(fldPath.child('policyTypes'), arr(s['policyTypes']), 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(fldPath.child('policyTypes').index(i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

function validateNetworkPolicy(np: KubeObject, allowInvalidLabelValue: boolean): ErrorList {
  return [...validateObjectMeta(np.metadata, true, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(np['spec'], allowInvalidLabelValue, Path.root('spec'))];
}

registerValidator('networking.k8s.io', 'NetworkPolicy', {
  create: (np) => validateNetworkPolicy(np, false),
  update: (np, old) => {
    // Stored policies whose pod selector predates strict label-value checks stay updatable.
    const allow = labelSelectorHasInvalidLabelValue(obj(old['spec'])?.['podSelector']);
    return [
      ...validateNetworkPolicy(np, allow),
      ...validateObjectMetaUpdate(np.metadata, old.metadata, Path.root('metadata')),
      ...validateSpec(np['spec'], allow, Path.root('spec')),
    ];
  },
});
