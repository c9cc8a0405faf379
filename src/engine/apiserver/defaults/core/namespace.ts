/**
 * Namespace defaults: the immutable kubernetes.io/metadata.name label (not for generateName-only
 * namespaces: the registry strategy labels those once named) and phase Active.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, jsonDefaulter, mapToFill, metadataOf, structAt } from '../fields';
import { registerDefaulter } from '../registry';

export const namespaceNameLabel = 'kubernetes.io/metadata.name';

export function defaultNamespace(namespace: JsonObject): void {
  const meta = metadataOf(namespace);
  if (meta && typeof meta.name === 'string' && meta.name !== '') {
    const labels = mapToFill(meta, 'labels');
    if (labels) {
      labels[namespaceNameLabel] = meta.name;
      meta.labels = labels;
    }
  }
  const status = structAt(namespace, 'status');
  if (status) defaultEmptyString(status, 'phase', 'Active');
}

registerDefaulter('', 'Namespace', jsonDefaulter(defaultNamespace));
