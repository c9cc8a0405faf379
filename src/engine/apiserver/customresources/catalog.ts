/**
 * The custom resources the API server serves, as the apiextensions-apiserver's crdHandler keeps
 * them: for each established CRD, its served versions in the resource registry (so discovery,
 * kubectl and the request path see them), one etcd key space /registry/<group>/<plural> kept in
 * the storage version and served in every version, and per version the strategy and schema.
 */
import { customResourceInfos, type ResourceRegistry } from '../../api/registry';
import type { GroupVersionKind, JsonObject, KubeObject } from '../../api/types';
import type { Conversion } from '../conversion';
import type { ResourceInfo } from '../resources';
import type { ClusterStorage } from '../storage/cluster-storage';
import type { ResourceStorage } from '../storage/resource-storage';
import type { Strategy } from '../strategies/types';
import { customResourceVersions, type CustomResourceVersion } from './definition';
import { customResourceStrategy } from './strategy';

interface Served {
  /** What the serving depends on: the spec and accepted names (a change re-registers). */
  fingerprint: string;
  group: string;
  resource: string;
  infos: ResourceInfo[];
  versions: CustomResourceVersion[];
}

const key = (group: string, version: string, name: string): string => `${group}/${version}/${name}`;

/** None conversion: the object is the same in every version, only its apiVersion changes. */
function apiVersionConversion(storageApiVersion: string, servedApiVersion: string): Conversion {
  return {
    storageApiVersion,
    servedApiVersion,
    toStorage: (obj) => ({ ...obj, apiVersion: storageApiVersion }),
    fromStorage: (obj) => ({ ...obj, apiVersion: servedApiVersion }),
  };
}

function storageVersionOf(crd: KubeObject): string {
  const spec = crd.spec as { versions?: { name?: string; storage?: boolean }[] } | undefined;
  return spec?.versions?.find((v) => v.storage === true)?.name ?? '';
}

export class CustomResources {
  private readonly byCrd = new Map<string, Served>();
  private readonly byKind = new Map<string, CustomResourceVersion>();
  private readonly byResource = new Map<string, CustomResourceVersion>();
  private readonly strategies = new Map<string, Strategy>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly storage: ClusterStorage,
    /** Told of each key space that starts being served (the server records its revisions). */
    private readonly onStorage: (s: ResourceStorage) => void,
  ) {}

  forKind(gvk: GroupVersionKind): CustomResourceVersion | undefined {
    return this.byKind.get(key(gvk.group, gvk.version, gvk.kind));
  }

  forResource(r: { group: string; version: string; resource: string }): CustomResourceVersion | undefined {
    return this.byResource.get(key(r.group, r.version, r.resource));
  }

  strategy(r: { group: string; version: string; resource: string }): Strategy | undefined {
    return this.strategies.get(key(r.group, r.version, r.resource));
  }

  /** Serves (or re-serves, after a change) the CRD's versions; idempotent. */
  async serve(crd: KubeObject): Promise<void> {
    const name = crd.metadata.name ?? '';
    const status = (crd.status ?? {}) as Record<string, unknown>;
    const fingerprint = JSON.stringify([crd.metadata.uid, crd.spec, status.acceptedNames]);
    const current = this.byCrd.get(name);
    if (current?.fingerprint === fingerprint) return;
    if (current) await this.unserve(name);
    const infos = customResourceInfos(crd as JsonObject);
    const versions = customResourceVersions(crd as JsonObject);
    const first = infos[0];
    if (!first) return;
    const storageVersion = storageVersionOf(crd);
    const owner: ResourceInfo = { ...first, version: storageVersion };
    const storageApiVersion = `${first.group}/${storageVersion}`;
    const added = await this.storage.addCustom(
      owner,
      infos.map((info) => ({ info, conversion: apiVersionConversion(storageApiVersion, `${info.group}/${info.version}`) })),
    );
    this.onStorage(added);
    for (const v of versions) {
      this.byKind.set(key(v.group, v.version, v.kind), v);
      this.byResource.set(key(v.group, v.version, v.plural), v);
      this.strategies.set(key(v.group, v.version, v.plural), customResourceStrategy(v));
    }
    for (const info of infos) this.registry.register(info);
    this.byCrd.set(name, { fingerprint, group: first.group, resource: first.resource, infos, versions });
  }

  /** Stops serving the CRD's resource: registry entries, storage and watch cache go. */
  async unserve(name: string): Promise<void> {
    const served = this.byCrd.get(name);
    if (!served) return;
    this.byCrd.delete(name);
    for (const info of served.infos) this.registry.unregister(info.group, info.version, info.resource);
    for (const v of served.versions) {
      this.byKind.delete(key(v.group, v.version, v.kind));
      this.byResource.delete(key(v.group, v.version, v.plural));
      this.strategies.delete(key(v.group, v.version, v.plural));
    }
    await this.storage.removeCustom(served.group, served.resource);
  }
}
