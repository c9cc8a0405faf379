/** Deployment defaults: one replica, a 25%/25% rolling update, 10 old ReplicaSets, 600s to progress. */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultDeployment(deployment: JsonObject): void {
  const spec = structAt(deployment, 'spec');
  if (!spec) return;
  defaultNil(spec, 'replicas', 1);
  const strategy = structAt(spec, 'strategy');
  if (strategy) {
    defaultEmptyString(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const rollingUpdate = structAt(strategy, 'rollingUpdate');
      if (rollingUpdate) {
        defaultNil(rollingUpdate, 'maxUnavailable', '25%');
        defaultNil(rollingUpdate, 'maxSurge', '25%');
      }
    }
  }
  defaultNil(spec, 'revisionHistoryLimit', 10);
  defaultNil(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('apps', 'Deployment', jsonDefaulter(defaultDeployment));
