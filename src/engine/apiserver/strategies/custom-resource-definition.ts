/**
 * The CustomResourceDefinition strategy (apiextensions-apiserver pkg/registry/
 * customresourcedefinition): a new CRD starts with a status that records only its storage
 * version; updates keep the status (the controllers own it), bump generation on spec changes and
 * add a new storage version to status.storedVersions.
 */
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import { cloneJson } from '../patch/govalue';
import type { ResourceInfo } from '../resources';
import { semanticEqual } from '../validation/meta';
import { genericStrategy } from './generic';
import type { Strategy } from './types';

function storageVersion(crd: KubeObject): string | undefined {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  const v = versions.find((x) => x.storage === true);
  return v && typeof v.name === 'string' ? v.name : undefined;
}

function recordStoredVersion(crd: KubeObject): void {
  const version = storageVersion(crd);
  if (version === undefined) return;
  const status: JsonObject = isObject(crd.status) ? crd.status : {};
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  if (!stored.includes(version)) crd.status = { ...status, storedVersions: [...stored, version] };
}

export function customResourceDefinitionStrategy(type: ResourceInfo): Strategy {
  return {
    ...genericStrategy(type, { generation: true }),
    prepareForCreate(obj) {
      obj.status = {};
      obj.metadata.generation = 1;
      recordStoredVersion(obj);
    },
    prepareForUpdate(obj, old) {
      if (old.status === undefined) delete obj.status;
      else obj.status = cloneJson(old.status as JsonValue);
      if (!semanticEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      recordStoredVersion(obj);
    },
  };
}
