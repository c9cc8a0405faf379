/** Image pull policies, for containers and image volumes. */
import { notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { str } from './json';

const supportedPullPolicies = ['Always', 'IfNotPresent', 'Never'];

export function validatePullPolicy(policy: unknown, fldPath: Path): ErrorList {
  const p = str(policy);
  if (p === '') return [required(fldPath, '')];
  if (!supportedPullPolicies.includes(p)) return [notSupported(fldPath, p, supportedPullPolicies)];
  return [];
}
