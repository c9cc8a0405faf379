export { SharedInformerFactory, type InformerFilter, type SharedInformerFactoryOptions } from './factory';
export { SharedIndexInformer, type EventHandler, type HandlerRegistration, type SharedInformerOptions } from './shared-informer';
export { Indexer } from './indexer';
export {
  LABELS_INDEX,
  labelIndexValue,
  labelsIndexFunc,
  NAMESPACE_INDEX,
  namespaceIndexFunc,
  NODE_NAME_INDEX,
  nodeNameIndexFunc,
  OWNER_UID_INDEX,
  ownerUidIndexFunc,
  type IndexFunc,
} from './indexers';
export { DeletedFinalStateUnknown, deletedObject, deletionHandlingKey, metaNamespaceKey, splitMetaNamespaceKey } from './keys';
export { Reflector, type ReflectorSink } from './reflector';
