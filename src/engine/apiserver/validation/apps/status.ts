import { invalid, type ErrorList, type Path } from '../../../api/field';
import { int, type Obj } from '../core/json';
import { own } from '../../../api/own';

/**
 * The status counters no workload may report above status.replicas, and availableReplicas above
 * the ready count; `readyName` is how the kind's message names the ready field.
 */
export function validateReplicaCounts(status: Obj, boundedByReplicas: string[], readyName: string, fldPath: Path): ErrorList {
  const replicas = int(status['replicas']);
  const errs: ErrorList = [];
  for (const f of boundedByReplicas) {
    if (int(own(status, f)) > replicas) errs.push(invalid(fldPath.child(f), int(own(status, f)), 'cannot be greater than status.replicas'));
  }
  const available = int(status['availableReplicas']);
  if (available > int(status['readyReplicas'])) errs.push(invalid(fldPath.child('availableReplicas'), available, `cannot be greater than ${readyName}`));
  return errs;
}
