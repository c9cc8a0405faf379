/**
 * kube-apiserver 1.35's default admission plugins that kubesim implements, in kube-apiserver's
 * order. Each phase runs them in this order: mutating first, validating after field validation.
 */
import { defaultIngressClass, defaultStorageClass } from './plugins/default-class';
import { defaultTolerationSeconds } from './plugins/default-toleration-seconds';
import { createLimitRanger } from './plugins/limit-ranger';
import { createNamespaceLifecycle } from './plugins/namespace-lifecycle';
import { podSecurity } from './podsecurity/plugin';
import type { PodSecurityConfiguration } from './podsecurity/config';
import { priority } from './plugins/priority';
import { serviceAccount } from './plugins/service-account';
import { storageObjectInUseProtection } from './plugins/storage-protection';
import { taintNodesByCondition } from './plugins/taint-nodes-by-condition';
import { validatingAdmissionPolicy } from './policy/plugin';
import { resourceQuota } from './resourcequota/plugin';
import type { AdmissionPlugin } from './types';

export interface AdmissionOptions {
  /** The PodSecurity plugin's configuration (--admission-control-config-file); default: privileged everywhere. */
  podSecurity?: PodSecurityConfiguration;
}

export function defaultAdmissionPlugins(options: AdmissionOptions = {}): AdmissionPlugin[] {
  return [
    createNamespaceLifecycle(),
    createLimitRanger(),
    serviceAccount,
    taintNodesByCondition,
    podSecurity(options.podSecurity),
    priority,
    defaultTolerationSeconds,
    defaultStorageClass,
    storageObjectInUseProtection,
    defaultIngressClass,
    validatingAdmissionPolicy(),
    resourceQuota(),
  ];
}
