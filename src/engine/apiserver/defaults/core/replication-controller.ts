/**
 * ReplicationController defaults: the selector and the controller's own labels come from the
 * template's labels when unset (a map left empty is invisible on the wire, so an empty label map
 * copies nothing); replicas defaults to 1.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isEmpty, jsonDefaulter, metadataOf, objectAt, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultOptionalPodTemplateIn } from './pod-spec';

export function defaultReplicationController(rc: JsonObject): void {
  const spec = structAt(rc, 'spec');
  if (!spec) return;
  const template = objectAt(spec, 'template');
  const templateMeta = template && objectAt(template, 'metadata');
  const labels = templateMeta && objectAt(templateMeta, 'labels');
  if (labels && !isEmpty(labels)) {
    if (isEmpty(spec.selector)) spec.selector = { ...labels };
    const meta = metadataOf(rc);
    if (meta && isEmpty(meta.labels)) meta.labels = { ...labels };
  }
  defaultNil(spec, 'replicas', 1);
  defaultOptionalPodTemplateIn(spec, 'template');
}

registerDefaulter('', 'ReplicationController', jsonDefaulter(defaultReplicationController));
