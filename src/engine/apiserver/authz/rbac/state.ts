/**
 * The two places RBAC state is read from. The authorizer reads the watch cache synchronously, as
 * kube-apiserver's RBAC authorizer reads its informers' listers; the escalation checks of the RBAC
 * registries read the store, as upstream's storage-backed rule resolver does. They differ in the
 * not-found text: the listers name the singular resource, the registry the plural.
 */
import { goQuote } from '../../../api/gofmt';
import type { KubeObject } from '../../../api/types';
import type { GroupResource, ObjectReader } from '../../storage/reader';
import { BindingIndex, Derived, DerivedByNamespace, RoleIndex } from './indexes';
import type { RbacState } from './resolver';
import { RBAC_GROUP, type PolicyRule } from './types';

export const CLUSTER_ROLES: GroupResource = { group: RBAC_GROUP, resource: 'clusterroles' };
export const CLUSTER_ROLE_BINDINGS: GroupResource = { group: RBAC_GROUP, resource: 'clusterrolebindings' };
export const ROLES: GroupResource = { group: RBAC_GROUP, resource: 'roles' };
export const ROLE_BINDINGS: GroupResource = { group: RBAC_GROUP, resource: 'rolebindings' };

const notFound = (resource: string, name: string): string => `${resource}.${RBAC_GROUP} ${goQuote(name)} not found`;

/** The authorizer's view: indexes rebuilt only when the cached lists change. */
export class CachedRbacState implements RbacState {
  private readonly crbs = new Derived((objs) => new BindingIndex(objs));
  private readonly rbs = new DerivedByNamespace((objs) => new BindingIndex(objs));
  private readonly clusterRoles = new Derived((objs) => new RoleIndex(objs));
  private readonly roles = new DerivedByNamespace((objs) => new RoleIndex(objs));

  constructor(private readonly reader: ObjectReader) {}

  clusterRoleBindings(): BindingIndex {
    return this.crbs.of(this.reader.cached(CLUSTER_ROLE_BINDINGS));
  }

  roleBindings(namespace: string): BindingIndex {
    return this.rbs.of(namespace, this.reader.cached(ROLE_BINDINGS, namespace));
  }

  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.clusterRoles.of(this.reader.cached(CLUSTER_ROLES)).rules(name);
  }

  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    return this.roles.of(namespace, this.reader.cached(ROLES, namespace)).rules(name);
  }

  notFound(kind: 'Role' | 'ClusterRole', name: string): string {
    return notFound(kind === 'Role' ? 'role' : 'clusterrole', name);
  }
}

/** The registry's view for one namespace, read consistently from the store once per check. */
export class StoredRbacState implements RbacState {
  private constructor(
    private readonly namespace: string,
    private readonly crbs: BindingIndex,
    private readonly rbs: BindingIndex,
    private readonly clusterRoles: RoleIndex,
    private readonly roles: RoleIndex,
  ) {}

  static async load(reader: ObjectReader, namespace: string): Promise<StoredRbacState> {
    const inNamespace = (r: GroupResource): Promise<KubeObject[]> => (namespace === '' ? Promise.resolve([]) : reader.list(r, namespace));
    const [crbs, rbs, clusterRoles, roles] = await Promise.all([
      reader.list(CLUSTER_ROLE_BINDINGS),
      inNamespace(ROLE_BINDINGS),
      reader.list(CLUSTER_ROLES),
      inNamespace(ROLES),
    ]);
    return new StoredRbacState(namespace, new BindingIndex(crbs), new BindingIndex(rbs), new RoleIndex(clusterRoles), new RoleIndex(roles));
  }

  clusterRoleBindings(): BindingIndex {
    return this.crbs;
  }

  roleBindings(namespace: string): BindingIndex {
    return namespace === this.namespace ? this.rbs : new BindingIndex([]);
  }

  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.clusterRoles.rules(name);
  }

  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    return namespace === this.namespace ? this.roles.rules(name) : undefined;
  }

  notFound(kind: 'Role' | 'ClusterRole', name: string): string {
    return notFound(kind === 'Role' ? 'roles' : 'clusterroles', name);
  }
}
