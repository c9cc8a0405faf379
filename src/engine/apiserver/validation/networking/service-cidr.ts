/**
 * ServiceCIDR rules (pkg/apis/networking/validation): the ranges Service cluster IPs are
 * allocated from, at most one per IP family, fixed once created.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { isValidCIDR } from '../../../api/ip';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { arr, obj, strs } from '../core/json';
import { goStruct } from '../apps/go-values';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { isDualStackCIDRs } from './cidr';

function validateServiceCIDR(sc: KubeObject): ErrorList {
  const errs = validateObjectMeta(sc.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  const p = Path.root('spec', 'cidrs');
  const cidrs = strs(obj(sc['spec'])?.['cidrs']);
  // The internal ServiceCIDRSpec, as the bad value of the two list-level errors.
  const specValue = goStruct([['CIDRs', arr(obj(sc['spec'])?.['cidrs'])]]);
  if (cidrs.length === 0) return [...errs, required(p, 'at least one CIDR required')];
  if (cidrs.length > 2) return [...errs, invalid(p, specValue, 'may only hold up to 2 values')];
  if (cidrs.length === 2 && !isDualStackCIDRs(cidrs)) {
    return [...errs, invalid(p, specValue, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64')];
  }
  cidrs.forEach((c, i) => errs.push(...isValidCIDR(p.index(i), c)));
  return errs;
}

registerValidator('networking.k8s.io', 'ServiceCIDR', {
  create: validateServiceCIDR,
  update: (sc, old) => [
    ...validateServiceCIDR(sc),
    ...validateObjectMetaUpdate(sc.metadata, old.metadata, Path.root('metadata')),
    ...validateImmutableField(obj(sc['spec'])?.['cidrs'] ?? null, obj(old['spec'])?.['cidrs'] ?? null, Path.root('spec', 'cidrs')),
  ],
  updateStatus: (sc, old) => validateObjectMetaUpdate(sc.metadata, old.metadata, Path.root('metadata')),
});
