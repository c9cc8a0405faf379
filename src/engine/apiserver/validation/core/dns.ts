/** dnsPolicy and dnsConfig. RelaxedDNSSearchValidation is GA: search domains may hold '_' or be '.'. */
import { invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isValidIPForLegacyField } from '../../../api/ip';
import { validateDNS1123SubdomainWithUnderscore } from './formats';
import { obj, objs, str, strs, type Obj } from './json';

const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

export function validateDNSPolicy(policy: unknown, fldPath: Path): ErrorList {
  const p = str(policy);
  if (p === '') return [required(fldPath, '')];
  return dnsPolicies.includes(p) ? [] : [notSupported(fldPath, p, dnsPolicies)];
}

const maxDNSNameservers = 3;
const maxDNSSearchPaths = 32;
const maxDNSSearchListChars = 2048;

export function validatePodDNSConfig(spec: Obj, fldPath: Path): ErrorList {
  const config = obj(spec['dnsConfig']);
  if (spec['dnsPolicy'] === 'None') {
    if (!config) return [required(fldPath, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (strs(config['nameservers']).length === 0) return [required(fldPath.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: ErrorList = [];
  const nameservers = strs(config['nameservers']);
  if (nameservers.length > maxDNSNameservers) {
    errs.push(invalid(fldPath.child('nameservers'), nameservers, `must not have more than ${maxDNSNameservers} nameservers`));
  }
  nameservers.forEach((ns, i) => errs.push(...isValidIPForLegacyField(fldPath.child('nameservers').index(i), ns, false)));
  const searches = strs(config['searches']);
  if (searches.length > maxDNSSearchPaths) {
    errs.push(invalid(fldPath.child('searches'), searches, `must not have more than ${maxDNSSearchPaths} search paths`));
  }
  if (Buffer.byteLength(searches.join(' ')) > maxDNSSearchListChars) {
    errs.push(invalid(fldPath.child('searches'), searches, `must not have more than ${maxDNSSearchListChars} characters (including spaces) in the search list`));
  }
  searches.forEach((search, i) => {
    if (search === '.') return;
    const trimmed = search.endsWith('.') ? search.slice(0, -1) : search;
    errs.push(...validateDNS1123SubdomainWithUnderscore(trimmed, fldPath.child('searches').index(i)));
  });
  objs(config['options']).forEach((option, i) => {
    if (str(option['name']).length === 0) errs.push(required(fldPath.child('options').index(i), 'must not be empty'));
  });
  return errs;
}
