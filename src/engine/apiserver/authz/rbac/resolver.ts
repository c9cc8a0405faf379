/**
 * The default rule resolver (pkg/registry/rbac/validation DefaultRuleResolver): the rules a user
 * holds in a namespace, from the ClusterRoleBindings and then the namespace's RoleBindings that
 * name it, each resolved through its roleRef. Rules are visited lazily so the authorizer stops at
 * the first that allows; roles that cannot be resolved become errors, which are only reasons.
 */
import { goQuote } from '../../../api/gofmt';
import type { UserInfo } from '../../authn/user';
import { describeSubject } from './subjects';
import type { AppliedBinding, BindingIndex } from './indexes';
import type { PolicyRule, RoleRef } from './types';
import { fail, ok, type Result } from '../../../api/result';

/** Where the resolver reads RBAC objects from: the watch cache (authorizer) or the store (escalation checks). */
export interface RbacState {
  clusterRoleBindings(): BindingIndex;
  roleBindings(namespace: string): BindingIndex;
  clusterRoleRules(name: string): PolicyRule[] | undefined;
  roleRules(namespace: string, name: string): PolicyRule[] | undefined;
  /** The not-found text of the state's source: listers say "clusterrole.rbac...", the registry "clusterroles.rbac...". */
  notFound(kind: 'Role' | 'ClusterRole', name: string): string;
}

/** The binding a rule came from; described only when a reason needs it. */
export interface RuleSource extends AppliedBinding {
  readonly clusterWide: boolean;
}

export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

/** The allow reason's binding part: ClusterRoleBinding "x" of ClusterRole "y" to User "z". */
export function describeSource(s: RuleSource): string {
  const { binding, subject } = s;
  const kind = s.clusterWide ? 'ClusterRoleBinding' : 'RoleBinding';
  const name = s.clusterWide ? binding.name : `${binding.name}/${binding.namespace}`;
  return `${kind} ${goQuote(name)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}

/** GetRoleReferenceRules: the rules of the role a binding refers to, or why there are none. */
export function roleReferenceRules(state: RbacState, ref: RoleRef, bindingNamespace: string): Result<PolicyRule[]> {
  switch (ref.kind) {
    case 'Role': {
      const rules = bindingNamespace === '' ? undefined : state.roleRules(bindingNamespace, ref.name);
      return rules ? ok(rules) : fail(state.notFound('Role', ref.name));
    }
    case 'ClusterRole': {
      const rules = state.clusterRoleRules(ref.name);
      return rules ? ok(rules) : fail(state.notFound('ClusterRole', ref.name));
    }
    default:
      return fail(`unsupported role reference kind: ${goQuote(ref.kind)}`);
  }
}

export function visitRulesFor(state: RbacState, user: UserInfo, namespace: string, visitor: RuleVisitor): void {
  const visitBindings = (applied: AppliedBinding[], clusterWide: boolean): boolean => {
    for (const a of applied) {
      const resolved = roleReferenceRules(state, a.binding.roleRef, clusterWide ? '' : namespace);
      if (!resolved.ok) {
        if (!visitor(undefined, undefined, resolved.error)) return false;
        continue;
      }
      const source: RuleSource = { ...a, clusterWide };
      for (const rule of resolved.value) if (!visitor(source, rule, undefined)) return false;
    }
    return true;
  };
  if (!visitBindings(state.clusterRoleBindings().appliesTo(user), true)) return;
  if (namespace !== '') visitBindings(state.roleBindings(namespace).appliesTo(user), false);
}

/** RulesFor: every rule the user holds in the namespace, and the resolution errors. */
export function rulesFor(state: RbacState, user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(state, user, namespace, (_, rule, err) => {
    if (rule) rules.push(rule);
    if (err !== undefined) errors.push(err);
    return true;
  });
  return { rules, errors };
}
