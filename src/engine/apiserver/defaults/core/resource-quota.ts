import type { JsonObject } from '../../../api/types';
import { jsonDefaulter, objectAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultResourceList } from './resource-list';

export function defaultResourceQuota(quota: JsonObject): void {
  const spec = objectAt(quota, 'spec');
  if (spec) defaultResourceList(spec, 'hard');
  const status = objectAt(quota, 'status');
  if (status) {
    defaultResourceList(status, 'hard');
    defaultResourceList(status, 'used');
  }
}

registerDefaulter('', 'ResourceQuota', jsonDefaulter(defaultResourceQuota));
