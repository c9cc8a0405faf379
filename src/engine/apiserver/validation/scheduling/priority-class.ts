/**
 * PriorityClass rules (pkg/apis/scheduling/validation). Names starting with "system-" belong to
 * the two classes the apiserver bootstraps, and user classes stay below the system range.
 */
import { forbidden, Path, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { bool, int, str } from '../core/json';
import { validatePreemptionPolicy } from '../core/podspec';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';

const highestUserDefinablePriority = 1_000_000_000;
const systemCriticalPriority = 2 * highestUserDefinablePriority;
const systemPriorityClassPrefix = 'system-';

const systemPriorityClasses = [
  { name: 'system-node-critical', value: systemCriticalPriority + 1000, globalDefault: false },
  { name: 'system-cluster-critical', value: systemCriticalPriority, globalDefault: false },
];

/** IsKnownSystemPriorityClass: why a system- class is not one of the bootstrapped ones. */
function unknownSystemClassReason(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = systemPriorityClasses.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (known.globalDefault !== globalDefault) return `globalDefault of ${known.name} PriorityClass must be ${known.globalDefault}`;
  return undefined;
}

function validatePriorityClass(pc: KubeObject): ErrorList {
  const errs = validateObjectMeta(pc.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  const name = str(pc.metadata.name);
  const value = int(pc['value']);
  if (name.startsWith(systemPriorityClassPrefix)) {
    const reason = unknownSystemClassReason(name, value, bool(pc['globalDefault']));
    if (reason !== undefined) {
      errs.push(
        forbidden(
          Path.root('metadata', 'name'),
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${reason}`,
        ),
      );
    }
  } else if (value > highestUserDefinablePriority) {
    errs.push(forbidden(Path.root('value'), `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  const policy = pc['preemptionPolicy'];
  if (policy !== undefined && policy !== null) errs.push(...validatePreemptionPolicy(policy, Path.root('preemptionPolicy')));
  return errs;
}

function validatePriorityClassUpdate(pc: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata, Path.root('metadata'));
  if (int(pc['value']) !== int(old['value'])) errs.push(forbidden(Path.root('value'), 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc['preemptionPolicy'] ?? null, old['preemptionPolicy'] ?? null, Path.root('preemptionPolicy')));
  return errs;
}

registerValidator('scheduling.k8s.io', 'PriorityClass', {
  create: validatePriorityClass,
  update: validatePriorityClassUpdate,
});
