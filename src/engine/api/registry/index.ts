export { ResourceRegistry } from './registry';
export { BUILTIN_RESOURCES, groupResourceKey } from './builtin';
export { noKindMatchMessage, unknownResourceTypeMessage } from './errors';
export { ETCD_PREFIX, storageKey, storageListPrefix } from './storage-keys';
export type { ResourceInfo, Subresource } from './types';
export { customResourceInfos } from './custom-resources';
