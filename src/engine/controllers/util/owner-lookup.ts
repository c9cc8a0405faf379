/**
 * From a dependent to its controllers in an informer cache, as every controller's event handlers
 * do it: the one its controllerRef names (resolveControllerRef: found by name, and only if it is
 * the object with that uid), or, for an orphan, each controller whose selector matches it and so
 * may adopt it.
 */
import { labelSelectorAsSelector, type LabelSelector } from '../../api/labels';
import type { KubeObject } from '../../api/types';
import type { Indexer } from '../../client/informer';
import { controllerOf } from './controller-ref-manager';

/** The cached object a reference names, if it is still the one with that uid (not a namesake created since). */
export function cachedOwner<T extends KubeObject>(indexer: Indexer<T>, namespace: string, ref: { name: string; uid: string }): T | undefined {
  const owner = indexer.getByName(namespace, ref.name);
  return owner?.metadata.uid === ref.uid ? owner : undefined;
}

/** The controller of `kind` that the object's controllerRef names (resolveControllerRef). */
export function cachedController<T extends KubeObject>(indexer: Indexer<T>, kind: string, obj: KubeObject): T | undefined {
  const ref = controllerOf(obj);
  return ref?.kind === kind ? cachedOwner(indexer, obj.metadata.namespace ?? '', ref) : undefined;
}

/** The controllers in the object's namespace whose selector, valid and not empty, matches its labels. */
export function controllersSelecting<T extends KubeObject & { spec: { selector?: LabelSelector | null } }>(indexer: Indexer<T>, obj: KubeObject): T[] {
  return indexer.listNamespace(obj.metadata.namespace ?? '').filter((c) => {
    const selector = labelSelectorAsSelector(c.spec.selector);
    return selector.ok && !selector.value.empty() && selector.value.matches(obj.metadata.labels ?? {});
  });
}
