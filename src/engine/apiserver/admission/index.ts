/**
 * kube-apiserver 1.35's default admission plugins that kubesim implements, in kube-apiserver's
 * order. Each phase runs them in this order: mutating first, validating after field validation.
 */
import { defaultIngressClass, defaultStorageClass } from './plugins/default-class';
import { defaultTolerationSeconds } from './plugins/default-toleration-seconds';
import { limitRanger } from './plugins/limit-ranger';
import { namespaceLifecycle } from './plugins/namespace-lifecycle';
import { priority } from './plugins/priority';
import { serviceAccount } from './plugins/service-account';
import { storageObjectInUseProtection } from './plugins/storage-protection';
import { taintNodesByCondition } from './plugins/taint-nodes-by-condition';
import { resourceQuota } from './resourcequota/plugin';
import type { AdmissionPlugin } from './types';

export function defaultAdmissionPlugins(): AdmissionPlugin[] {
  return [
    namespaceLifecycle,
    limitRanger,
    serviceAccount,
    taintNodesByCondition,
    priority,
    defaultTolerationSeconds,
    defaultStorageClass,
    storageObjectInUseProtection,
    defaultIngressClass,
    resourceQuota(),
  ];
}
