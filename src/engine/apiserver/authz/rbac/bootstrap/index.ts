/**
 * The bootstrap policy kube-apiserver's rbac/bootstrap-roles post-start hook reconciles at
 * startup (plugin/pkg/auth/authorizer/rbac/bootstrappolicy; the data and its provenance are in
 * this folder). The aggregated roles admin, edit and view are returned with the rules the
 * clusterrole-aggregation controller would give them.
 */
import type { KubeObject } from '../../../../api/types';
import { aggregateClusterRoles } from '../aggregation';
import { rulesOf, type PolicyRule } from '../types';
import clusterRoleBindings from './cluster-role-bindings.json';
import clusterRoles from './cluster-roles.json';
import controllerRoleBindings from './controller-role-bindings.json';
import controllerRoles from './controller-roles.json';
import namespaceRoleBindings from './namespace-role-bindings.json';
import namespaceRoles from './namespace-roles.json';

const copy = (objs: readonly object[]): KubeObject[] => structuredClone(objs) as KubeObject[];

/**
 * Fresh copies, in the order the hook creates them: cluster roles, cluster role bindings, then
 * the Roles and RoleBindings of kube-system and kube-public (those namespaces must exist first).
 */
export function bootstrapPolicyObjects(): KubeObject[] {
  return [
    ...aggregateClusterRoles(copy([...clusterRoles, ...controllerRoles])),
    ...copy(clusterRoleBindings),
    ...copy(controllerRoleBindings),
    ...copy(namespaceRoles),
    ...copy(namespaceRoleBindings),
  ];
}

/** bootstrappolicy.NodeRules(): the system:node role's rules, which the Node authorizer applies to kubelets. */
export function nodeRules(): PolicyRule[] {
  const role = copy(clusterRoles).find((r) => r.metadata.name === 'system:node');
  return role ? rulesOf(role) : [];
}
