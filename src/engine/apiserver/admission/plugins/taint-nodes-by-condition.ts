/**
 * TaintNodesByCondition: a node registers as not ready (node.kubernetes.io/not-ready:NoSchedule)
 * until the node lifecycle controller sees its Ready condition.
 */
import { isObject, type JsonObject } from '../../../api/types';
import type { AdmissionPlugin } from '../types';

const NOT_READY_TAINT = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  handles: (a) => a.operation === 'CREATE' && a.group === '' && a.resource === 'nodes' && a.subresource === '',
  admit(a) {
    if (!a.object) return;
    const spec = isObject(a.object.spec) ? a.object.spec : {};
    const taints = Array.isArray(spec.taints) ? spec.taints : [];
    if (taints.some((t) => isObject(t) && t.key === NOT_READY_TAINT.key && t.effect === NOT_READY_TAINT.effect)) return;
    spec.taints = [...taints, { ...NOT_READY_TAINT } as JsonObject];
    a.object.spec = spec;
    return 'added taint node.kubernetes.io/not-ready:NoSchedule';
  },
};
