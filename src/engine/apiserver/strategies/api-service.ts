/**
 * APIServices (kube-aggregator pkg/registry/apiservice): status is the status subresource's; a
 * local APIService (no spec.service: served by kube-apiserver itself) is created Available.
 */
import { isObject } from '../../api/types';
import type { ResourceInfo } from '../resources';
import { genericStrategy } from './generic';
import type { Strategy } from './types';

/** NewLocalAvailableAPIServiceCondition. */
export const LOCAL_AVAILABLE = { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' } as const;

export function apiServiceStrategy(type: ResourceInfo): Strategy {
  const base = genericStrategy(type);
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate(obj, ctx);
      const spec = isObject(obj.spec) ? obj.spec : {};
      if (spec.service === undefined || spec.service === null) obj.status = { conditions: [{ ...LOCAL_AVAILABLE, lastTransitionTime: ctx.clock.rfc3339() }] };
    },
  };
}
