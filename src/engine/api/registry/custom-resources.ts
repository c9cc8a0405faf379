/**
 * The resources a CustomResourceDefinition makes kube-apiserver serve (apiextensions-apiserver's
 * crdHandler and discovery): one per served version, named by the CRD's accepted names, with the
 * status and scale subresources the version declares, stored under /registry/<group>/<plural>.
 */
import { isObject, type JsonObject } from '../types';
import type { ResourceInfo, Subresource } from './types';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** A served version's subresources: the version's own, as spec.versions[*].subresources declares them. */
function subresourcesOf(group: string, version: string, kind: string, declared: JsonObject): Subresource[] {
  const out: Subresource[] = [];
  if (isObject(declared.status)) out.push({ name: 'status', group, version, kind, verbs: SUBRESOURCE_VERBS });
  if (isObject(declared.scale)) out.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS });
  return out;
}

/** The served versions of a CRD as registry entries (none until its names are accepted). */
export function customResourceInfos(crd: JsonObject): ResourceInfo[] {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const status = isObject(crd.status) ? crd.status : {};
  const names = isObject(status.acceptedNames) ? status.acceptedNames : {};
  const group = str(spec.group);
  const resource = str(names.plural);
  const kind = str(names.kind);
  if (!group || !resource || !kind) return [];
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  return versions
    .filter((v) => v.served === true)
    .map((v) => ({
      group,
      version: str(v.name),
      kind,
      listKind: str(names.listKind) || `${kind}List`,
      resource,
      namespaced: spec.scope === 'Namespaced',
      verbs: VERBS,
      subresources: subresourcesOf(group, str(v.name), kind, isObject(v.subresources) ? v.subresources : {}),
      singular: str(names.singular) || kind.toLowerCase(),
      shortNames: strs(names.shortNames),
      categories: strs(names.categories),
      storagePrefix: `${group}/${resource}`,
    }));
}
