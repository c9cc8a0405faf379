/**
 * LimitRange defaults for Container items: the default limit falls back to max, the default
 * request to the default limit, then to min. Quantities are canonicalised as everywhere.
 */
import type { JsonObject } from '../../../api/types';
import { jsonDefaulter, mapToFill, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultResourceList } from './resource-list';
import { setOwn } from '../../../api/own';

function fillMissing(target: JsonObject, from: JsonObject | undefined): void {
  for (const [name, value] of Object.entries(from ?? {})) {
    if (!Object.hasOwn(target, name) && value !== undefined) setOwn(target, name, value);
  }
}

export function defaultLimitRangeItem(item: JsonObject): void {
  if (item.type === 'Container') defaultContainerItem(item);
  for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
    defaultResourceList(item, key);
  }
}

function defaultContainerItem(item: JsonObject): void {
  const defaults = mapToFill(item, 'default');
  const defaultRequests = mapToFill(item, 'defaultRequest');
  if (!defaults || !defaultRequests) return;
  fillMissing(defaults, objectAt(item, 'max'));
  fillMissing(defaultRequests, defaults);
  fillMissing(defaultRequests, objectAt(item, 'min'));
  if (Object.keys(defaults).length > 0) item.default = defaults;
  if (Object.keys(defaultRequests).length > 0) item.defaultRequest = defaultRequests;
}

export function defaultLimitRange(limitRange: JsonObject): void {
  const spec = structAt(limitRange, 'spec');
  for (const item of spec ? objectsIn(spec, 'limits') : []) defaultLimitRangeItem(item);
}

registerDefaulter('', 'LimitRange', jsonDefaulter(defaultLimitRange));
