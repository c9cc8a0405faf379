/** Which generated.proto message encodes a kind: its OpenAPI definition, renamed. */
import { kindLocation } from '../../engine/api/openapi';
import { parseApiVersion } from '../../engine/api/types';

/** Kinds of meta.k8s.io/v1 that typed clients send with a group's apiVersion (DeleteOptions). */
const META_KINDS = new Set(['DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'ListOptions', 'GetOptions']);

export function openapiKindDefinition(apiVersion: string, kind: string): string | undefined {
  if (META_KINDS.has(kind)) return `io.k8s.apimachinery.pkg.apis.meta.v1.${kind}`;
  const { group, version } = parseApiVersion(apiVersion);
  return kindLocation(group, version, kind)?.definition;
}
