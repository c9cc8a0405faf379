/** Node defaults: a node reporting capacity but no allocatable can allocate all of it. */
import type { JsonObject } from '../../../api/types';
import { isNil, jsonDefaulter, objectAt, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultResourceList } from './resource-list';

export function defaultNode(node: JsonObject): void {
  const status = structAt(node, 'status');
  if (!status) return;
  const capacity = objectAt(status, 'capacity');
  if (capacity && isNil(status.allocatable)) status.allocatable = { ...capacity };
  defaultResourceList(status, 'capacity');
  defaultResourceList(status, 'allocatable');
}

registerDefaulter('', 'Node', jsonDefaulter(defaultNode));
