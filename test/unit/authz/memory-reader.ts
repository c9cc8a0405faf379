/**
 * A tiny ObjectReader for authorization tests: objects kept per resource in key order, frozen and
 * shared like the watch cache's, so a list that did not change has the same elements.
 */
import type { KubeObject } from '../../../src/engine/api/types';
import type { CachedEvent, GroupResource, ObjectReader } from '../../../src/engine/apiserver/storage/reader';
import type { UserInfo } from '../../../src/engine/apiserver/authn/user';
import type { Attributes } from '../../../src/engine/apiserver/authz/types';

const RESOURCES: Record<string, GroupResource> = {
  ClusterRole: { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  ClusterRoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
  Role: { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  RoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  Pod: { group: '', resource: 'pods' },
  PersistentVolume: { group: '', resource: 'persistentvolumes' },
  VolumeAttachment: { group: 'storage.k8s.io', resource: 'volumeattachments' },
  ResourceSlice: { group: 'resource.k8s.io', resource: 'resourceslices' },
};

const grKey = (r: GroupResource): string => `${r.group}/${r.resource}`;
const objKey = (namespace: string, name: string): string => `${namespace}/${name}`;

export class MemoryReader implements ObjectReader {
  private readonly byResource = new Map<string, Map<string, KubeObject>>();
  private readonly followers = new Map<string, ((event: CachedEvent) => void)[]>();
  cachedCalls = 0;

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.put(o);
  }

  put(obj: KubeObject): this {
    const r = RESOURCES[obj.kind];
    if (!r) throw new Error(`test reader: unknown kind ${obj.kind}`);
    let m = this.byResource.get(grKey(r));
    if (!m) this.byResource.set(grKey(r), (m = new Map()));
    const key = objKey(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
    const existed = m.has(key);
    const frozen = Object.freeze(structuredClone(obj));
    m.set(key, frozen);
    this.notify(r, { type: existed ? 'MODIFIED' : 'ADDED', object: frozen });
    return this;
  }

  remove(kind: string, namespace: string, name: string): this {
    const r = RESOURCES[kind]!;
    const m = this.byResource.get(grKey(r));
    const old = m?.get(objKey(namespace, name));
    m?.delete(objKey(namespace, name));
    if (old) this.notify(r, { type: 'DELETED', object: old });
    return this;
  }

  follow(r: GroupResource, listener: (event: CachedEvent) => void): () => void {
    for (const object of this.byResource.get(grKey(r))?.values() ?? []) listener({ type: 'ADDED', object });
    const list = this.followers.get(grKey(r)) ?? [];
    list.push(listener);
    this.followers.set(grKey(r), list);
    return () => list.splice(list.indexOf(listener), 1);
  }

  private notify(r: GroupResource, event: CachedEvent): void {
    for (const l of this.followers.get(grKey(r)) ?? []) l(event);
  }

  cached(r: GroupResource, namespace = ''): KubeObject[] {
    this.cachedCalls++;
    const m = this.byResource.get(grKey(r)) ?? new Map<string, KubeObject>();
    return [...m.keys()]
      .filter((k) => namespace === '' || k.startsWith(namespace + '/'))
      .sort()
      .map((k) => m.get(k)!);
  }

  async get(r: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.byResource.get(grKey(r))?.get(objKey(namespace, name));
  }

  async list(r: GroupResource, namespace = ''): Promise<KubeObject[]> {
    return this.cached(r, namespace);
  }
}

const RBAC = 'rbac.authorization.k8s.io';

export interface TestRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export function clusterRole(name: string, rules: TestRule[], labels?: Record<string, string>): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules };
}

export function role(namespace: string, name: string, rules: TestRule[]): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules };
}

/** Subjects as "User:alice", "Group:devs", "ServiceAccount:ns/name" or "ServiceAccount:name". */
function subjects(specs: string[]): object[] {
  return specs.map((s) => {
    const [kind, rest] = s.split(/:(.*)/s) as [string, string];
    if (kind === 'ServiceAccount') {
      const [ns, name] = rest.includes('/') ? rest.split('/') : ['', rest];
      return ns ? { kind, name, namespace: ns } : { kind, name };
    }
    return { apiGroup: RBAC, kind, name: rest };
  });
}

export function clusterRoleBinding(name: string, roleName: string, ...subjectSpecs: string[]): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects: subjects(subjectSpecs),
  };
}

export function roleBinding(namespace: string, name: string, ref: { kind: 'Role' | 'ClusterRole'; name: string }, ...subjectSpecs: string[]): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC, ...ref },
    subjects: subjects(subjectSpecs),
  };
}

export function user(username: string, ...groups: string[]): UserInfo {
  return { username, uid: '', groups, extra: {} };
}

/** Request attributes with upstream's defaults: a resource request unless `path` is given. */
export function attrs(u: UserInfo, a: Partial<Omit<Attributes, 'user'>>): Attributes {
  return {
    user: u,
    verb: 'get',
    isResourceRequest: a.path === undefined,
    path: '',
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: '',
    subresource: '',
    name: '',
    ...a,
  };
}
