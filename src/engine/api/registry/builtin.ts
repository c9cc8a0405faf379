/** The built-in resources: the OpenAPI-derived table joined with the hand-kept ones. */
import { CATEGORIES } from './categories';
import { OPENAPI_RESOURCES } from './openapi-resources.generated';
import { SHORT_NAMES } from './short-names';
import { storagePrefixFor } from './storage-keys';
import type { ResourceInfo } from './types';

export function groupResourceKey(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export const BUILTIN_RESOURCES: readonly ResourceInfo[] = OPENAPI_RESOURCES.map((r) => {
  const key = groupResourceKey(r.group, r.resource);
  const info: ResourceInfo = {
    ...r,
    singular: r.kind.toLowerCase(),
    shortNames: [...(SHORT_NAMES[key] ?? [])],
    categories: [...(CATEGORIES[key] ?? [])],
  };
  const prefix = storagePrefixFor(key, r.resource);
  if (prefix !== undefined) info.storagePrefix = prefix;
  return info;
});
