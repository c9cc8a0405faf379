/**
 * Pods (pkg/registry/core/pod/strategy.go): the API server sets phase Pending and the QoS class
 * on create, tracks generation, and deletes gracefully: a scheduled, running pod gets
 * deletionTimestamp = now + grace period and is removed later by its kubelet.
 */
import { isObject } from '../../api/types';
import type { ResourceInfo } from '../resources';
import { genericStrategy } from './generic';
import { podQOSClass } from './pod-qos';
import type { Strategy } from './types';

export function podStrategy(type: ResourceInfo): Strategy {
  const base = genericStrategy(type, { generation: true, returnDeletedObject: true });
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate(obj, ctx);
      obj.status = { phase: 'Pending', qosClass: podQOSClass(isObject(obj.spec) ? obj.spec : undefined) };
    },
    gracePeriod(obj, requested) {
      const spec = isObject(obj.spec) ? obj.spec : {};
      const status = isObject(obj.status) ? obj.status : {};
      let period = requested ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
      // An unscheduled pod has no kubelet to wait for; a finished one has nothing left to stop.
      if (!spec.nodeName) period = 0;
      if (status.phase === 'Failed' || status.phase === 'Succeeded') period = 0;
      return period < 0 ? 1 : period;
    },
  };
}
