/**
 * What the API server needs to serve one version of a CustomResourceDefinition: names, scope,
 * the structural schema (and the status part of it), the subresources, and the schema graph
 * the field manager reads. Built from the CRD object each time it is established or changed.
 */
import { schemaForKind, type SchemaNode } from '../../api/openapi';
import type { SchemaType } from '../../api/openapi/types';
import { dict } from '../../api/own';
import { isObject, type JsonObject } from '../../api/types';
import { structuralOf, type Structural } from './structural';

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath: string | undefined;
}

export interface CustomResourceVersion {
  /** The CRD's name, <plural>.<group>. */
  readonly crd: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly schema: Structural;
  readonly statusSubresource: boolean;
  readonly scale: ScalePaths | undefined;
  /** The schema graph of the whole object, apiVersion, kind and metadata included (server-side apply). */
  readonly schemaNode: SchemaNode;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Each served version of the CRD, as its accepted names describe it. */
export function customResourceVersions(crd: JsonObject): CustomResourceVersion[] {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const status = isObject(crd.status) ? crd.status : {};
  const names = isObject(status.acceptedNames) ? status.acceptedNames : {};
  const meta = isObject(crd.metadata) ? crd.metadata : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  return versions
    .filter((v) => v.served === true)
    .map((v) => {
      const schema = isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      const subresources = isObject(v.subresources) ? v.subresources : {};
      const scale = isObject(subresources.scale) ? subresources.scale : undefined;
      const structural = structuralOf(schema);
      return {
        crd: str(meta.name),
        group: str(spec.group),
        version: str(v.name),
        kind: str(names.kind),
        plural: str(names.plural),
        namespaced: spec.scope === 'Namespaced',
        schema: structural,
        statusSubresource: isObject(subresources.status),
        scale: scale && {
          specReplicasPath: str(scale.specReplicasPath),
          statusReplicasPath: str(scale.statusReplicasPath),
          labelSelectorPath: typeof scale.labelSelectorPath === 'string' ? scale.labelSelectorPath : undefined,
        },
        schemaNode: rootSchemaNode(structural),
      };
    });
}

const SCHEMA_TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

function schemaNodeOf(s: Structural): SchemaNode {
  const node: SchemaNode = {};
  if (SCHEMA_TYPES.has(s.type)) node.type = s.type as SchemaType;
  if (s.format) node.format = s.format;
  if (s.properties.size > 0) {
    const properties = dict<SchemaNode>();
    for (const [k, p] of s.properties) properties[k] = schemaNodeOf(p);
    node.properties = properties;
  }
  if (s.additionalProperties) node.additionalProperties = schemaNodeOf(s.additionalProperties);
  if (s.items) node.items = schemaNodeOf(s.items);
  if (s.required.length > 0) node.required = s.required;
  if (s.listType === 'atomic' || s.listType === 'set' || s.listType === 'map') node.listType = s.listType;
  if (s.listMapKeys.length > 0) node.listMapKeys = s.listMapKeys;
  if (s.mapType === 'atomic' || s.mapType === 'granular') node.mapType = s.mapType;
  if (s.preserveUnknownFields) node.preserveUnknownFields = true;
  if (s.embeddedResource) node.embeddedResource = true;
  if (s.intOrString) node.intOrString = true;
  if (s.default !== undefined) node.default = s.default;
  return node;
}

/** The root with the fields every object has: apiVersion, kind and ObjectMeta's metadata. */
function rootSchemaNode(s: Structural): SchemaNode {
  const node = schemaNodeOf(s);
  const metadata = schemaForKind('', 'v1', 'ConfigMap')?.properties?.metadata;
  const properties = Object.assign(dict<SchemaNode>(), node.properties);
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  if (metadata) properties.metadata = metadata;
  node.properties = properties;
  return node;
}
