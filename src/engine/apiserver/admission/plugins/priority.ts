/**
 * Priority: a pod's priorityClassName resolves to spec.priority and spec.preemptionPolicy (the
 * global default class, or 0 and PreemptLowerPriority without one); only one PriorityClass may be
 * the global default.
 */
import { isObject, type KubeObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import { isPod, type AdmissionAttributes, type AdmissionContext, type AdmissionPlugin } from '../types';

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

const isPriorityClass = (a: AdmissionAttributes): boolean =>
  a.group === PRIORITY_CLASSES.group && a.resource === PRIORITY_CLASSES.resource && a.subresource === '';

/** The global default class with the lowest value, as a race could leave several (from the informer, as upstream's lister). */
function defaultClass(ctx: AdmissionContext): KubeObject | undefined {
  let best: KubeObject | undefined;
  for (const pc of ctx.reader.cached(PRIORITY_CLASSES)) {
    if (pc.globalDefault !== true) continue;
    if (!best || (best.value as number) > (pc.value as number)) best = pc;
  }
  return best;
}

export const priority: AdmissionPlugin = {
  name: 'Priority',
  handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && (isPod(a) || isPriorityClass(a)),
  async admit(a, ctx) {
    if (!isPod(a) || !a.object) return;
    const spec = isObject(a.object.spec) ? a.object.spec : {};
    a.object.spec = spec;
    if (a.operation === 'UPDATE') {
      const old = isObject(a.oldObject?.spec) ? a.oldObject.spec : {};
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    let value: number;
    let policy: string | undefined;
    const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
    if (className === '') {
      const pc = defaultClass(ctx);
      value = typeof pc?.value === 'number' ? pc.value : 0;
      policy = pc ? (typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined) : 'PreemptLowerPriority';
      if (pc?.metadata.name) spec.priorityClassName = pc.metadata.name;
    } else {
      const pc = ctx.reader.cached(PRIORITY_CLASSES).find((c) => c.metadata.name === className);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
      value = typeof pc.value === 'number' ? pc.value : 0;
      policy = typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined;
    }
    if (typeof spec.priority === 'number' && spec.priority !== value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    spec.priority = value;
    if (policy !== undefined) {
      if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(
          a,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = policy;
    }
    return `priority ${value}${spec.priorityClassName ? ` from PriorityClass ${String(spec.priorityClassName)}` : ''}`;
  },
  async validate(a, ctx) {
    if (!isPriorityClass(a) || !a.object) return;
    if (a.object.globalDefault !== true) return;
    const current = await defaultClass(ctx);
    if (!current) return;
    if (a.operation === 'CREATE' || current.metadata.name !== a.object.metadata.name) {
      throw admissionForbidden(a, `PriorityClass ${current.metadata.name ?? ''} is already marked as default. Only one default can exist`);
    }
  },
};
