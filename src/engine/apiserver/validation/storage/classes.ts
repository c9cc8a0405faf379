/**
 * Provisioner and parameter checks shared by StorageClass and VolumeAttributesClass
 * (pkg/apis/storage/validation).
 */
import { invalid, required, tooLong, type ErrorList, type Path } from '../../../api/field';
import { isQualifiedName } from '../../../api/names';
import { entries, str } from '../core/json';

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;

export function validateProvisioner(provisioner: string, fldPath: Path): ErrorList {
  if (provisioner.length === 0) return [required(fldPath, provisioner)];
  return isQualifiedName(provisioner.toLowerCase()).map((msg) => invalid(fldPath, provisioner.toLowerCase(), msg));
}

/** Keys must be non-empty and the whole map stay under 256kB. */
export function validateParameters(params: unknown, allowEmpty: boolean, fldPath: Path): ErrorList {
  const list = entries(params);
  if (list.length > maxProvisionerParameterLen) return [tooLong(fldPath, maxProvisionerParameterLen)];
  const errs: ErrorList = [];
  let total = 0;
  for (const [k, v] of list) {
    if (k.length < 1) errs.push(invalid(fldPath, k, 'field can not be empty.'));
    total += Buffer.byteLength(k) + Buffer.byteLength(str(v));
  }
  if (total > maxProvisionerParameterSize) errs.push(tooLong(fldPath, maxProvisionerParameterSize));
  if (!allowEmpty && list.length === 0) errs.push(required(fldPath, 'must contain at least one key/value pair'));
  return errs;
}

export const parametersEqual = (a: unknown, b: unknown): boolean => {
  const x = entries(a);
  const y = entries(b);
  return x.length === y.length && x.every(([k, v], i) => y[i]?.[0] === k && str(y[i]?.[1]) === str(v));
};

