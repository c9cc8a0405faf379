import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultReplicaSet(replicaSet: JsonObject): void {
  const spec = structAt(replicaSet, 'spec');
  if (!spec) return;
  defaultNil(spec, 'replicas', 1);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('apps', 'ReplicaSet', jsonDefaulter(defaultReplicaSet));
