/**
 * StatefulSet defaults. As upstream, a rollingUpdate block is only created when the strategy
 * type itself was defaulted; an explicit RollingUpdate without the block stays without it.
 * maxUnavailable defaults to 1 because MaxUnavailableStatefulSet is on in 1.35. Claim templates
 * are PersistentVolumeClaims and get all claim defaults (volumeMode, status.phase Pending), plus
 * the apiVersion and kind that kube-apiserver's apps/v1 conversion writes into each of them (so
 * they show up in every read, which is why tools diffing manifests ask users to spell them out).
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, isEmptyString, jsonDefaulter, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPersistentVolumeClaim } from '../core/persistent-volume-claim';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultStatefulSet(statefulSet: JsonObject): void {
  const spec = structAt(statefulSet, 'spec');
  if (!spec) return;
  defaultEmptyString(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = structAt(spec, 'updateStrategy');
  if (strategy) {
    if (isEmptyString(strategy.type)) {
      strategy.type = 'RollingUpdate';
      defaultNil(strategy, 'rollingUpdate', {});
    }
    const rollingUpdate = objectAt(strategy, 'rollingUpdate');
    if (strategy.type === 'RollingUpdate' && rollingUpdate) {
      defaultNil(rollingUpdate, 'partition', 0);
      defaultNil(rollingUpdate, 'maxUnavailable', 1);
    }
  }
  defaultNil(spec, 'persistentVolumeClaimRetentionPolicy', {});
  const retention = objectAt(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention) {
    defaultEmptyString(retention, 'whenDeleted', 'Retain');
    defaultEmptyString(retention, 'whenScaled', 'Retain');
  }
  defaultNil(spec, 'replicas', 1);
  defaultNil(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateIn(spec, 'template');
  for (const claim of objectsIn(spec, 'volumeClaimTemplates')) {
    defaultEmptyString(claim, 'apiVersion', 'v1');
    defaultEmptyString(claim, 'kind', 'PersistentVolumeClaim');
    defaultPersistentVolumeClaim(claim);
  }
}

registerDefaulter('apps', 'StatefulSet', jsonDefaulter(defaultStatefulSet));
