/**
 * CustomResourceDefinition defaults (apiextensions.k8s.io/v1): singular and list kind names from
 * the kind, no conversion, webhook services on port 443, and the storage version recorded as
 * stored.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isEmpty, isEmptyString, jsonDefaulter, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';

const defaultServicePort = 443;

export function defaultCustomResourceDefinition(crd: JsonObject): void {
  const spec = structAt(crd, 'spec');
  if (!spec) return;
  const names = structAt(spec, 'names');
  if (names) {
    const kind = typeof names.kind === 'string' ? names.kind : '';
    if (isEmptyString(names.singular)) names.singular = kind.toLowerCase();
    if (isEmptyString(names.listKind) && kind !== '') names.listKind = `${kind}List`;
  }
  defaultNil(spec, 'conversion', { strategy: 'None' });
  const conversion = objectAt(spec, 'conversion');
  const webhook = conversion && objectAt(conversion, 'webhook');
  const clientConfig = webhook && objectAt(webhook, 'clientConfig');
  const service = clientConfig && objectAt(clientConfig, 'service');
  if (service) defaultNil(service, 'port', defaultServicePort);

  const status = structAt(crd, 'status');
  if (status && isEmpty(status.storedVersions)) {
    const storage = objectsIn(spec, 'versions').find((v) => v.storage === true);
    if (storage && typeof storage.name === 'string') status.storedVersions = [storage.name];
  }
}

registerDefaulter('apiextensions.k8s.io', 'CustomResourceDefinition', jsonDefaulter(defaultCustomResourceDefinition));
