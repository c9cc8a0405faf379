/**
 * Lease rules (pkg/apis/coordination/validation). Node heartbeats and leader election both write
 * Leases; only the numbers and the coordinated-election strategy are checked.
 */
import { forbidden, invalid, notSupported, Path, type ErrorList } from '../../../api/field';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { num, obj, str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';

const validLeaseStrategies = ['OldestEmulationVersion'];

/**
 * ValidateCoordinatedLeaseStrategy: a built-in strategy name or a domain-qualified one. Upstream
 * appends "strategy" to a path that already ends in it, so the error reads spec.strategy.strategy.
 */
function validateCoordinatedLeaseStrategy(strategy: string, fldPath: Path): ErrorList {
  const p = fldPath.child('strategy');
  if (!strategy.includes('/')) {
    return validLeaseStrategies.includes(strategy) ? [] : [notSupported(p, strategy, validLeaseStrategies)];
  }
  return isQualifiedName(strategy).map((msg) => invalid(p, strategy, msg));
}

function validateLeaseSpec(spec: unknown, fldPath: Path): ErrorList {
  const s = obj(spec) ?? {};
  const errs: ErrorList = [];
  const duration = num(s['leaseDurationSeconds']);
  if (duration !== undefined && duration <= 0) errs.push(invalid(fldPath.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = num(s['leaseTransitions']);
  if (transitions !== undefined && transitions < 0) {
    errs.push(invalid(fldPath.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  const strategy = s['strategy'];
  if (typeof strategy === 'string') errs.push(...validateCoordinatedLeaseStrategy(strategy, fldPath.child('strategy')));
  if (str(s['preferredHolder']) !== '' && str(strategy) === '') {
    errs.push(forbidden(fldPath.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

registerValidator('coordination.k8s.io', 'Lease', {
  create: (lease: KubeObject) => [
    ...validateObjectMeta(lease.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateLeaseSpec(lease['spec'], Path.root('spec')),
  ],
  update: (lease, old) => [
    ...validateObjectMetaUpdate(lease.metadata, old.metadata, Path.root('metadata')),
    ...validateLeaseSpec(lease['spec'], Path.root('spec')),
  ],
});
