/**
 * Ingress rules (pkg/apis/networking/validation): hosts, HTTP paths by pathType, backends, TLS
 * and the class annotation. Stored Ingresses with now-invalid TLS secret names or wildcard rules
 * remain updatable.
 */
import { invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isValidIPForLegacyField, parseIPSloppy } from '../../../api/ip';
import {
  isDNS1123Subdomain,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
} from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, obj, objs, str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { strictIPCIDRValidation } from './features';

const supportedPathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
const annotationIngressClass = 'kubernetes.io/ingress.class';

interface Options {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}

const isIPAddress = (s: string): boolean => parseIPSloppy(s) !== undefined;

/** The TypedLocalObjectReference checks of a resource backend (and of IngressClass parameters). */
export function validateTypedLocalObjectReference(ref: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const apiGroup = ref['apiGroup'];
  if (typeof apiGroup === 'string') for (const msg of isDNS1123Subdomain(apiGroup)) errs.push(invalid(fldPath.child('apiGroup'), apiGroup, msg));
  const kind = str(ref['kind']);
  if (kind === '') errs.push(required(fldPath.child('kind'), 'kind is required'));
  else for (const msg of isValidPathSegmentName(kind)) errs.push(invalid(fldPath.child('kind'), kind, msg));
  const name = str(ref['name']);
  if (name === '') errs.push(required(fldPath.child('name'), 'name is required'));
  else for (const msg of isValidPathSegmentName(name)) errs.push(invalid(fldPath.child('name'), name, msg));
  return errs;
}

function validateBackend(backend: Record<string, unknown>, fldPath: Path): ErrorList {
  const resource = obj(backend['resource']);
  const service = obj(backend['service']);
  if (resource && service) return [invalid(fldPath, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedLocalObjectReference(resource, fldPath.child('resource'));
  if (!service) return [invalid(fldPath, '', 'resource or service backend is required')];
  const errs: ErrorList = [];
  const name = str(service['name']);
  if (name === '') errs.push(required(fldPath.child('service', 'name'), ''));
  else for (const msg of nameIsDNS1035Label(name, false)) errs.push(invalid(fldPath.child('service', 'name'), name, msg));
  const port = obj(service['port']) ?? {};
  const portName = str(port['name']);
  const portNumber = int(port['number']);
  if (portName !== '' && portNumber !== 0) errs.push(invalid(fldPath, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const msg of isValidPortName(portName)) errs.push(invalid(fldPath.child('service', 'port', 'name'), portName, msg));
  else if (portNumber !== 0) for (const msg of isValidPortNum(portNumber)) errs.push(invalid(fldPath.child('service', 'port', 'number'), portNumber, msg));
  else errs.push(required(fldPath, 'port name or number is required'));
  return errs;
}

function validateHTTPPath(path: Record<string, unknown>, fldPath: Path): ErrorList {
  const pathType = path['pathType'];
  if (typeof pathType !== 'string') return [required(fldPath.child('pathType'), 'pathType must be specified')];
  const p = str(path['path']);
  const errs: ErrorList = [];
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!p.startsWith('/')) errs.push(invalid(fldPath.child('path'), p, 'must be an absolute path'));
      if (p.length > 0) {
        for (const seq of invalidPathSequences) if (p.includes(seq)) errs.push(invalid(fldPath.child('path'), p, `must not contain '${seq}'`));
        for (const suffix of invalidPathSuffixes) if (p.endsWith(suffix)) errs.push(invalid(fldPath.child('path'), p, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (p.length > 0 && !p.startsWith('/')) errs.push(invalid(fldPath.child('path'), p, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(fldPath.child('pathType'), pathType, supportedPathTypes));
  }
  return [...errs, ...validateBackend(obj(path['backend']) ?? {}, fldPath.child('backend'))];
}

function validateRuleValue(rule: Record<string, unknown>, fldPath: Path): ErrorList {
  const http = obj(rule['http']);
  if (!http) return [];
  const paths = objs(http['paths']);
  const errs: ErrorList = [];
  if (paths.length === 0) errs.push(required(fldPath.child('http', 'paths'), ''));
  paths.forEach((p, i) => errs.push(...validateHTTPPath(p, fldPath.child('http', 'paths').index(i))));
  return errs;
}

function validateRules(rules: readonly Record<string, unknown>[], fldPath: Path, opts: Options): ErrorList {
  const errs: ErrorList = [];
  rules.forEach((rule, i) => {
    const host = str(rule['host']);
    let wildcardHost = false;
    if (host.length > 0) {
      const hostPath = fldPath.index(i).child('host');
      if (isIPAddress(host)) errs.push(invalid(hostPath, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        for (const msg of isWildcardDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, msg));
        wildcardHost = true;
      } else {
        for (const msg of isDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, msg));
      }
    }
    if (!wildcardHost || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, fldPath.index(i)));
  });
  return errs;
}

const tlsSecretNameErrors = (name: string): string[] => (name === '' ? [] : nameIsDNSSubdomain(name, false));

function validateTLS(tls: readonly Record<string, unknown>[], fldPath: Path, opts: Options): ErrorList {
  const errs: ErrorList = [];
  tls.forEach((t, i) => {
    (Array.isArray(t['hosts']) ? t['hosts'] : []).forEach((h, j) => {
      const host = str(h);
      const p = fldPath.index(i).child('hosts').index(j);
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const msg of msgs) errs.push(invalid(p, host, msg));
    });
    if (!opts.allowInvalidSecretName) {
      const secretName = str(t['secretName']);
      for (const msg of tlsSecretNameErrors(secretName)) errs.push(invalid(fldPath.index(i).child('secretName'), secretName, msg));
    }
  });
  return errs;
}

function validateSpec(spec: Record<string, unknown>, fldPath: Path, opts: Options): ErrorList {
  const errs: ErrorList = [];
  const rules = objs(spec['rules']);
  const defaultBackend = obj(spec['defaultBackend']);
  if (rules.length === 0 && !defaultBackend) {
    errs.push(invalid(fldPath, spec['rules'] ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend) errs.push(...validateBackend(defaultBackend, fldPath.child('defaultBackend')));
  if (rules.length > 0) errs.push(...validateRules(rules, fldPath.child('rules'), opts));
  const tls = objs(spec['tls']);
  if (tls.length > 0) errs.push(...validateTLS(tls, fldPath.child('tls'), opts));
  const className = spec['ingressClassName'];
  if (typeof className === 'string') {
    for (const msg of nameIsDNSSubdomain(className, false)) errs.push(invalid(fldPath.child('ingressClassName'), className, msg));
  }
  return errs;
}

function validateIngress(ing: KubeObject, opts: Options): ErrorList {
  return [...validateObjectMeta(ing.metadata, true, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(obj(ing['spec']) ?? {}, Path.root('spec'), opts)];
}

function validateCreate(ing: KubeObject): ErrorList {
  const errs = validateIngress(ing, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const annotation = obj(ing.metadata.annotations)?.[annotationIngressClass];
  const className = obj(ing['spec'])?.['ingressClassName'];
  if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
    errs.push(invalid(Path.root('annotations').child(annotationIngressClass), annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

function updateOptions(old: KubeObject): Options {
  const spec = obj(old['spec']) ?? {};
  return {
    allowInvalidSecretName: objs(spec['tls']).some((t) => tlsSecretNameErrors(str(t['secretName'])).length > 0),
    allowInvalidWildcardHostRule: objs(spec['rules']).some((r) => str(r['host']).includes('*') && validateRuleValue(r, Path.root('x')).length > 0),
  };
}

function validateLoadBalancerStatus(status: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(obj(status)?.['ingress']).forEach((ing, i) => {
    const idxPath = fldPath.child('ingress').index(i);
    const ip = str(ing['ip']);
    if (ip.length > 0) errs.push(...isValidIPForLegacyField(idxPath.child('ip'), ip, strictIPCIDRValidation));
    const hostname = str(ing['hostname']);
    if (hostname.length > 0) {
      for (const msg of isDNS1123Subdomain(hostname)) errs.push(invalid(idxPath.child('hostname'), hostname, msg));
      if (isIPAddress(hostname)) errs.push(invalid(idxPath.child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

registerValidator('networking.k8s.io', 'Ingress', {
  create: validateCreate,
  update: (ing, old) => [...validateObjectMetaUpdate(ing.metadata, old.metadata, Path.root('metadata')), ...validateIngress(ing, updateOptions(old))],
  updateStatus: (ing, old) => [
    ...validateObjectMetaUpdate(ing.metadata, old.metadata, Path.root('metadata')),
    ...validateLoadBalancerStatus(obj(ing['status'])?.['loadBalancer'], Path.root('status', 'loadBalancer')),
  ],
});

