/** admission.NewForbidden: errors named after the object being admitted. */
import { forbiddenError, type StatusError } from '../../api/status';
import type { AdmissionAttributes } from './types';

/**
 * The name an admission error shows: the request's name, else the object's name or
 * generateName (names are generated after admission), else "Unknown".
 */
function admittedName(a: AdmissionAttributes): string {
  if (a.name) return a.name;
  const meta = a.object?.metadata;
  if (!meta) return 'Unknown';
  return meta.name || meta.generateName || 'Unknown';
}

export function admissionForbidden(a: AdmissionAttributes, reason: string): StatusError {
  return forbiddenError({ group: a.group, name: a.resource }, admittedName(a), reason);
}
