/** Deployment defaults: one replica, a 25%/25% rolling update, 10 old ReplicaSets, 600s to progress. */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, structAt } from '../fields';
import { defaultRollingUpdateStrategy } from './rolling-update';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultDeployment(deployment: JsonObject): void {
  const spec = structAt(deployment, 'spec');
  if (!spec) return;
  defaultNil(spec, 'replicas', 1);
  defaultRollingUpdateStrategy(spec, 'strategy', '25%', '25%');
  defaultNil(spec, 'revisionHistoryLimit', 10);
  defaultNil(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('apps', 'Deployment', jsonDefaulter(defaultDeployment));
