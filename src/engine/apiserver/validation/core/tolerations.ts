/** Tolerations (pod spec and the legacy annotation) and taint effects. */
import { invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isValidLabelValue } from '../../../api/names';
import { isSet, objs, str } from './json';
import { validateLabelName } from './meta';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTaintEffect(effect: string, allowEmpty: boolean, fldPath: Path): ErrorList {
  if (!allowEmpty && effect.length === 0) return [required(fldPath, '')];
  return taintEffects.includes(effect) ? [] : [notSupported(fldPath, effect, taintEffects)];
}

const tolerationOperators = ['Equal', 'Exists'];

export function validateTolerations(tolerations: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(tolerations).forEach((t, i) => {
    const idxPath = fldPath.index(i);
    const key = str(t['key']);
    const operator = str(t['operator']);
    const value = str(t['value']);
    const effect = str(t['effect']);
    if (key.length > 0) errs.push(...validateLabelName(key, idxPath.child('key')));
    // An empty key with Exists (and no value) tolerates every taint.
    if (key.length === 0 && operator !== 'Exists') {
      errs.push(invalid(idxPath.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t['tolerationSeconds']) && effect !== 'NoExecute') {
      errs.push(invalid(idxPath.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length > 0) errs.push(invalid(idxPath.child('operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value.length > 0) errs.push(invalid(idxPath.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(idxPath.child('operator'), operator, tolerationOperators));
    }
    if (effect.length > 0) errs.push(...validateTaintEffect(effect, true, idxPath.child('effect')));
  });
  return errs;
}
