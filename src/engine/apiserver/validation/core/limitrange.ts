/** LimitRange: known limit types and resources, and consistent min/default/defaultRequest/max. */
import { duplicate, forbidden, invalid, Path, required, type ErrorList } from '../../../api/field';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { entries, obj, objs, str } from './json';
import { validateObjectMeta } from './meta';
import { parseQuantity, Quantity } from './quantity';
import { validateContainerResourceName, validateResourceName } from './resources';
import { isOvercommitAllowed, isStandardLimitRangeType } from './resourcenames';
import { own } from '../../../api/own';

const maxMilliValue = 9223372036854775;

function validateLimitRangeTypeName(value: string, fldPath: Path): ErrorList {
  const errs = isQualifiedName(value).map((m) => invalid(fldPath, value, m));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !isStandardLimitRangeType(value)) return [invalid(fldPath, value, 'must be a standard limit type or fully qualified')];
  return [];
}

/** Pod and Container limits name container resources; other types (PVCs) may name storage. */
function validateLimitRangeResourceName(limitType: string, name: string, fldPath: Path): ErrorList {
  return limitType === 'Pod' || limitType === 'Container' ? validateContainerResourceName(name, fldPath) : validateResourceName(name, fldPath);
}

/** Go's %f: six decimals. */
const goFixed = (n: number): string => (Number.isFinite(n) ? n.toFixed(6) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

function validateLimitRange(lr: KubeObject): ErrorList {
  const errs = validateObjectMeta(lr.metadata, true, nameIsDNSSubdomain, Path.root('metadata'));
  const types = new Set<string>();
  objs(obj(lr['spec'])?.['limits']).forEach((limit, i) => {
    const idxPath = Path.root('spec', 'limits').index(i);
    const type = str(limit['type']);
    errs.push(...validateLimitRangeTypeName(type, idxPath.child('type')));
    if (types.has(type)) errs.push(duplicate(idxPath.child('type'), type));
    types.add(type);

    const keys = new Set<string>();
    const collect = (field: string): Map<string, Quantity> => {
      const out = new Map<string, Quantity>();
      for (const [k, v] of entries(own(limit, field))) {
        errs.push(...validateLimitRangeResourceName(type, k, idxPath.child(field).key(k)));
        keys.add(k);
        const q = parseQuantity(v);
        if (q) out.set(k, q);
      }
      return out;
    };
    const max = collect('max');
    const min = collect('min');
    let defaults = new Map<string, Quantity>();
    let defaultRequests = new Map<string, Quantity>();
    if (type === 'Pod') {
      if (entries(limit['default']).length > 0) errs.push(forbidden(idxPath.child('default'), "may not be specified when `type` is 'Pod'"));
      if (entries(limit['defaultRequest']).length > 0) errs.push(forbidden(idxPath.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      defaults = collect('default');
      defaultRequests = collect('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage') && !hasKey(limit['min'], 'storage') && !hasKey(limit['max'], 'storage')) {
      errs.push(required(idxPath.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    const ratios = collect('maxLimitRequestRatio');

    for (const k of [...keys].sort()) {
      const minQ = min.get(k);
      const maxQ = max.get(k);
      const defQ = defaults.get(k);
      const defReqQ = defaultRequests.get(k);
      const ratio = ratios.get(k);
      if (minQ && maxQ && minQ.cmp(maxQ) > 0) {
        errs.push(invalid(idxPath.child('min').key(k), minQ.toString(), `min value ${minQ} is greater than max value ${maxQ}`));
      }
      if (defReqQ && minQ && minQ.cmp(defReqQ) > 0) {
        errs.push(invalid(idxPath.child('defaultRequest').key(k), defReqQ.toString(), `min value ${minQ} is greater than default request value ${defReqQ}`));
      }
      if (defReqQ && maxQ && defReqQ.cmp(maxQ) > 0) {
        errs.push(invalid(idxPath.child('defaultRequest').key(k), defReqQ.toString(), `default request value ${defReqQ} is greater than max value ${maxQ}`));
      }
      if (defReqQ && defQ && defReqQ.cmp(defQ) > 0) {
        errs.push(invalid(idxPath.child('defaultRequest').key(k), defReqQ.toString(), `default request value ${defReqQ} is greater than default limit value ${defQ}`));
      }
      if (defQ && minQ && minQ.cmp(defQ) > 0) {
        errs.push(invalid(idxPath.child('default').key(k), minQ.toString(), `min value ${minQ} is greater than default value ${defQ}`));
      }
      if (defQ && maxQ && defQ.cmp(maxQ) > 0) {
        errs.push(invalid(idxPath.child('default').key(k), maxQ.toString(), `default value ${defQ} is greater than max value ${maxQ}`));
      }
      if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0) {
        errs.push(invalid(idxPath.child('maxLimitRequestRatio').key(k), ratio.toString(), `ratio ${ratio} is less than 1`));
      }
      if (ratio && minQ && maxQ) {
        let ratioValue = ratio.value();
        let minValue = minQ.value();
        let maxValue = maxQ.value();
        if (ratio.value() < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
          ratioValue = ratio.milliValue() / 1000;
          minValue = minQ.milliValue();
          maxValue = maxQ.milliValue();
        }
        const limitRatio = maxValue / minValue;
        if (ratioValue > limitRatio) {
          errs.push(invalid(idxPath.child('maxLimitRequestRatio').key(k), ratio.toString(), `ratio ${ratio} is greater than max/min = ${goFixed(limitRatio)}`));
        }
      }
      // Resources that cannot be overcommitted (extended resources, hugepages) need default == defaultRequest.
      if (!isOvercommitAllowed(k) && defQ && defReqQ && defQ.cmp(defReqQ) !== 0) {
        errs.push(invalid(idxPath.child('defaultRequest').key(k), defReqQ.toString(), `default value ${defQ} must equal to defaultRequest value ${defReqQ} in ${k}`));
      }
    }
  });
  return errs;
}

function hasKey(list: unknown, key: string): boolean {
  return own(obj(list), key) !== undefined;
}

registerValidator('', 'LimitRange', {
  create: validateLimitRange,
  update: (lr) => validateLimitRange(lr),
});

