/**
 * PersistentVolumeClaimSpec defaults, wherever a claim spec appears: claims, StatefulSet claim
 * templates and ephemeral volume claim templates.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, objectAt, structAt } from '../fields';
import { defaultResourceList } from './resource-list';

/** Takes the object holding the spec (a claim or a claim template). */
export function defaultPersistentVolumeClaimSpec(holder: JsonObject): void {
  const spec = structAt(holder, 'spec');
  if (!spec) return;
  defaultNil(spec, 'volumeMode', 'Filesystem');
  const resources = objectAt(spec, 'resources');
  if (!resources) return;
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
}
